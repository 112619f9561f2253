import Foundation
import GraphQL
import HuddleCore
import HuddlePostgres

/// The statement behind the swipe feed and the pet search: pets matching
/// criteria, nearest first then newest, or newest first, one keyset page.
///
/// A pet is where its shelter is, so "nearest first, then newest" is the
/// shelters within reach from their GiST index ordered by (distance, id),
/// and each shelter's pets newest first from its (shelter, published, id)
/// index, the two joined laterally so the scan stops once the page is full.
/// (Ordering pets by a GiST distance and a second key would sort every pet
/// within reach: docs/performance.md, "Measured choices".) The page is
/// the first rows of that nested loop, in its order: the lateral joins
/// leave the planner no other shape.
struct PetListQuery {
    var criteria: PetCriteria
    /// Leave out pets this user has swiped (the feed).
    var unseenBy: Int64?
    /// Only adoptable pets (the partial indexes' condition); else `criteria.statuses`.
    var adoptableOnly: Bool
    /// Nearest first (needs `criteria.near`); else newest first.
    var byDistance: Bool
    /// The shelters, kept in the process: nearest first, they are measured
    /// and ordered here rather than by PostgreSQL (nil: by PostgreSQL).
    var directory: ShelterDirectory? = nil

    /// Columns after the pet's: the distance in km (null without an origin), then the shelter's.
    static let distanceColumn = PetRecord.columnCount
    static let shelterColumn = PetRecord.columnCount + 1

    private func bind(_ value: any PostgresEncodable, _ parameters: inout [any PostgresEncodable], as type: String) -> String {
        PetCriteria.bind(value, &parameters, as: type)
    }

    /// The page `request` asks for (forwards only).
    func page(_ request: PageRequest, on database: some PostgresQuerying) async throws -> (ConnectionPage, [PetRecord], [ShelterRecord]) {
        var parameters: [any PostgresEncodable] = []
        let criteria = criteria.subquery(&parameters)
        let status = adoptableOnly ? "p.status = 'ADOPTABLE'" : "p.status = ANY(v.statuses)"
        var petConditions = [
            status,
            "(v.type IS NULL OR p.type = v.type)",
            "(cardinality(v.sizes) = 0 OR p.size = ANY(v.sizes))",
            "(cardinality(v.age_groups) = 0 OR p.age_group = ANY(v.age_groups))",
            "(cardinality(v.genders) = 0 OR p.gender = ANY(v.genders))",
            "(cardinality(v.breeds) = 0 OR p.primary_breed_id = ANY(v.breeds) OR p.secondary_breed_id = ANY(v.breeds))",
        ]
        if let viewer = unseenBy {
            petConditions.append(
                "NOT EXISTS (SELECT 1 FROM pet_swipes w WHERE w.user_id = \(bind(viewer, &parameters, as: "bigint")) AND w.pet_id = p.id)")
        }
        let limit = bind(request.size + 1, &parameters, as: "int")
        let sql: String
        let keyCount: Int
        let shelterPoint = "ll_to_earth(s.latitude, s.longitude)"
        // Shelter `s` within reach: the box the GiST index answers, refined by the exact distance.
        let withinReach = "earth_box(v.origin, v.metres) @> \(shelterPoint) AND earth_distance(\(shelterPoint), v.origin) <= v.metres"
        // Nearest first: each shelter `near` in order, its pets newest first
        // (of the cursor's shelter, bound as `shelter`, those after its pet).
        func afterCursorsPet(shelter: String, _ after: [String]) -> String {
            let publishedAt = bind(after[2], &parameters, as: "timestamptz"), pet = bind(after[3], &parameters, as: "bigint")
            return "(near.id <> \(shelter) OR (p.published_at, p.id) < (\(publishedAt), \(pet)))"
        }
        func eachSheltersPets() -> String {
            """
            CROSS JOIN LATERAL (
                SELECT p.* FROM pets p WHERE p.shelter_id = near.id AND \(petConditions.joined(separator: " AND "))
                ORDER BY p.published_at DESC, p.id DESC LIMIT \(limit)
            ) p
            LIMIT \(limit)
            """
        }
        let distanceKeys = "near.metres::text, near.id::text, p.published_at::text, p.id::text"
        var nearby: [Int64: ShelterRecord] = [:]
        if byDistance, let directory, let near = self.criteria.near {
            // The shelters within reach in order, each shelter's pets newest
            // first: the same nested loop, its outer side given as arrays.
            keyCount = 4
            var reach = directory.withinReach(latitude: near.0, longitude: near.1, metres: self.criteria.distanceKm * 1000)
            if let after = request.after {
                guard after.count == 4, let metres = Double(after[0]), let shelter = Int64(after[1]) else {
                    throw APIError.badInput("The cursor does not belong to this list.")
                }
                // The cursor's own shelter by its id, whatever its distance's last bit.
                reach.removeAll { $0.shelter.id != shelter && ($0.metres, $0.shelter.id) < (metres, shelter) }
                petConditions.append(afterCursorsPet(shelter: bind(shelter, &parameters, as: "bigint"), after))
            }
            for (shelter, metres) in reach { nearby[shelter.id] = shelter.located(distanceKm: metres / 1000) }
            let ids = bind(reach.map(\.shelter.id), &parameters, as: "bigint[]")
            let metres = bind(reach.map(\.metres), &parameters, as: "float8[]")
            sql = """
                SELECT \(PetRecord.columns), near.metres / 1000, near.id, \(distanceKeys)
                FROM (\(criteria)) v
                CROSS JOIN LATERAL unnest(\(ids), \(metres)) AS near(id, metres)
                \(eachSheltersPets())
                """
        } else if byDistance {
            keyCount = 4
            var shelterConditions = [withinReach]
            if let after = request.after {
                guard after.count == 4 else { throw APIError.badInput("The cursor does not belong to this list.") }
                let metres = bind(after[0], &parameters, as: "float8")
                let shelter = bind(after[1], &parameters, as: "bigint")
                shelterConditions.append("(earth_distance(\(shelterPoint), v.origin), s.id) >= (\(metres), \(shelter))")
                petConditions.append(afterCursorsPet(shelter: shelter, after))
            }
            sql = """
                SELECT \(PetRecord.columns), near.metres / 1000, \(ShelterRecord.columns(of: "near")), \(distanceKeys)
                FROM (\(criteria)) v
                CROSS JOIN LATERAL (
                    SELECT \(ShelterRecord.columns), earth_distance(\(shelterPoint), v.origin) AS metres FROM shelters s
                    WHERE \(shelterConditions.joined(separator: " AND ")) ORDER BY metres, s.id
                ) near
                \(eachSheltersPets())
                """
        } else {
            keyCount = 2
            if let after = request.after {
                guard after.count == 2 else { throw APIError.badInput("The cursor does not belong to this list.") }
                petConditions.append(
                    "(p.published_at, p.id) < (\(bind(after[0], &parameters, as: "timestamptz")), \(bind(after[1], &parameters, as: "bigint")))"
                )
            }
            // Within reach when there is an origin, through the shelters' index.
            petConditions.append("(v.origin IS NULL OR p.shelter_id IN (SELECT s.id FROM shelters s WHERE \(withinReach)))")
            sql = """
                SELECT \(PetRecord.columns), earth_distance(ll_to_earth(s.latitude, s.longitude), v.origin) / 1000, \(ShelterRecord.columns),
                       p.published_at::text, p.id::text
                FROM (\(criteria)) v
                CROSS JOIN LATERAL (
                    SELECT p.* FROM pets p WHERE \(petConditions.joined(separator: " AND "))
                    ORDER BY p.published_at DESC, p.id DESC LIMIT \(limit)
                ) p
                JOIN shelters s ON s.id = p.shelter_id
                ORDER BY p.published_at DESC, p.id DESC
                """
        }
        let rows = try await database.query(sql, parameters)
        let keyStart = rows.columnCount - keyCount
        var edges: [ConnectionPage.Edge] = []
        var pets: [PetRecord] = []
        var shelters: [ShelterRecord] = []
        for row in rows.prefix(request.size) {
            let distance = try row.decode(Double?.self, at: Self.distanceColumn)
            let pet = try PetRecord(row: row, distanceKm: distance)
            let keys = try (keyStart..<keyStart + keyCount).map { try row.decode(String.self, at: $0) }
            edges.append(ConnectionPage.Edge(cursor: PageRequest.cursor(keys), node: pet))
            pets.append(pet)
            if let shelter = nearby[pet.shelterID] {
                shelters.append(shelter)
            } else {
                shelters.append(try ShelterRecord(row: row, offset: Self.shelterColumn, distanceKm: distance))
            }
        }
        let page = ConnectionPage(edges: edges, hasNextPage: rows.count > request.size, hasPreviousPage: request.after != nil)
        return (page, pets, shelters)
    }
}

