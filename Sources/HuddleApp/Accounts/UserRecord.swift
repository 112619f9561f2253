import Foundation
import HuddleRuntime

/// A row of `users`, as the User type shows it. A class: the executor
/// copies parents around, and a copy should cost one retain, not one per
/// string column.
final class UserRecord: Identified {
    let id: Int64
    let username: String
    let email: String
    let firstName: String
    let lastName: String
    let birthday: PostgresDate?
    let gender: String?
    let biography: String
    let profileImageURL: String?
    let homeLatitude: Double?
    let homeLongitude: Double?
    let createdAt: Date
    /// Shown to the account's owner whoever the request's viewer is: the
    /// user of the payload signUp and logIn return, before the token exists.
    let shownToOwner: Bool

    /// The columns `init(row:offset:)` reads, from `users u`.
    static let columns = """
        u.id, u.username, u.email, u.first_name, u.last_name, u.birthday, u.gender, u.biography, \
        u.profile_image_url, u.home_latitude, u.home_longitude, u.created_at
        """

    init(row: PostgresRow, offset: Int = 0, shownToOwner: Bool = false) throws {
        self.shownToOwner = shownToOwner
        id = try row.decode(at: offset)
        username = try row.decode(at: offset + 1)
        email = try row.decode(at: offset + 2)
        firstName = try row.decode(at: offset + 3)
        lastName = try row.decode(at: offset + 4)
        birthday = try row.decode(at: offset + 5)
        gender = try row.decode(at: offset + 6)
        biography = try row.decode(at: offset + 7)
        profileImageURL = try row.decode(at: offset + 8)
        homeLatitude = try row.decode(at: offset + 9)
        homeLongitude = try row.decode(at: offset + 10)
        createdAt = try row.decode(at: offset + 11)
    }
}
