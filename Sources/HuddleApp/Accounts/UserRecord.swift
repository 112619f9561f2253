import Foundation
import HuddleRuntime

/// A row of `users`, as the User type shows it.
struct UserRecord: Identified {
    var id: Int64
    var username: String
    var email: String
    var firstName: String
    var lastName: String
    var birthday: PostgresDate?
    var gender: String?
    var biography: String
    var profileImageURL: String?
    var homeLatitude: Double?
    var homeLongitude: Double?
    var createdAt: Date
    /// Shown to the account's owner whoever the request's viewer is: the
    /// user of the payload signUp and logIn return, before the token exists.
    var shownToOwner = false

    /// The columns `init(row:offset:)` reads, from `users u`.
    static let columns = """
        u.id, u.username, u.email, u.first_name, u.last_name, u.birthday, u.gender, u.biography, \
        u.profile_image_url, u.home_latitude, u.home_longitude, u.created_at
        """

    init(row: PostgresRow, offset: Int = 0) throws {
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