/// What a list of pets matches: empty lists mean any.
struct PetCriteria: Sendable {
    var type: String?
    var breeds: [Int64] = []
    var sizes: [String] = []
    var ageGroups: [String] = []
    var genders: [String] = []
    var statuses: [String] = ["ADOPTABLE"]
    /// Latitude and longitude; nil: anywhere.
    var near: (Double, Double)?
    var distanceKm: Double = PetCriteria.defaultDistanceKm

    static let defaultDistanceKm = 50.0
    static let maxDistanceKm = 500.0

    static func bind(_ value: any PostgresEncodable, _ parameters: inout [any PostgresEncodable], as type: String) -> String {
        parameters.append(value)
        return "$\(parameters.count)::\(type)"
    }

    /// The one-row subquery `v` the statement reads the criteria from.
    func subquery(_ parameters: inout [any PostgresEncodable]) -> String {
        let origin = "ll_to_earth(\(Self.bind(near?.0, &parameters, as: "float8")), \(Self.bind(near?.1, &parameters, as: "float8")))"
        return """
            SELECT \(origin) AS origin, \(Self.bind(distanceKm * 1000, &parameters, as: "float8")) AS metres, \
            \(Self.bind(type, &parameters, as: "text")) AS type, \(Self.bind(sizes, &parameters, as: "text[]")) AS sizes, \
            \(Self.bind(ageGroups, &parameters, as: "text[]")) AS age_groups, \(Self.bind(genders, &parameters, as: "text[]")) AS genders, \
            \(Self.bind(breeds, &parameters, as: "bigint[]")) AS breeds, \(Self.bind(statuses, &parameters, as: "text[]")) AS statuses
            """
    }
}
