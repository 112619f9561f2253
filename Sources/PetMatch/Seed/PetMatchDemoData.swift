import HuddleCore
import HuddlePostgres
import HuddleRuntime

/// petMatch's demo data: shelters in and around New York (where the demo
/// accounts live), their pets with names and bios written for Huddle and
/// photo URLs on a reserved example domain, users' preferences, swipes and
/// favourites. The demo account runs the first shelter and has no
/// preferences yet (the feed starts from the defaults). `bench` is 500
/// shelters, 100,000 pets, 10,000 users with preferences and 2,000,000 swipes.
///
/// Swipes go in set by set with the swipe triggers off for the seeding
/// transaction (a swipe on a pet adopted since is history, not a new
/// swipe), and the favourites they would have made are added from them.
enum PetMatchDemoData {
    struct Shape {
        var shelters: Int
        var pets: Int
        /// Users from this id on have preferences.
        var preferencesFrom: Int
        /// Each user's swipes: the nearest pets their preferences match, then pets anywhere, this many in all.
        var nearestSwipes: Int
        var swipes: Int
    }

    static func shape(_ scale: DemoScale) -> Shape {
        switch scale {
        case .demo: Shape(shelters: 12, pets: 180, preferencesFrom: 2, nearestSwipes: 8, swipes: 15)
        case .bench: Shape(shelters: 500, pets: 100_000, preferencesFrom: 1, nearestSwipes: 100, swipes: 200)
        }
    }

    static let cities: [(city: String, state: String, postcode: String, latitude: Double, longitude: Double)] = [
        ("Brooklyn", "NY", "11201", 40.6782, -73.9442), ("Queens", "NY", "11354", 40.7282, -73.7949),
        ("Manhattan", "NY", "10024", 40.7831, -73.9712), ("Bronx", "NY", "10458", 40.8448, -73.8648),
        ("Jersey City", "NJ", "07302", 40.7178, -74.0431), ("Hoboken", "NJ", "07030", 40.7440, -74.0324),
        ("Staten Island", "NY", "10301", 40.5795, -74.1502), ("Newark", "NJ", "07102", 40.7357, -74.1724),
        ("Yonkers", "NY", "10701", 40.9312, -73.8988), ("Hempstead", "NY", "11550", 40.7062, -73.6187),
        ("White Plains", "NY", "10601", 41.0340, -73.7629), ("Paterson", "NJ", "07501", 40.9168, -74.1718),
        ("Long Beach", "NY", "11561", 40.5884, -73.6579), ("Stamford", "CT", "06901", 41.0534, -73.5387),
        ("New Haven", "CT", "06510", 41.3083, -72.9279), ("Princeton", "NJ", "08540", 40.3573, -74.6672),
        ("Poughkeepsie", "NY", "12601", 41.7004, -73.9210), ("Trenton", "NJ", "08608", 40.2171, -74.7429),
        ("Hartford", "CT", "06103", 41.7658, -72.6734), ("Allentown", "PA", "18101", 40.6084, -75.4902),
        ("Philadelphia", "PA", "19107", 39.9526, -75.1652), ("Springfield", "MA", "01103", 42.1015, -72.5898),
        ("Albany", "NY", "12207", 42.6526, -73.7562), ("Providence", "RI", "02903", 41.8240, -71.4128),
    ]

    static let shelterNames = [
        "Harbor Light", "Maple Street", "Riverside", "Second Chance", "Hudson Valley", "Brookside", "Cedar Hill", "Lantern House",
        "Northgate", "Willow Creek", "Bayview", "Pinewood", "Sunny Paws", "Old Mill", "Greenpoint", "Copper Kettle", "Blue Door",
        "Foxglove", "Little Lighthouse", "Kindred Tails",
    ]
    static let shelterKinds = ["Animal Rescue", "Pet Shelter", "Humane Society", "Adoption Center", "Animal Haven", "Rescue League"]
    static let streets = ["Main St", "Oak Ave", "Water St", "Park Pl", "Elm St", "Bridge Rd", "Mill Ln", "Church St"]

