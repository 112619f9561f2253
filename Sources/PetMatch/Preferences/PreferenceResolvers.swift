import Foundation
import GraphQL
import HuddleCore
import HuddlePostgres

/// The Preferences screen: what the swipe feed shows.
enum PreferenceResolvers {
    static func bind(_ binder: inout SchemaBinder) {
        binder.field("PetPreferences", "type") { (preferences: PreferencesRecord) in preferences.type.map { .scalar(.enum($0)) } ?? .null }
        binder.field("PetPreferences", "breeds") { (preferences: PreferencesRecord, input) in
            try Catalogue.with(input.request.primaryDatabase) { catalogue in
                .list(preferences.breeds.compactMap { catalogue.breeds[$0] }.map { .object($0) })
            }
        }
        binder.field("PetPreferences", "sizes") { (preferences: PreferencesRecord) in .list(preferences.sizes.map { .scalar(.enum($0)) }) }
        binder.field("PetPreferences", "ageGroups") { (preferences: PreferencesRecord) in
            .list(preferences.ageGroups.map { .scalar(.enum($0)) })
        }
        binder.field("PetPreferences", "genders") { (preferences: PreferencesRecord) in
            .list(preferences.genders.map { .scalar(.enum($0)) })
        }
        binder.field("PetPreferences", "location") { (preferences: PreferencesRecord) in
            preferences.origin.map { .object(Coordinates(latitude: $0.0, longitude: $0.1)) } ?? .null
        }
        binder.field("PetPreferences", "distanceKm") { (preferences: PreferencesRecord) in .scalar(.float(preferences.distanceKm)) }
        binder.field("PetPreferences", "updatedAt") { (preferences: PreferencesRecord) in Instant.value(preferences.updatedAt) }

        binder.root("Query", "petPreferences") { input in
            let viewer = try input.request.signedIn()
            return input.request.petMatch.preferences.load(viewer) { $0.map { .object($0) } ?? .null }
        }
        binder.rootAsync("Mutation", "updatePetPreferences", update)
    }

    /// A search distance in kilometres, checked.
    static func distance(_ kilometres: Double) throws -> Double {
        guard kilometres > 0, kilometres <= PetCriteria.maxDistanceKm else {
            throw APIError.badInput("\"distanceKm\" must be more than 0 and at most \(Int(PetCriteria.maxDistanceKm)).")
        }
        return kilometres
    }

    private static func update(_ input: ResolverInput) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let fields = input.argument("input") ?? .null
        let catalogue = try await Catalogue.shared(input.request.primaryDatabase)
        var location: (Double, Double)?? = nil
        if let value = fields["location"] {
            location =
                value.isNull
                ? .some(nil)
                : try AccountInput.coordinates(
                    latitude: value["latitude"]?.doubleValue ?? .nan, longitude: value["longitude"]?.doubleValue ?? .nan)
        }
        let distance = try fields["distanceKm"].flatMap(\.doubleValue).map(distance)
        if let value = fields["distanceKm"], value.isNull { throw APIError.badInput("\"distanceKm\" cannot be null.") }
        return try await input.request.database.withTransaction { connection in
            _ = try await connection.query("INSERT INTO pet_preferences (user_id) VALUES ($1) ON CONFLICT DO NOTHING", [viewer])
            _ = try await connection.query("SELECT 1 FROM pet_preferences WHERE user_id = $1 FOR UPDATE", [viewer])
            let current = try PreferencesRecord(row: try await connection.query(PreferencesRecord.select, [[viewer]])[0])
            let type = fields["type"].map { $0.enumValue } ?? current.type
            var breeds = type == current.type ? current.breeds : []
            if let list = fields["breeds"]?.listValue {
                breeds = try catalogue.breeds(list, ofType: type, argument: "input.breeds")
            }
            let newLocation = location ?? current.location
            _ = try await connection.query("DELETE FROM pet_preference_breeds WHERE user_id = $1", [viewer])
            _ = try await connection.query(
                """
                UPDATE pet_preferences SET type = $2, sizes = $3, age_groups = $4, genders = $5, latitude = $6, longitude = $7,
                                           distance_km = $8, updated_at = now()
                WHERE user_id = $1
                """,
                [
                    viewer, type, fields["sizes"]?.listValue?.compactMap(\.enumValue).uniqued ?? current.sizes,
                    fields["ageGroups"]?.listValue?.compactMap(\.enumValue).uniqued ?? current.ageGroups,
                    fields["genders"]?.listValue?.compactMap(\.enumValue).uniqued ?? current.genders,
                    newLocation?.0, newLocation?.1, distance ?? current.distanceKm,
                ])
            _ = try await connection.query(
                "INSERT INTO pet_preference_breeds (user_id, type, breed_id) SELECT $1, $2, unnest($3::bigint[])", [viewer, type, breeds])
            return .object(try PreferencesRecord(row: try await connection.query(PreferencesRecord.select, [[viewer]])[0]))
        }
    }
}
