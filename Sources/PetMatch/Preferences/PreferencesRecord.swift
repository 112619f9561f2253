import Foundation
import HuddleCore
import HuddlePostgres

/// A user's feed preferences: their row of `pet_preferences`, or the
/// defaults (any pet within 50 km of home) until they first change them.
final class PreferencesRecord: Sendable {
    let userID: Int64
    let type: String?
    let breeds: [Int64]
    let sizes: [String]
    let ageGroups: [String]
    let genders: [String]
    /// Where they chose to search from, if they did.
    let location: (Double, Double)?
    /// The account's home, searched from when they chose no location.
    let home: (Double, Double)?
    let distanceKm: Double
    let updatedAt: Date

    /// Reads the users' preferences (defaults for those with no row), `$1` the user ids.
    static let select = """
        SELECT u.id, pr.type, ARRAY(SELECT b.breed_id FROM pet_preference_breeds b WHERE b.user_id = u.id ORDER BY b.breed_id),
               coalesce(pr.sizes, '{}'), coalesce(pr.age_groups, '{}'), coalesce(pr.genders, '{}'), pr.latitude, pr.longitude,
               u.home_latitude, u.home_longitude, coalesce(pr.distance_km, \(PetCriteria.defaultDistanceKm)), coalesce(pr.updated_at, u.created_at)
        FROM users u LEFT JOIN pet_preferences pr ON pr.user_id = u.id WHERE u.id = ANY($1::bigint[])
        """

    init(row: PostgresRow) throws {
        userID = try row.decode(at: 0)
        type = try row.decode(at: 1)
        breeds = try row.decode(at: 2)
        sizes = try row.decode(at: 3)
        ageGroups = try row.decode(at: 4)
        genders = try row.decode(at: 5)
        location = try Self.point(row, at: 6)
        home = try Self.point(row, at: 8)
        distanceKm = try row.decode(at: 10)
        updatedAt = try row.decode(at: 11)
    }

    private static func point(_ row: PostgresRow, at index: Int) throws -> (Double, Double)? {
        guard let latitude = try row.decode(Double?.self, at: index), let longitude = try row.decode(Double?.self, at: index + 1)
        else { return nil }
        return (latitude, longitude)
    }

    /// Where the feed searches from.
    var origin: (Double, Double)? { location ?? home }

    /// What the swipe feed matches.
    var criteria: PetCriteria {
        PetCriteria(
            type: type, breeds: breeds, sizes: sizes, ageGroups: ageGroups, genders: genders, statuses: ["ADOPTABLE"], near: origin,
            distanceKm: distanceKm)
    }
}
