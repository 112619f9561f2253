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

    /// The columns `init(row:)` reads, in order: the user `u`, their row `pr`.
    enum Column: Int, PostgresColumnList {
        case userID, type, breeds, sizes, ageGroups, genders, latitude, longitude, homeLatitude, homeLongitude, distanceKm, updatedAt

        var expression: String? {
            switch self {
            case .userID: "u.id"
            case .breeds: "ARRAY(SELECT b.breed_id FROM pet_preference_breeds b WHERE b.user_id = u.id ORDER BY b.breed_id)"
            case .sizes: "coalesce(pr.sizes, '{}')"
            case .ageGroups: "coalesce(pr.age_groups, '{}')"
            case .genders: "coalesce(pr.genders, '{}')"
            case .homeLatitude: "u.home_latitude"
            case .homeLongitude: "u.home_longitude"
            case .distanceKm: "coalesce(pr.distance_km, \(PetCriteria.defaultDistanceKm))"
            case .updatedAt: "coalesce(pr.updated_at, u.created_at)"
            case .type, .latitude, .longitude: nil
            }
        }
    }
    static let selection = PostgresColumns<Column>(alias: "pr")

    /// Reads the users' preferences (defaults for those with no row), `$1` the user ids.
    static let select = """
        SELECT \(selection.list)
        FROM users u LEFT JOIN pet_preferences pr ON pr.user_id = u.id WHERE u.id = ANY($1::bigint[])
        """

    init(row: PostgresRow) throws {
        let column = row.columns(Column.self)
        userID = try column[.userID]
        type = try column[.type]
        breeds = try column[.breeds]
        sizes = try column[.sizes]
        ageGroups = try column[.ageGroups]
        genders = try column[.genders]
        location = Self.point(try column[.latitude], try column[.longitude])
        home = Self.point(try column[.homeLatitude], try column[.homeLongitude])
        distanceKm = try column[.distanceKm]
        updatedAt = try column[.updatedAt]
    }

    private static func point(_ latitude: Double?, _ longitude: Double?) -> (Double, Double)? {
        guard let latitude, let longitude else { return nil }
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