    static let petNames = [
        "Biscuit", "Luna", "Pepper", "Milo", "Olive", "Juniper", "Mochi", "Rosie", "Otis", "Hazel", "Banjo", "Clementine", "Waffles",
        "Nori", "Pickles", "Maple", "Ziggy", "Poppy", "Tofu", "Marble", "Scout", "Willow", "Pretzel", "Fig", "Bean", "Cinder", "Dottie",
        "Gus", "Sprout", "Tilly", "Rufus", "Pearl", "Bowie", "Saffron", "Nutmeg", "Ollie", "Lentil", "Mabel", "Chester", "Kiwi",
        "Dumpling", "Echo", "Fennel", "Gizmo", "Honey", "Iggy", "Jasper", "Koda", "Lulu", "Mango", "Noodle", "Oreo", "Peaches", "Quincy",
        "Rocket", "Sesame", "Truffle", "Umber", "Vesper", "Wren",
    ]
    // A bio is an arrival, a story, a temperament and a practical note.
    static let arrivals = ["came to us", "arrived", "was found", "was surrendered", "was brought in"]
    static let stories = [
        "after a long winter on a farm", "when their family moved abroad", "wandering near a train station", "with three siblings",
        "from an overcrowded home", "as a stray who knew every café on the block",
    ]
    static let temperaments = [
        "Loves slow mornings and a warm windowsill.", "Will trade any toy for a treat, and then ask for the toy back.",
        "Is shy for the first hour and your shadow after that.", "Greets every visitor as if they were the mail carrier of their dreams.",
        "Has opinions about squeaky toys and shares them.", "Walks nicely on a lead and stops to inspect every flower.",
        "Gets along with calm dogs and ignores cats with dignity.", "Would do best as the only pet in a quiet home.",
    ]
    static let notes = [
        "Vaccinated and microchipped.", "Spayed or neutered, vaccinated, and ready to go home.", "House-trained and learning new tricks.",
        "Our volunteers say: patient people will be rewarded.", "Ask us about a meet-and-greet this weekend.",
    ]

    static let swipeTriggers = [("pet_swipes", "pet_swipes_check"), ("pet_swipes", "pet_swipes_favorite")]

    static func seed(_ scale: DemoScale, users: Int, on connection: PostgresConnection) async throws -> String {
        let shape = shape(scale)
        try await seedShelters(shape, users: users, on: connection)
        try await seedPets(shape, on: connection)
        if scale == .demo {
            // The first pets' card photos are pictures the server serves.
            for pet in 1...8 {
                let photo = try await DemoPictures.store(pet, owner: nil, purpose: "pet-photo", on: connection)
                _ = try await connection.query(
                    "UPDATE pet_photos SET url = NULL, media_id = $2 WHERE pet_id = $1 AND position = 0 AND $2::bigint IS NOT NULL",
                    [Int64(pet), photo])
            }
        }
        try await seedPreferences(shape, users: users, on: connection)
        _ = try await connection.query("ANALYZE shelters, pets, pet_preferences")
        try await seedSwipes(shape, on: connection)
        let counts = try await connection.query(
            """
            SELECT (SELECT count(*) FROM shelters)::int, (SELECT count(*) FROM pets)::int,
                   (SELECT count(*) FROM pet_preferences)::int, (SELECT count(*) FROM pet_swipes)::int
            """)[0]
        return
            "\(try counts.decode(Int.self, at: 0)) shelters, \(try counts.decode(Int.self, at: 1)) pets, \(try counts.decode(Int.self, at: 2)) pet preferences, \(try counts.decode(Int.self, at: 3)) swipes"
    }

