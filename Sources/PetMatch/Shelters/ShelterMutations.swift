import Foundation
import GraphQL
import HuddleCore
import HuddlePostgres

/// Registering and editing shelters, and their staff.
enum ShelterMutations {
    static func bind(_ binder: inout SchemaBinder) {
        binder.rootAsync("Mutation", "createShelter") { input in
            let viewer = try input.request.signedIn()
            let shelter = try ShelterInput(input.argument("input") ?? .null)
            return try await input.request.database.withTransaction { connection in
                let rows = try await connection.query(
                    """
                    INSERT INTO shelters (name, email, phone, street, city, state, postcode, country, latitude, longitude)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id
                    """, shelter.values)
                let id = try rows[0].decode(Int64.self, at: 0)
                _ = try await connection.query(
                    "INSERT INTO shelter_staff (shelter_id, user_id, added_by) VALUES ($1, $2, $2)", [id, viewer])
                return .object(try await load(id, on: connection))
            }
        }
        binder.rootAsync("Mutation", "updateShelter") { input in
            let viewer = try input.request.signedIn()
            let id = try input.id("id", of: "Shelter")
            let shelter = try ShelterInput(input.argument("input") ?? .null)
            return try await input.request.database.withTransaction { connection in
                try await requireStaff(viewer, of: id, on: connection)
                _ = try await connection.query(
                    """
                    UPDATE shelters SET name = $1, email = $2, phone = $3, street = $4, city = $5, state = $6, postcode = $7,
                                        country = $8, latitude = $9, longitude = $10
                    WHERE id = $11
                    """, shelter.values + [id])
                return .object(try await load(id, on: connection))
            }
        }
        binder.rootAsync("Mutation", "addShelterStaff") { input in
            let viewer = try input.request.signedIn()
            let id = try input.id("shelterId", of: "Shelter")
            let user = try input.id("userId", of: "User")
            return try await input.request.database.withTransaction { connection in
                try await requireStaff(viewer, of: id, on: connection)
                do {
                    let rows = try await connection.query(
                        "INSERT INTO shelter_staff (shelter_id, user_id, added_by) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING user_id",
                        [id, user, viewer])
                    guard !rows.isEmpty else { throw APIError.badInput("That user is on this shelter's staff already.") }
                } catch let error as PostgresError where error.kind == .foreignKeyViolation {
                    throw APIError.notFound("No user has that id.")
                }
                return .object(try await load(id, on: connection))
            }
        }
        binder.rootAsync("Mutation", "removeShelterStaff") { input in
            let viewer = try input.request.signedIn()
            let id = try input.id("shelterId", of: "Shelter")
            let user = try input.id("userId", of: "User")
            return try await PetMatchErrors.translating {
                try await input.request.database.withTransaction { connection in
                    try await requireStaff(viewer, of: id, on: connection)
                    let rows = try await connection.query(
                        "DELETE FROM shelter_staff WHERE shelter_id = $1 AND user_id = $2 RETURNING user_id", [id, user])
                    guard !rows.isEmpty else { throw APIError.badInput("That user is not on this shelter's staff.") }
                    return .object(try await load(id, on: connection))
                }
            }
        }
    }

    static func load(_ id: Int64, on database: some PostgresQuerying) async throws -> ShelterRecord {
        let rows = try await database.query("SELECT \(ShelterRecord.columns) FROM shelters s WHERE s.id = $1", [id])
        guard let row = rows.first else { throw APIError.notFound("No shelter has that id.") }
        return try ShelterRecord(row: row)
    }

    /// Refuses unless `user` is on the staff of shelter `id`, which it locks
    /// against a concurrent change of its staff.
    static func requireStaff(_ user: Int64, of id: Int64, on connection: PostgresConnection) async throws {
        let rows = try await connection.query(
            """
            SELECT EXISTS (SELECT 1 FROM shelter_staff m WHERE m.shelter_id = s.id AND m.user_id = $2)
            FROM shelters s WHERE s.id = $1 FOR UPDATE OF s
            """, [id, user])
        guard let row = rows.first else { throw APIError.notFound("No shelter has that id.") }
        guard try row.decode(Bool.self, at: 0) else { throw APIError.forbidden("Only the shelter's staff can do this.") }
    }
}

/// A shelter as `ShelterInput` gives it, checked.
struct ShelterInput {
    var values: [any PostgresEncodable]

    init(_ fields: GraphQLValue) throws {
        let name = (fields["name"]?.stringValue ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...120).contains(name.count) else { throw APIError.badInput("\"name\" must be 1 to 120 characters.") }
        let email = try fields["email"]?.stringValue.map { try AccountInput.email($0) }
        let phone = fields["phone"]?.stringValue
        if let phone {
            let allowed = phone.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || " +().-".unicodeScalars.contains($0) }
            guard allowed, (5...30).contains(phone.count), !phone.dropFirst().contains("+") else {
                throw APIError.badInput("\"phone\" is 5 to 30 digits, spaces, + ( ) . and -, with + only first.")
            }
        }
        guard email != nil || phone != nil else { throw APIError.badInput("A shelter needs an email, a phone or both.") }
        let street = try AccountInput.text(fields["street"]?.stringValue ?? "", "street", limit: 200)
        let city = (fields["city"]?.stringValue ?? "").trimmingCharacters(in: .whitespaces)
        guard (1...100).contains(city.count) else { throw APIError.badInput("\"city\" must be 1 to 100 characters.") }
        let state = try AccountInput.text(fields["state"]?.stringValue ?? "", "state", limit: 100)
        let postcode = try AccountInput.text(fields["postcode"]?.stringValue ?? "", "postcode", limit: 20)
        let country = fields["country"]?.stringValue ?? "US"
        guard country.count == 2, country.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) }) else {
            throw APIError.badInput("\"country\" is an ISO 3166-1 alpha-2 code in capitals, such as US.")
        }
        let location = fields["location"] ?? .null
        let (latitude, longitude) = try AccountInput.coordinates(
            latitude: location["latitude"]?.doubleValue ?? .nan, longitude: location["longitude"]?.doubleValue ?? .nan)
        values = [name, email, phone, street, city, state, postcode, country, latitude, longitude]
    }
}
