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

    static let maxRadiusKm = 500.0

    init(_ input: ResolverInput) throws {
        page = try PageRequest(input)
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

    func run(on database: PostgresPool) async throws -> ConnectionPage {
        let keys: [(expression: String, type: String)] =
            byDistance
            ? [(distance!, "float8"), ("s.id", "bigint")]
            : [("s.occurs_at", "timestamptz"), ("s.id", "bigint")]
        let query = KeysetQuery(
            columns: SessionRecord.columns + (distance.map { ", \($0) / 1000" } ?? ""),
            from: "FROM sports_sessions s WHERE " + conditions.joined(separator: " AND "),
            parameters: parameters,
            keys: keys
        )
        let withDistance = distance != nil
        return try await query.page(page, on: database) { row in
            try SessionRecord(row: row, distanceKm: withDistance ? try row.decode(Double.self, at: SessionRecord.columnCount) : nil)
        }
    }
}