    /// Shelters in the cities above, the ones near New York more often
    /// (the first 24 one in each city), and one staff member each: the
    /// demo account runs the first.
    private static func seedShelters(_ shape: Shape, users: Int, on connection: PostgresConnection) async throws {
        _ = try await connection.query(
            """
            INSERT INTO shelters (name, email, phone, street, city, state, postcode, country, latitude, longitude, created_at)
            SELECT ($1::text[])[1 + i % array_length($1::text[], 1)] || ' ' || ($2::text[])[1 + (i / 20) % array_length($2::text[], 1)]
                     || CASE WHEN i > 120 THEN ' of ' || c.city || ' ' || (i / 120) ELSE '' END,
                   CASE WHEN i % 5 <> 0 OR i % 7 = 0 THEN 'adopt' || i || '@shelters.example.org' END,
                   CASE WHEN i % 7 <> 0 OR i % 5 = 0 THEN '+1 555 ' || lpad((100 + i % 900)::text, 3, '0') || ' ' || lpad((i * 37 % 10000)::text, 4, '0') END,
                   (10 + i * 13 % 890) || ' ' || ($3::text[])[1 + i % array_length($3::text[], 1)],
                   c.city, c.state, c.postcode, 'US',
                   round((c.latitude + (\(pick("i || ':slat'")) - 0.5) * 0.12)::numeric, 6),
                   round((c.longitude + (\(pick("i || ':slng'")) - 0.5) * 0.16)::numeric, 6),
                   now() - interval '400 days' + i * interval '1 hour'
            FROM generate_series(1, $4::int) AS i
            JOIN unnest($5::text[], $6::text[], $7::text[], $8::float8[], $9::float8[]) WITH ORDINALITY
                 AS c(city, state, postcode, latitude, longitude, n)
              ON c.n = CASE WHEN i <= array_length($5::text[], 1) THEN i
                            ELSE 1 + floor(power(\(pick("i || ':city'")), 2) * array_length($5::text[], 1))::int END
            ORDER BY i
            """,
            [
                shelterNames, shelterKinds, streets, shape.shelters, cities.map(\.city), cities.map(\.state), cities.map(\.postcode),
                cities.map(\.latitude), cities.map(\.longitude),
            ])
        _ = try await connection.query(
            "INSERT INTO shelter_staff (shelter_id, user_id) SELECT id, CASE WHEN id = 1 THEN 1 ELSE 1 + (id * 37) % $1::int END FROM shelters",
            [users])
    }

