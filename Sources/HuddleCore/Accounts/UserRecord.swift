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

    package var email: String { get throws { isDeletedUser ? "" : try column(.email) } }
    package var birthday: PostgresDate? { get throws { isDeletedUser ? nil : try column(.birthday) } }
    package var gender: String? { get throws { isDeletedUser ? nil : try column(.gender) } }
    package var biography: String { get throws { isDeletedUser ? "" : try column(.biography) } }
    package var profileImageURL: String? { get throws { isDeletedUser ? nil : try column(.profileImageURL) } }
    package var homeLatitude: Double? { get throws { isDeletedUser ? nil : try column(.homeLatitude) } }
    package var homeLongitude: Double? { get throws { isDeletedUser ? nil : try column(.homeLongitude) } }
    package var createdAt: Date { get throws { isDeletedUser ? Date(timeIntervalSince1970: 0) : try column(.createdAt) } }
    package var emailVerifiedAt: Date? { get throws { isDeletedUser ? nil : try column(.emailVerifiedAt) } }
    /// The key of the user's picture (`media.key`), if they have one.
    package var avatarKey: String? { get throws { isDeletedUser ? nil : try column(.avatarKey) } }
    package var timeZone: String? { get throws { isDeletedUser ? nil : try column(.timeZone) } }

    /// Who a deleted account's snippets, projects and the like show: one
    /// shared placeholder with no personal fields (id 0, which no account has).
    package static let deleted = UserRecord(deletedUser: ())
    /// Whether this is `deleted`.
    package var isDeletedUser: Bool { id == 0 }

    private init(deletedUser: Void) {
        id = 0
        username = "deleted"
        firstName = "Deleted"
        lastName = "user"
        shownToOwner = false
        row = nil
        offset = 0
    }

    /// The User fields a record read with `nameColumns` answers; a selection
    /// of only these lets a resolver use the narrower query.
    package static let fieldsAnsweredByNames: Set<String> = ["__typename", "id", "username", "firstName", "lastName"]

    /// Whether a record read with `nameColumns` answers a selection of
    /// `fields`, given an app's fields of User that read only the id.
    package static func namesAnswer(_ fields: Set<String>, answeredByID: Set<String> = []) -> Bool {
        fields.allSatisfy { fieldsAnsweredByNames.contains($0) || answeredByID.contains($0) }
    }

    private func column<T: PostgresDecodable>(_ column: Column) throws -> T {
        guard let row else {
            throw APIError.internalError("User \(id) was read without its \(column.name) column; its field needs the whole row.")
        }
        return try row.columns(Column.self, at: offset)[column]
    }

    /// The columns `init(row:offset:)` reads, in order, from `users u`.
    package enum Column: Int, PostgresColumnList {
        case id, username, email, firstName, lastName, birthday, gender, biography, profileImageURL, homeLatitude, homeLongitude, createdAt,
            emailVerifiedAt, avatarKey, timeZone

        package var expression: String? {
            switch self {
            case .avatarKey: "(SELECT m.key FROM media m WHERE m.id = u.avatar_id)"
            default: nil
            }
        }
    }
    package static let selection = PostgresColumns<Column>(alias: "u")
    /// The select list, from `users u`.
    package static var columns: String { selection.list }
    /// How many columns `columns` names: what a statement selects after them starts there.
    package static var columnCount: Int { selection.count }

    /// The columns `init(namesFrom:)` reads, in order, from `users u`.
    package enum NameColumn: Int, PostgresColumnList {
        case id, username, firstName, lastName
    }
    package static let nameSelection = PostgresColumns<NameColumn>(alias: "u")
    /// The select list of names only, from `users u`.
    package static var nameColumns: String { nameSelection.list }

    package init(row: PostgresRow, offset: Int = 0, shownToOwner: Bool = false) throws {
        self.shownToOwner = shownToOwner
        self.row = row
        self.offset = offset
        let column = row.columns(Column.self, at: offset)
        id = try column[.id]
        username = try column[.username]
        firstName = try column[.firstName]
        lastName = try column[.lastName]
    }

    /// A record of `nameColumns` only, read from `offset` on.
    package init(namesFrom row: PostgresRow, offset: Int = 0) throws {
        shownToOwner = false
        self.row = nil
        self.offset = 0
        let column = row.columns(NameColumn.self, at: offset)
        id = try column[.id]
        username = try column[.username]
        firstName = try column[.firstName]
        lastName = try column[.lastName]
    }
}
