import GraphQL
import HuddleCore
import HuddlePostgres
import HuddleRuntime

/// Stored places and the search over their names (no outside geocoder).
enum LocationResolvers {
    static func bind(_ binder: inout SchemaBinder) {
        binder.field("Location", "id") { (location: LocationRecord) in GlobalID.value("Location", location.id) }
        binder.field("Location", "name") { (location: LocationRecord) in .scalar(.string(location.name)) }
        binder.field("Location", "latitude") { (location: LocationRecord) in .scalar(.float(location.latitude)) }
        binder.field("Location", "longitude") { (location: LocationRecord) in .scalar(.float(location.longitude)) }

        binder.rootAsync("Query", "searchLocations") { input in
            let text = (input.string("query") ?? "").trimmingCharacters(in: .whitespaces)
            let first = input.int("first") ?? 10
            guard (0...50).contains(first) else { throw APIError.badInput("\"first\" must be between 0 and 50; it is \(first).") }
            guard text.count <= 200 else { throw APIError.badInput("\"query\" is at most 200 characters.") }
            guard !text.isEmpty else { return .list([]) }
            // Substring matches first, then the most similar names (trigram index).
            let rows = try await input.request.database.query(
                """
                SELECT \(LocationRecord.columns) FROM locations l
                WHERE lower(l.name) LIKE '%' || lower($1) || '%' OR lower(l.name) % lower($1)
                ORDER BY (lower(l.name) LIKE '%' || lower($1) || '%') DESC, similarity(lower(l.name), lower($1)) DESC, l.id
                LIMIT $2
                """, [LikePattern.escaping(text), first])
            return .list(try rows.map { .object(try LocationRecord(row: $0)) })
        }
        binder.rootAsync("Mutation", "createLocation") { input in
            _ = try input.request.signedIn()
            let location = try newLocation(input.argument("input") ?? .null)
            return .object(try await insert(location, on: input.request.database))
        }
    }

    /// A NewLocationInput, checked.
    static func newLocation(_ value: GraphQLValue) throws -> (name: String, latitude: Double, longitude: Double) {
        let name = (value["name"]?.stringValue ?? "").trimmingCharacters(in: .whitespaces)
        guard (1...200).contains(name.count) else { throw APIError.badInput("A location's name is 1 to 200 characters.") }
        let point = try AccountInput.coordinates(
            latitude: value["latitude"]?.doubleValue ?? .nan, longitude: value["longitude"]?.doubleValue ?? .nan)
        return (name, point.0, point.1)
    }

    static func insert(_ location: (name: String, latitude: Double, longitude: Double), on database: some PostgresQuerying) async throws
        -> LocationRecord
    {
        let rows = try await database.query(
            "INSERT INTO locations AS l (name, latitude, longitude) VALUES ($1, $2, $3) RETURNING \(LocationRecord.columns)",
            [location.name, location.latitude, location.longitude])
        return try LocationRecord(row: rows[0])
    }
}