    /// Pets of every type in Petfinder-like proportions, published over the
    /// last 180 days and inserted oldest first (ids follow publication), 15%
    /// of them pending or adopted; each with one to four photos.
    private static func seedPets(_ shape: Shape, on connection: PostgresConnection) async throws {
        _ = try await connection.query(
            """
            INSERT INTO pets (shelter_id, name, type, primary_breed_id, secondary_breed_id, size, age_group, gender, coat, color, description,
                              status, published_at, status_changed_at, updated_by, updated_at, created_at)
            SELECT x.shelter_id, x.name, x.type, c.breeds[1 + floor(x.b1 * array_length(c.breeds, 1))::int],
                   CASE WHEN x.b2 < 0.2 AND array_length(c.breeds, 1) > 1
                        THEN c.breeds[1 + (floor(x.b1 * array_length(c.breeds, 1))::int + 1
                                           + floor(x.b2 * 5 * (array_length(c.breeds, 1) - 1))::int) % array_length(c.breeds, 1)] END,
                   c.sizes[1 + floor(\(pick("x.i || ':size'")) * array_length(c.sizes, 1))::int],
                   (ARRAY['BABY', 'YOUNG', 'YOUNG', 'ADULT', 'ADULT', 'ADULT', 'SENIOR'])[1 + floor(\(pick("x.i || ':age'")) * 7)::int],
                   (ARRAY['FEMALE', 'MALE', 'FEMALE', 'MALE', 'UNKNOWN'])[1 + floor(\(pick("x.i || ':gender'")) * 4.2)::int],
                   c.coats[1 + floor(\(pick("x.i || ':coat'")) * array_length(c.coats, 1))::int],
                   c.colors[1 + floor(\(pick("x.i || ':color'")) * array_length(c.colors, 1))::int],
                   x.name || ' ' || ($3::text[])[1 + x.i % array_length($3::text[], 1)] || ' '
                     || ($4::text[])[1 + (x.i / 5) % array_length($4::text[], 1)] || '. '
                     || ($5::text[])[1 + (x.i / 30) % array_length($5::text[], 1)] || ' ' || ($6::text[])[1 + (x.i / 7) % array_length($6::text[], 1)],
                   x.status, x.published, x.published + CASE WHEN x.status <> 'ADOPTABLE' THEN interval '3 days' ELSE interval '0' END,
                   (SELECT min(m.user_id) FROM shelter_staff m WHERE m.shelter_id = x.shelter_id), x.published, x.published
            FROM (
                SELECT i, 1 + floor(\(pick("i || ':shelter'")) * $1::int)::int AS shelter_id,
                       ($2::text[])[1 + floor(\(pick("i || ':name'")) * array_length($2::text[], 1))::int] AS name,
                       CASE WHEN t < 0.45 THEN 'DOG' WHEN t < 0.80 THEN 'CAT' WHEN t < 0.86 THEN 'RABBIT' WHEN t < 0.91 THEN 'SMALL_AND_FURRY'
                            WHEN t < 0.95 THEN 'BIRD' WHEN t < 0.97 THEN 'SCALES_FINS_AND_OTHER' WHEN t < 0.99 THEN 'BARNYARD' ELSE 'HORSE' END AS type,
                       \(pick("i || ':b1'")) AS b1, \(pick("i || ':b2'")) AS b2,
                       CASE WHEN st < 0.85 THEN 'ADOPTABLE' WHEN st < 0.93 THEN 'PENDING' ELSE 'ADOPTED' END AS status,
                       now() - \(pick("i || ':published'")) * interval '180 days' AS published
                FROM generate_series(1, $7::int) AS i, LATERAL (SELECT \(pick("i || ':type'")) AS t, \(pick("i || ':status'")) AS st) r
            ) x
            JOIN (
                SELECT t.type, ARRAY(SELECT id FROM breeds b WHERE b.type = t.type ORDER BY b.id) AS breeds,
                       ARRAY(SELECT coat FROM pet_type_coats k WHERE k.type = t.type ORDER BY k.coat) AS coats,
                       ARRAY(SELECT color FROM pet_type_colors k WHERE k.type = t.type ORDER BY k.position) AS colors,
                       CASE t.type WHEN 'DOG' THEN ARRAY['SMALL', 'MEDIUM', 'MEDIUM', 'LARGE', 'LARGE', 'EXTRA_LARGE']
                                   WHEN 'CAT' THEN ARRAY['SMALL', 'MEDIUM', 'MEDIUM', 'LARGE']
                                   WHEN 'HORSE' THEN ARRAY['LARGE', 'EXTRA_LARGE']
                                   WHEN 'BARNYARD' THEN ARRAY['SMALL', 'MEDIUM', 'LARGE']
                                   ELSE ARRAY['SMALL', 'SMALL', 'MEDIUM'] END AS sizes
                FROM pet_types t
            ) c ON c.type = x.type
            ORDER BY x.published
            """, [shape.shelters, petNames, arrivals, stories, temperaments, notes, shape.pets])
        _ = try await connection.query(
            """
            INSERT INTO pet_photos (pet_id, position, url)
            SELECT p.id, n, 'https://photos.petmatch.example/pets/' || p.id || '/' || (n + 1) || '.jpg'
            FROM pets p, generate_series(0, p.id % 4) AS n
            """)
    }

