import HuddlePostgres

/// The demo's gazetteer: New York's boroughs and neighbours, where the demo
/// sessions and shelters are, a few of their postal codes, and some large
/// cities elsewhere; coordinates rounded, populations approximate. A real
/// deployment imports GeoNames' files instead (`huddle places import`).
enum DemoPlaces {
    /// (name, region, country, latitude, longitude, population, time zone)
    static let cities: [(String, String, String, Double, Double, Int64, String)] = [
        ("New York City", "NY", "US", 40.7143, -74.0060, 8_804_000, "America/New_York"),
        ("Manhattan", "NY", "US", 40.7834, -73.9663, 1_694_000, "America/New_York"),
        ("Brooklyn", "NY", "US", 40.6501, -73.9496, 2_736_000, "America/New_York"),
        ("Queens", "NY", "US", 40.6815, -73.8365, 2_405_000, "America/New_York"),
        ("The Bronx", "NY", "US", 40.8499, -73.8664, 1_472_000, "America/New_York"),
        ("Staten Island", "NY", "US", 40.5623, -74.1399, 495_000, "America/New_York"),
        ("Astoria", "NY", "US", 40.7721, -73.9301, 78_000, "America/New_York"),
        ("Williamsburg", "NY", "US", 40.7081, -73.9571, 151_000, "America/New_York"),
        ("Harlem", "NY", "US", 40.8079, -73.9454, 116_000, "America/New_York"),
        ("Flushing", "NY", "US", 40.7654, -73.8318, 72_000, "America/New_York"),
        ("Yonkers", "NY", "US", 40.9312, -73.8988, 211_000, "America/New_York"),
        ("Jersey City", "NJ", "US", 40.7282, -74.0776, 292_000, "America/New_York"),
        ("Hoboken", "NJ", "US", 40.7440, -74.0324, 60_000, "America/New_York"),
        ("Newark", "NJ", "US", 40.7357, -74.1724, 311_000, "America/New_York"),
        ("Boston", "MA", "US", 42.3584, -71.0598, 675_000, "America/New_York"),
        ("Philadelphia", "PA", "US", 39.9524, -75.1636, 1_603_000, "America/New_York"),
        ("Chicago", "IL", "US", 41.8500, -87.6500, 2_746_000, "America/Chicago"),
        ("San Francisco", "CA", "US", 37.7749, -122.4194, 874_000, "America/Los_Angeles"),
        ("Los Angeles", "CA", "US", 34.0522, -118.2437, 3_898_000, "America/Los_Angeles"),
        ("Toronto", "ON", "CA", 43.7001, -79.4163, 2_794_000, "America/Toronto"),
        ("London", "ENG", "GB", 51.5085, -0.1257, 8_962_000, "Europe/London"),
        ("Paris", "IDF", "FR", 48.8534, 2.3488, 2_138_000, "Europe/Paris"),
        ("Berlin", "BE", "DE", 52.5244, 13.4105, 3_426_000, "Europe/Berlin"),
        ("Madrid", "MD", "ES", 40.4165, -3.7026, 3_255_000, "Europe/Madrid"),
        ("Rome", "LAZ", "IT", 41.8919, 12.5113, 2_873_000, "Europe/Rome"),
        ("Tokyo", "13", "JP", 35.6895, 139.6917, 13_960_000, "Asia/Tokyo"),
        ("Sydney", "NSW", "AU", -33.8679, 151.2073, 5_312_000, "Australia/Sydney"),
    ]

    /// (postal code, place, region, latitude, longitude), all in the US.
    static let postalCodes: [(String, String, String, Double, Double)] = [
        ("10001", "New York", "New York", 40.7484, -73.9967), ("10003", "New York", "New York", 40.7317, -73.9892),
        ("10024", "New York", "New York", 40.7870, -73.9754), ("10451", "Bronx", "New York", 40.8202, -73.9243),
        ("11102", "Astoria", "New York", 40.7716, -73.9264), ("11201", "Brooklyn", "New York", 40.6940, -73.9903),
        ("11211", "Brooklyn", "New York", 40.7123, -73.9533), ("11215", "Brooklyn", "New York", 40.6625, -73.9862),
    ]

    static var entries: [GazetteerEntry] {
        // Ids of the demo's own, from 1; a GeoNames import keeps GeoNames' ids, which are far above these.
        cities.enumerated().map { index, city in
            GazetteerEntry(
                geonameID: Int64(index + 1), name: city.0, searchName: city.0.lowercased(), countryCode: city.2, region: city.1,
                postalCode: nil, latitude: city.3, longitude: city.4, population: city.5, timeZone: city.6)
        }
            + postalCodes.map { code in
                GazetteerEntry(
                    geonameID: nil, name: code.1, searchName: code.1.lowercased(), countryCode: "US", region: code.2, postalCode: code.0,
                    latitude: code.3, longitude: code.4, population: nil, timeZone: nil)
            }
    }

    /// Stores them, unless the gazetteer has places already (imported ones are kept).
    static func seed(on connection: PostgresConnection) async throws -> Int {
        guard try await connection.query("SELECT NOT EXISTS (SELECT FROM places)")[0].decode(Bool.self, at: 0) else { return 0 }
        try await Gazetteer.store(entries, into: connection)
        return entries.count
    }
}
