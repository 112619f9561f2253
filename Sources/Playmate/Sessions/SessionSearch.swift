import Foundation
import GraphQL
import HuddleCore
import HuddlePostgres
import HuddleRuntime

/// `sportsSessions(filter:orderBy:)`: the filter as SQL conditions over
/// `sports_sessions s`, paged by (occurs_at, id) or (distance, id). The
/// radius test is `earth_box(...) @> ll_to_earth(...)`, which the GiST
/// index on the sessions' positions answers, refined by the exact distance.
struct SessionSearch {
    var page: PageRequest
    var conditions: [String] = []
    var parameters: [any PostgresEncodable] = []
    /// The distance expression in metres, when searching near a point.
    var distance: String?
    var byDistance: Bool
    /// What the page's sessions are asked for that the page's statement
    /// brings along by joining it, primed into the loaders those fields
    /// read: their creators and locations then need no statement of their
    /// own, and their fields do not wait for one.
    var joinsCreator = CreatorJoin.none
    var joinsLocation = false

    enum CreatorJoin {
        case none
        /// The names only (`UserRecord.nameColumns`), when that is all the creator is asked for.
        case names
        case wholeRow
    }

    static let maxRadiusKm = 500.0

    init(_ input: ResolverInput) throws {
        page = try PageRequest(input)
        let nodeFields = input.info.selectedFieldNames(along: ["edges", "node"])
        if nodeFields.contains("creator") {
            let creatorFields = input.info.selectedFieldNames(along: ["edges", "node", "creator"])
            joinsCreator = UserRecord.namesAnswer(creatorFields) ? .names : .wholeRow
        }
        joinsLocation = nodeFields.contains("location")
        byDistance = input.argument("orderBy")?.enumValue == "DISTANCE"
        let filter = input.argument("filter") ?? .null
        func bind(_ value: any PostgresEncodable) -> String {
            parameters.append(value)
            return "$\(parameters.count)"
        }
        if let sports = filter["sports"]?.listValue {
            conditions.append("s.sport = ANY(\(bind(sports.compactMap(\.enumValue)))::text[])")
        }
        if let levels = filter["skillLevels"]?.listValue {
            conditions.append("s.skill_level = ANY(\(bind(levels.compactMap(\.enumValue)))::text[])")
        }
        if let from = filter["from"]?.stringValue.flatMap(Instant.parse) {
            conditions.append("s.occurs_at >= \(bind(from))::timestamptz")
        } else {
            conditions.append("s.occurs_at >= now()")
        }
        if let to = filter["to"]?.stringValue.flatMap(Instant.parse) {
            conditions.append("s.occurs_at < \(bind(to))::timestamptz")
        }
        if filter["hasOpenSpots"]?.boolValue == true {
            conditions.append("s.occupied < s.capacity")
        }
        if let near = filter["near"], !near.isNull {
            let point = try AccountInput.coordinates(
                latitude: near["latitude"]?.doubleValue ?? .nan, longitude: near["longitude"]?.doubleValue ?? .nan)
            let radius = near["radiusKm"]?.doubleValue ?? .nan
            guard radius > 0, radius <= Self.maxRadiusKm else {
                throw APIError.badInput("\"radiusKm\" must be more than 0 and at most \(Int(Self.maxRadiusKm)).")
            }
            let origin = "ll_to_earth(\(bind(point.0))::float8, \(bind(point.1))::float8)"
            let metres = "\(bind(radius * 1000))::float8"
            let distance = "earth_distance(\(origin), ll_to_earth(s.latitude, s.longitude))"
            conditions.append("earth_box(\(origin), \(metres)) @> ll_to_earth(s.latitude, s.longitude)")
            conditions.append("\(distance) <= \(metres)")
            self.distance = distance
        } else if byDistance {
            throw APIError.badInput("orderBy: DISTANCE needs filter.near.")
        }
    }

    func run(on database: PostgresPool, priming loaders: Loaders, _ playmate: PlaymateLoaders) async throws -> ConnectionPage {
        let keys: [(expression: String, type: String)] =
            byDistance
            ? [(distance!, "float8"), ("s.id", "bigint")]
            : [("s.occurs_at", "timestamptz"), ("s.id", "bigint")]
        let whereClause = " WHERE " + conditions.joined(separator: " AND ")
        let columns = SessionRecord.columns + (distance.map { ", \($0) / 1000" } ?? "")
        let query = KeysetQuery(columns: columns, from: "FROM sports_sessions s" + whereClause, parameters: parameters, keys: keys)
        let withDistance = distance != nil
        func session(_ row: PostgresRow) throws -> SessionRecord {
            try SessionRecord(row: row, distanceKm: withDistance ? try row.decode(Double.self, at: SessionRecord.columnCount) : nil)
        }
        // The tables joined, each by the session's column naming its row.
        var tables: [(columns: String, count: Int, table: String, alias: String, key: String)] = []
        switch joinsCreator {
        case .none: break
        case .names: tables.append((UserRecord.nameColumns, UserRecord.nameSelection.count, "users", "u", "creator_id"))
        case .wholeRow: tables.append((UserRecord.columns, UserRecord.columnCount, "users", "u", "creator_id"))
        }
        let creatorColumns = tables.first?.count ?? 0
        if joinsLocation {
            tables.append((LocationRecord.columns, LocationRecord.selection.count, "locations", "l", "location_id"))
        }
        guard !tables.isEmpty else { return try await query.page(page, on: database, node: session) }
        // Outer joins: a row the join misses is left to its loader, as before.
        func sessionPriming(_ row: PostgresRow, joinedStart: Int) throws -> SessionRecord {
            let creatorOffset = joinedStart
            let locationOffset = joinedStart + creatorColumns
            switch joinsCreator {
            case .none: break
            case .names: try loaders.primeUserNames(from: row, offset: creatorOffset)
            case .wholeRow: try loaders.primeUser(from: row, offset: creatorOffset)
            }
            if joinsLocation, try row.decode(Int64?.self, at: locationOffset) != nil {
                let location = try LocationRecord(row: row, offset: locationOffset)
                playmate.locations.prime(location.id, location)
            }
            return try session(row)
        }
        guard withDistance else {
            // The page is an index range read in its order: joined as it is
            // read, the joins stop with the page.
            let joined = KeysetQuery(
                columns: ([columns] + tables.map(\.columns)).joined(separator: ", "),
                from: "FROM sports_sessions s"
                    + tables.map { " LEFT JOIN \($0.table) \($0.alias) ON \($0.alias).id = s.\($0.key)" }.joined() + whereClause,
                parameters: parameters, keys: keys)
            return try await joined.page(page, on: database) { try sessionPriming($0, joinedStart: SessionRecord.columnCount) }
        }
        // Near a point, every session in reach is sorted before the page is
        // cut: joined after, each table a lateral subquery PostgreSQL cannot
        // flatten (its LIMIT), or the server's generic plan, which does not
        // know the page's size, hashes the whole table.
        let joined = KeysetQuery.Joined(
            columns: tables.map { "\($0.alias).*" }.joined(separator: ", "), count: tables.reduce(0) { $0 + $1.count },
            joins: tables.map {
                "LEFT JOIN LATERAL (SELECT \($0.columns) FROM \($0.table) \($0.alias) WHERE \($0.alias).id = page.\($0.key) LIMIT 1) AS \($0.alias) ON true"
            }.joined(separator: " "))
        return try await query.page(page, on: database, joining: joined) { try sessionPriming($0, joinedStart: $1) }
    }
}