    /// Preferences of the shared accounts (another app may be adding
    /// accounts of its own at the same time): most users want a dog, a cat or a rabbit, some narrow
    /// sizes, ages or genders, a few name breeds; distances 25 to 100 km from home.
    private static func seedPreferences(_ shape: Shape, users: Int, on connection: PostgresConnection) async throws {
        _ = try await connection.query(
            """
            INSERT INTO pet_preferences (user_id, type, sizes, age_groups, genders, distance_km)
            SELECT u.id,
                   CASE WHEN t < 0.4 THEN 'DOG' WHEN t < 0.7 THEN 'CAT' WHEN t < 0.8 THEN 'RABBIT' END,
                   CASE WHEN \(pick("u.id || ':sizes'")) < 0.3 THEN ARRAY['SMALL', 'MEDIUM'] ELSE '{}' END,
                   CASE WHEN \(pick("u.id || ':ages'")) < 0.2 THEN ARRAY['BABY', 'YOUNG'] ELSE '{}' END,
                   CASE WHEN \(pick("u.id || ':genders'")) < 0.1 THEN ARRAY['FEMALE'] ELSE '{}' END,
                   (ARRAY[25, 50, 50, 80, 100])[1 + floor(\(pick("u.id || ':distance'")) * 5)::int]
            FROM users u, LATERAL (SELECT \(pick("u.id || ':type'")) AS t) x
            WHERE u.id BETWEEN $1 AND $2
            """, [shape.preferencesFrom, users])
        _ = try await connection.query(
            """
            INSERT INTO pet_preference_breeds (user_id, type, breed_id)
            SELECT p.user_id, p.type, b.id FROM pet_preferences p JOIN breeds b ON b.type = p.type
            WHERE p.type = 'DOG' AND \(pick("p.user_id || ':breeds'")) < 0.1 AND b.name IN ('Labrador Retriever', 'Beagle', 'Mixed Breed')
            """)
    }

    /// Each user with preferences swiped the first adoptable pets their feed
    /// showed them (the nearest shelters' newest of their type) and some
    /// pets anywhere: 70% left,
    /// 25% right, 5% super; the right ones are favourites.
    private static func seedSwipes(_ shape: Shape, on connection: PostgresConnection) async throws {
        try await DemoData.setTriggers(swipeTriggers, enabled: false, on: connection)
        _ = try await connection.query(
            """
            INSERT INTO pet_swipes (user_id, pet_id, direction, swiped_at)
            SELECT u.id, c.pet_id,
                   CASE WHEN d < 0.70 THEN 'LEFT' WHEN d < 0.95 THEN 'RIGHT' ELSE 'SUPER' END,
                   now() - \(pick("u.id || ':' || c.pet_id || ':at'")) * interval '60 days'
            FROM users u JOIN pet_preferences pr ON pr.user_id = u.id, (SELECT max(id) AS pets FROM pets) n,
            LATERAL (
                SELECT pet_id FROM (
                    SELECT DISTINCT ON (pet_id) pet_id, k FROM (
                        SELECT nearest.id AS pet_id, row_number() OVER () AS k FROM (
                            SELECT q.id FROM (
                                SELECT s.id FROM shelters s
                                ORDER BY ll_to_earth(s.latitude, s.longitude) <-> ll_to_earth(u.home_latitude, u.home_longitude) LIMIT 10
                            ) near
                            CROSS JOIN LATERAL (
                                SELECT p.id FROM pets p
                                WHERE p.shelter_id = near.id AND p.status = 'ADOPTABLE' AND (pr.type IS NULL OR p.type = pr.type)
                                ORDER BY p.published_at DESC, p.id DESC LIMIT $1::int
                            ) q
                            LIMIT $1::int
                        ) nearest
                        UNION ALL
                        SELECT 1 + (u.id * 7919 + j * 104729) % n.pets, 100000 + j FROM generate_series(1, $2::int) AS j
                    ) candidates ORDER BY pet_id, k
                ) distinct_candidates ORDER BY k LIMIT $2::int
            ) c, LATERAL (SELECT \(pick("u.id || ':' || c.pet_id || ':dir'")) AS d) x
            """, [shape.nearestSwipes, shape.swipes])
        // Favourites are the right and super swipes by construction, which
        // is what pet_favorites_check holds one row at a time.
        try await DemoData.setTriggers([("pet_favorites", "pet_favorites_check")], enabled: false, on: connection)
        _ = try await connection.query(
            """
            INSERT INTO pet_favorites (user_id, pet_id, is_super, created_at)
            SELECT user_id, pet_id, direction = 'SUPER', swiped_at FROM pet_swipes WHERE direction <> 'LEFT'
            """)
        try await DemoData.setTriggers([("pet_favorites", "pet_favorites_check")], enabled: true, on: connection)
        try await DemoData.setTriggers(swipeTriggers, enabled: true, on: connection)
    }

    private static func pick(_ key: String) -> String { DemoData.pick(key) }
}
