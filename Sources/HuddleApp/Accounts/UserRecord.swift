import Foundation
import HuddleRuntime

/// A row of `users`, as the User type shows it. A class: the executor
/// copies parents around, and a copy should cost one retain, not one per
/// string column.
final class UserRecord: Identified {
    let id: Int64
    let username: String
    let firstName: String
    let lastName: String
    /// Shown to the account's owner whoever the request's viewer is: the
    /// user of the payload signUp and logIn return, before the token exists.
    let shownToOwner: Bool
    /// The row the other columns are decoded from when a field asks: most
    /// queries show a user by name, and a page of players is hundreds of rows.
    private let row: PostgresRow
    private let offset: Int

    var email: String { get throws { try row.decode(at: offset + 2) } }
    var birthday: PostgresDate? { get throws { try row.decode(at: offset + 5) } }
    var gender: String? { get throws { try row.decode(at: offset + 6) } }
    var biography: String { get throws { try row.decode(at: offset + 7) } }
    var profileImageURL: String? { get throws { try row.decode(at: offset + 8) } }
    var homeLatitude: Double? { get throws { try row.decode(at: offset + 9) } }
    var homeLongitude: Double? { get throws { try row.decode(at: offset + 10) } }
    var createdAt: Date { get throws { try row.decode(at: offset + 11) } }

    /// The columns `init(row:offset:)` reads, from `users u`.
    static let columns = """
        u.id, u.username, u.email, u.first_name, u.last_name, u.birthday, u.gender, u.biography, \
        u.profile_image_url, u.home_latitude, u.home_longitude, u.created_at
        """

    init(row: PostgresRow, offset: Int = 0, shownToOwner: Bool = false) throws {
        self.shownToOwner = shownToOwner
        self.row = row
        self.offset = offset
        id = try row.decode(at: offset)
        username = try row.decode(at: offset + 1)
        firstName = try row.decode(at: offset + 3)
        lastName = try row.decode(at: offset + 4)
    }
}
