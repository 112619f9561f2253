import Foundation
import HuddlePostgres
import HuddleRuntime

/// A row of `users`, as the User type shows it. A class: the executor
/// copies parents around, and a copy should cost one retain, not one per
/// string column.
package final class UserRecord: Identified {
    package let id: Int64
    package let username: String
    package let firstName: String
    package let lastName: String
    /// Shown to the account's owner whoever the request's viewer is: the
    /// user of the payload signUp and logIn return, before the token exists.
    package let shownToOwner: Bool
    /// The row the other columns are decoded from when a field asks: most
    /// queries show a user by name, and a page of players is hundreds of rows.
    /// Nil for a record read with `nameColumns` only.
    private let row: PostgresRow?
    private let offset: Int

    package var email: String { get throws { try column(2) } }
    package var birthday: PostgresDate? { get throws { try column(5) } }
    package var gender: String? { get throws { try column(6) } }
    package var biography: String { get throws { try column(7) } }
    package var profileImageURL: String? { get throws { try column(8) } }
    package var homeLatitude: Double? { get throws { try column(9) } }
    package var homeLongitude: Double? { get throws { try column(10) } }
    package var createdAt: Date { get throws { try column(11) } }

    /// The User fields a record read with `nameColumns` answers; a selection
    /// of only these lets a resolver use the narrower query.
    package static let fieldsAnsweredByNames: Set<String> = ["__typename", "id", "username", "firstName", "lastName"]

    /// The columns `init(namesFrom:)` reads, from `users u`.
    package static let nameColumns = "u.id, u.username, u.first_name, u.last_name"

    private func column<T: PostgresDecodable>(_ index: Int) throws -> T {
        guard let row else {
            throw APIError.internalError("User \(id) was read without column \(index); its field needs the whole row.")
        }
        return try row.decode(at: offset + index)
    }

    /// How many of them there are.
    package static let columnCount = 12
    /// The columns `init(row:offset:)` reads, from `users u`.
    package static let columns = """
        u.id, u.username, u.email, u.first_name, u.last_name, u.birthday, u.gender, u.biography, \
        u.profile_image_url, u.home_latitude, u.home_longitude, u.created_at
        """

    package init(row: PostgresRow, offset: Int = 0, shownToOwner: Bool = false) throws {
        self.shownToOwner = shownToOwner
        self.row = row
        self.offset = offset
        id = try row.decode(at: offset)
        username = try row.decode(at: offset + 1)
        firstName = try row.decode(at: offset + 3)
        lastName = try row.decode(at: offset + 4)
    }

    /// A record of `nameColumns` only.
    package init(namesFrom row: PostgresRow) throws {
        shownToOwner = false
        self.row = nil
        offset = 0
        id = try row.decode(at: 0)
        username = try row.decode(at: 1)
        firstName = try row.decode(at: 2)
        lastName = try row.decode(at: 3)
    }
}
