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
            joinsCreator = creatorFields.isSubset(of: UserRecord.fieldsAnsweredByNames) ? .names : .wholeRow
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
        var columns = SessionRecord.columns + (distance.map { ", \($0) / 1000" } ?? "")
        var joins = ""
        // Outer joins: a row the join misses is left to its loader, as before.
        switch joinsCreator {
        case .none: break
        case .names: columns += ", " + UserRecord.nameColumns
        case .wholeRow: columns += ", " + UserRecord.columns
        }
        if joinsCreator != .none { joins += " LEFT JOIN users u ON u.id = s.creator_id" }
        if joinsLocation {
            columns += ", " + LocationRecord.columns
            joins += " LEFT JOIN locations l ON l.id = s.location_id"
        }
        let query = KeysetQuery(
            columns: columns,
            from: "FROM sports_sessions s\(joins) WHERE " + conditions.joined(separator: " AND "),
            parameters: parameters,
            keys: keys
        )
        let withDistance = distance != nil
        let creatorOffset = SessionRecord.columnCount + (withDistance ? 1 : 0)
        let locationOffset =
            creatorOffset
            + (joinsCreator == .names ? UserRecord.nameSelection.count : joinsCreator == .wholeRow ? UserRecord.columnCount : 0)
        return try await query.page(page, on: database) { row in
            let session = try SessionRecord(
                row: row, distanceKm: withDistance ? try row.decode(Double.self, at: SessionRecord.columnCount) : nil)
            if joinsCreator != .none, try row.decode(Int64?.self, at: creatorOffset) != nil {
                if joinsCreator == .names {
                    loaders.primeNames(try UserRecord(namesFrom: row, offset: creatorOffset))
                } else {
                    loaders.prime(try UserRecord(row: row, offset: creatorOffset))
                }
            }
            if joinsLocation, try row.decode(Int64?.self, at: locationOffset) != nil {
                let location = try LocationRecord(row: row, offset: locationOffset)
                playmate.locations.prime(location.id, location)
            }
            return session
        }
    }
}
