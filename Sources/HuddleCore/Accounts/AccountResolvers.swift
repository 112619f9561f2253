import Foundation
import GraphQL
import HuddlePostgres
import HuddleRuntime

/// A new token and the account it signs in.
package struct AuthPayload: Sendable {
    package var token: String
    /// Read with `shownToOwner`, since the request carries no token yet.
    package var user: UserRecord
}

/// A point a user gave as their home.
package struct Coordinates: Sendable {
    package var latitude: Double
    package var longitude: Double

    package init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// Sign-up, sign-in and out, the signed-in user, and profiles.
package enum AccountResolvers {
    package static func bind(_ binder: inout SchemaBinder) {
        binder.rootAsync("Mutation", "signUp", signUp)
        binder.rootAsync("Mutation", "logIn", logIn)
        binder.rootAsync("Mutation", "logOut") { input in
            let context = input.request
            guard let viewer = context.viewer else { throw APIError.unauthenticated() }
            let delete = { _ = try await context.database.query("DELETE FROM auth_tokens WHERE token_hash = $1", [viewer.tokenHash]) }
            // At once here; the answer waits until the database's notice has reached the processes.
            if let tokens = context.tokens { try await tokens.revoking(viewer.tokenHash, delete) } else { try await delete() }
            return .scalar(.boolean(true))
        }
        binder.rootAsync("Mutation", "updateProfile", updateProfile)
        binder.rootAsync("Mutation", "changePassword", changePassword)
        SignedInDevices.bind(&binder)
        AccountEmail.bind(&binder)
        DataExport.bind(&binder)
        binder.root("Query", "me") { input in
            guard let viewer = input.request.viewer else { return .null }
            return input.request.loaders.users.load(viewer.userID) { $0.map { .object($0) } ?? .null }
        }
        binder.root("Query", "user") { input in
            guard let id = GlobalID.decode(input.string("id") ?? ""), id.type == "User" else { return .null }
            return input.request.loaders.users.load(id.id) { $0.map { .object($0) } ?? .null }
        }
        binder.rootAsync("Query", "userByUsername") { input in
            let rows = try await input.request.database.query(
                "SELECT \(UserRecord.columns) FROM users u WHERE lower(u.username) = lower($1)", [input.string("username") ?? ""])
            return try rows.first.map { .object(try UserRecord(row: $0)) } ?? .null
        }
        binder.rootAsync("Query", "searchUsers", searchUsers)

        binder.field("AuthPayload", "token") { (payload: AuthPayload) in .scalar(.string(payload.token)) }
        binder.field("AuthPayload", "user") { (payload: AuthPayload) in .object(payload.user) }
        binder.field("Coordinates", "latitude") { (point: Coordinates) in .scalar(.float(point.latitude)) }
        binder.field("Coordinates", "longitude") { (point: Coordinates) in .scalar(.float(point.longitude)) }
        bindUser(&binder)
    }

    private static func bindUser(_ binder: inout SchemaBinder) {
        binder.field("User", "id") { (user: UserRecord) in GlobalID.value("User", user.id) }
        binder.field("User", "username") { (user: UserRecord) in .scalar(.string(user.username)) }
        binder.field("User", "firstName") { (user: UserRecord) in .scalar(.string(user.firstName)) }
        binder.field("User", "lastName") { (user: UserRecord) in .scalar(.string(user.lastName)) }
        binder.field("User", "gender") { (user: UserRecord) in try user.gender.map { .scalar(.enum($0)) } ?? .null }
        binder.field("User", "biography") { (user: UserRecord) in .scalar(.string(try user.biography)) }
        binder.field("User", "profileImageUrl") { (user: UserRecord) in try user.profileImageURL.map { .scalar(.string($0)) } ?? .null }
        binder.field("User", "createdAt") { (user: UserRecord) in Instant.value(try user.createdAt) }
        // What only the user themself sees.
        binder.field("User", "email") { (user: UserRecord, input) in
            isOwner(user, input) ? .scalar(.string(try user.email)) : .null
        }
        binder.field("User", "emailVerified") { (user: UserRecord, input) in
            isOwner(user, input) ? .scalar(.boolean(try user.emailVerifiedAt != nil)) : .null
        }
        binder.field("User", "birthday") { (user: UserRecord, input) in
            guard isOwner(user, input), let birthday = try user.birthday else { return .null }
            return .scalar(.string(birthday.description))
        }
        binder.field("User", "homeLocation") { (user: UserRecord, input) in
            guard isOwner(user, input), let latitude = try user.homeLatitude, let longitude = try user.homeLongitude else {
                return .null
            }
            return .object(Coordinates(latitude: latitude, longitude: longitude))
        }
        binder.field("User", "timeZone") { (user: UserRecord, input) in
            guard isOwner(user, input), let zone = try user.timeZone else { return .null }
            return .scalar(.string(zone))
        }
    }

    /// Whether the request is the user's own.
    private static func isOwner(_ user: UserRecord, _ input: ResolverInput) -> Bool {
        user.shownToOwner || input.request.viewer?.userID == user.id
    }

    // MARK: Mutations

    private static func signUp(_ input: ResolverInput) async throws -> Resolved {
        let username = try AccountInput.username(input.string("username") ?? "")
        let email = try AccountInput.email(input.string("email") ?? "")
        let password = try AccountInput.password(input.string("password") ?? "")
        let context = input.request
        let hash = await context.database.loop.runInThreadPool { PasswordHash.make(password) }
        do {
            return try await context.database.withTransaction { connection in
                let rows = try await connection.query(
                    "INSERT INTO users AS u (username, email, password_hash) VALUES ($1, $2, $3) RETURNING \(UserRecord.columns)",
                    [username, email, hash]
                )
                let user = try UserRecord(row: rows[0], shownToOwner: true)
                try await Outbox.enqueue(AccountMail.verifyEmail, to: email, user: user.id, on: connection)
                let token = try await Authentication.issueToken(
                    for: user.id, userAgent: context.userAgent, address: context.clientAddress, settings: context.settings, on: connection)
                context.noteWrites(forUser: user.id)
                return .object(AuthPayload(token: token, user: user))
            }
        } catch let error as PostgresError where error.kind == .uniqueViolation {
            throw error.constraint == "users_email_key"
                ? APIError.badInput("An account with that email exists already.")
                : APIError.badInput("The username \(username.debugDescription) is taken.")
        }
    }

    /// A hash to check against when no account matches, so that a wrong
    /// username takes as long as a wrong password.
    private static let decoyHash = PasswordHash.make(RandomBytes.token())

    private static func logIn(_ input: ResolverInput) async throws -> Resolved {
        let name = input.string("username") ?? ""
        let password = input.string("password") ?? ""
        let context = input.request
        try await SignInThrottle.attempt(name, address: context.clientAddress, settings: context.settings, on: context.database)
        let rows = try await context.database.query(
            "SELECT \(UserRecord.columns), u.password_hash FROM users u WHERE lower(u.username) = lower($1) OR lower(u.email) = lower($1) LIMIT 1",
            [name]
        )
        let user = try rows.first.map { try UserRecord(row: $0, shownToOwner: true) }
        let stored = try rows.first?.decode(String.self, at: UserRecord.columnCount) ?? decoyHash
        let matches = await context.database.loop.runInThreadPool { PasswordHash.verify(password, against: stored) }
        guard let user, matches else { throw APIError.unauthenticated("Wrong username or password.") }
        try await SignInThrottle.succeeded(name, on: context.database)
        try await SignInThrottle.succeeded(from: context.clientAddress, on: context.database)
        let token = try await Authentication.issueToken(
            for: user.id, userAgent: context.userAgent, address: context.clientAddress, settings: context.settings, on: context.database)
        context.noteWrites(forUser: user.id)
        return .object(AuthPayload(token: token, user: user))
    }

    private static func changePassword(_ input: ResolverInput) async throws -> Resolved {
        let context = input.request
        guard let viewer = context.viewer else { throw APIError.unauthenticated() }
        let current = input.string("currentPassword") ?? ""
        let new = try AccountInput.password(input.string("newPassword") ?? "")
        let stored = try await SignInThrottle.recheck(
            current, of: viewer.userID, context: context, wrong: "The current password is not right.")
        let hash = await context.database.loop.runInThreadPool { PasswordHash.make(new) }
        let revoked = try await context.database.withTransaction { connection in
            // Only if the hash is still the one checked: two changes at once
            // cannot both pass on the same old password.
            let changed = try await connection.query(
                "UPDATE users SET password_hash = $2 WHERE id = $1 AND password_hash = $3 RETURNING id", [viewer.userID, hash, stored])
            guard !changed.isEmpty else { throw APIError.badInput("The password was changed meanwhile; sign in again.") }
            try await AccountTokens.revokeAfterNewPassword(user: viewer.userID, on: connection)
            return try await SignedInDevices.signOutOthers(of: viewer, on: connection)
        }
        SignedInDevices.forget(revoked, in: context)
        return .scalar(.boolean(true))
    }

    /// People by what a user types: a username's or a full name's
    /// beginning, or a close spelling of either (trigram similarity).
    private static func searchUsers(_ input: ResolverInput) async throws -> Resolved {
        let text = (input.string("query") ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        let first = input.int("first") ?? 10
        guard (0...50).contains(first) else { throw APIError.badInput("\"first\" must be between 0 and 50; it is \(first).") }
        guard (1...100).contains(text.count) else { throw APIError.badInput("\"query\" is 1 to 100 characters.") }
        // Beginnings as ranges, so the pattern-order indexes serve them.
        let rows = try await input.request.database.query(
            """
            WITH found AS (
                SELECT u.*, (lower(u.username) ~>=~ $1 AND lower(u.username) ~<~ $2)
                            OR (lower(u.first_name || ' ' || u.last_name) ~>=~ $1
                                AND lower(u.first_name || ' ' || u.last_name) ~<~ $2) AS begins
                FROM users u
                WHERE (lower(u.username) ~>=~ $1 AND lower(u.username) ~<~ $2)
                   OR (lower(u.first_name || ' ' || u.last_name) ~>=~ $1
                       AND lower(u.first_name || ' ' || u.last_name) ~<~ $2)
                   OR lower(u.username) % $1 OR lower(u.first_name || ' ' || u.last_name) % $1
            )
            SELECT \(UserRecord.columns) FROM found u
            ORDER BY u.begins DESC,
                     greatest(similarity(lower(u.username), $1), similarity(lower(u.first_name || ' ' || u.last_name), $1)) DESC, u.id
            LIMIT $3
            """, [text, PrefixRange.upperBound(of: text), first])
        return .list(try rows.map { .object(try UserRecord(row: $0)) })
    }

    private static func updateProfile(_ input: ResolverInput) async throws -> Resolved {
        let context = input.request
        let userID = try context.signedIn()
        guard case .object(let fields) = input.argument("input") ?? .null else { throw APIError.badInput("\"input\" is required.") }
        var assignments: [String] = []
        var parameters: [any PostgresEncodable] = [userID]
        func set(_ column: String, _ value: (any PostgresEncodable)?) {
            parameters.append(value ?? String?.none)
            assignments.append("\(column) = $\(parameters.count)")
        }
        for field in fields {
            let value = field.value
            switch field.name {
            case "firstName", "lastName":
                guard let text = value.stringValue else { throw APIError.badInput("\"\(field.name)\" cannot be null.") }
                set(field.name == "firstName" ? "first_name" : "last_name", try AccountInput.text(text, field.name, limit: 100))
            case "biography":
                set("biography", try AccountInput.text(value.stringValue ?? "", "biography", limit: 2000))
            case "profileImageUrl":
                set("profile_image_url", try value.stringValue.map { try AccountInput.url($0, "profileImageUrl") })
            case "birthday":
                parameters.append(try value.stringValue.map { try AccountInput.birthday($0) } ?? String?.none)
                assignments.append("birthday = $\(parameters.count)::date")
            case "gender":
                set("gender", value.enumValue)
            case "timeZone":
                if let zone = value.stringValue { try await TimeZoneName.check(zone, argument: "timeZone", on: context.database) }
                set("time_zone", value.stringValue)
            case "homeLocation":
                if case .object = value, let latitude = value["latitude"]?.doubleValue, let longitude = value["longitude"]?.doubleValue {
                    let point = try AccountInput.coordinates(latitude: latitude, longitude: longitude)
                    set("home_latitude", point.0)
                    set("home_longitude", point.1)
                } else {
                    set("home_latitude", nil)
                    set("home_longitude", nil)
                }
            default:
                break
            }
        }
        let sql =
            assignments.isEmpty
            ? "SELECT \(UserRecord.columns) FROM users u WHERE u.id = $1"
            : "UPDATE users AS u SET \(assignments.joined(separator: ", ")) WHERE u.id = $1 RETURNING \(UserRecord.columns)"
        let rows = try await context.database.query(sql, parameters)
        guard let row = rows.first else { throw APIError.notFound("Your account no longer exists.") }
        return .object(try UserRecord(row: row))
    }
}
