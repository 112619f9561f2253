import Foundation
import GraphQL
import HuddlePostgres
import HuddleRuntime

/// An account's address and what mail does for it: confirming the address,
/// choosing a new password by a link, changing the address. The links'
/// pages (served under /account/) and the GraphQL mutations both come here.
package enum AccountEmail {
    static func bind(_ binder: inout SchemaBinder) {
        binder.rootAsync("Mutation", "verifyEmail") { input in
            let context = input.request
            let user = try await verify(token: input.string("token") ?? "", database: context.database)
            return .object(user)
        }
        binder.rootAsync("Mutation", "resendVerificationEmail") { input in
            let context = input.request
            let userID = try context.signedIn()
            return .scalar(.boolean(try await resendVerification(userID, context: context)))
        }
        binder.rootAsync("Mutation", "requestPasswordReset") { input in
            let context = input.request
            try await requestPasswordReset(email: input.string("email") ?? "", context: context)
            return .scalar(.boolean(true))
        }
        binder.rootAsync("Mutation", "resetPassword") { input in
            let context = input.request
            try await resetPassword(
                token: input.string("token") ?? "", newPassword: input.string("newPassword") ?? "", database: context.database,
                tokens: context.tokens)
            return .scalar(.boolean(true))
        }
        binder.rootAsync("Mutation", "changeEmail") { input in
            let context = input.request
            try await changeEmail(
                currentPassword: input.string("currentPassword") ?? "", newEmail: input.string("newEmail") ?? "", context: context)
            return .scalar(.boolean(true))
        }
        binder.rootAsync("Mutation", "confirmEmailChange") { input in
            .object(try await confirmChange(token: input.string("token") ?? "", database: input.request.database))
        }
    }

    /// Confirms the address a verification link was sent to, if the account
    /// still has it; the account.
    package static func verify(token: String, database: PostgresPool) async throws -> UserRecord {
        try await database.withTransaction { connection in
            let (user, email) = try await AccountTokens.redeem(token, .verifyEmail, on: connection)
            let rows = try await connection.query(
                """
                UPDATE users AS u SET email_verified_at = coalesce(u.email_verified_at, now())
                WHERE u.id = $1 AND lower(u.email) = lower($2) RETURNING \(UserRecord.columns)
                """, [user, email])
            guard let row = rows.first else {
                throw APIError.badInput("This link confirms an address the account no longer has.")
            }
            return try UserRecord(row: row, shownToOwner: true)
        }
    }

    /// Sends the signed-in user's address another verification link; false
    /// when it is confirmed already.
    static func resendVerification(_ userID: Int64, context: RequestContext) async throws -> Bool {
        try await context.database.withTransaction { connection in
            let rows = try await connection.query(
                "SELECT email, email_verified_at IS NOT NULL FROM users WHERE id = $1 FOR UPDATE", [userID])
            guard let row = rows.first else { throw APIError.notFound("Your account no longer exists.") }
            if try row.decode(Bool.self, at: 1) { return false }
            try await underTheHourlyLimit(AccountMail.verifyEmail, user: userID, context: context, on: connection)
            try await Outbox.enqueue(AccountMail.verifyEmail, to: try row.decode(String.self, at: 0), user: userID, on: connection)
            return true
        }
    }

    /// Sends a link to choose a new password to the account with `email`,
    /// if there is one and it has not had too many this hour. The answer
    /// is the same either way, so it tells no one which addresses have accounts.
    static func requestPasswordReset(email: String, context: RequestContext) async throws {
        let address = try AccountInput.email(email)
        try await SignInThrottle.resetRequested(from: context.clientAddress, settings: context.settings, on: context.database)
        try await context.database.withTransaction { connection in
            let rows = try await connection.query("SELECT id, email FROM users WHERE lower(email) = lower($1) FOR UPDATE", [address])
            guard let row = rows.first else { return }
            let user = try row.decode(Int64.self, at: 0)
            let sent = try await Outbox.sentInTheLastHour(AccountMail.resetPassword, user: user, on: connection)
            guard sent < context.settings[Shared.accountMailPerHour] else { return }
            try await Outbox.enqueue(AccountMail.resetPassword, to: try row.decode(String.self, at: 1), user: user, on: connection)
        }
    }

    /// Sets a new password by a reset link's token: the link's other twins
    /// die with it, every device is signed out, and the address counts as
    /// confirmed (the link reached it).
    package static func resetPassword(token: String, newPassword: String, database: PostgresPool, tokens: TokenCache?) async throws {
        let password = try AccountInput.password(newPassword)
        // The token first: a password's hash is slow on purpose, and no one
        // without a live link should make the server work it out.
        guard try await AccountTokens.isLive(token, .resetPassword, on: database) else { throw AccountTokens.invalid }
        let hash = await database.loop.runInThreadPool { PasswordHash.make(password) }
        let revoked = try await database.withTransaction { connection in
            let (user, email) = try await AccountTokens.redeem(token, .resetPassword, on: connection)
            let changed = try await connection.query(
                """
                UPDATE users SET password_hash = $2, email_verified_at = coalesce(email_verified_at, now())
                WHERE id = $1 AND lower(email) = lower($3) RETURNING id
                """, [user, hash, email])
            guard !changed.isEmpty else { throw APIError.badInput("This link was sent to an address the account no longer has.") }
            try await AccountTokens.revokeAfterNewPassword(user: user, on: connection)
            return try await connection.query("DELETE FROM auth_tokens WHERE user_id = $1 RETURNING token_hash", [user]).map {
                try $0.decode(String.self, at: 0)
            }
        }
        for tokenHash in revoked { tokens?.forget(tokenHash) }
    }

    /// Sends a link confirming `newEmail` to it, given the current password;
    /// the address changes when the link is followed.
    static func changeEmail(currentPassword: String, newEmail: String, context: RequestContext) async throws {
        let userID = try context.signedIn()
        let address = try AccountInput.email(newEmail)
        let rows = try await context.database.query("SELECT email FROM users WHERE id = $1", [userID])
        guard let row = rows.first else { throw APIError.notFound("Your account no longer exists.") }
        guard address.lowercased() != (try row.decode(String.self, at: 0)).lowercased() else {
            throw APIError.badInput("That is the account's address already.")
        }
        _ = try await SignInThrottle.recheck(currentPassword, of: userID, context: context, wrong: "The current password is not right.")
        try await context.database.withTransaction { connection in
            let taken = try await connection.query("SELECT 1 FROM users WHERE lower(email) = lower($1)", [address])
            guard taken.isEmpty else { throw APIError.badInput("An account with that email exists already.") }
            try await underTheHourlyLimit(AccountMail.confirmNewEmail, user: userID, context: context, on: connection)
            try await Outbox.enqueue(AccountMail.confirmNewEmail, to: address, user: userID, on: connection)
        }
    }

    /// Makes the address a change link was sent to the account's, confirmed,
    /// and tells the old address; the account.
    package static func confirmChange(token: String, database: PostgresPool) async throws -> UserRecord {
        do {
            return try await database.withTransaction { connection in
                let (user, email) = try await AccountTokens.redeem(token, .changeEmail, on: connection)
                let old = try await connection.query("SELECT email FROM users WHERE id = $1 FOR UPDATE", [user])
                guard let oldEmail = try old.first?.decode(String.self, at: 0) else { throw AccountTokens.invalid }
                let rows = try await connection.query(
                    "UPDATE users AS u SET email = $2, email_verified_at = now() WHERE u.id = $1 RETURNING \(UserRecord.columns)",
                    [user, email])
                if oldEmail.lowercased() != email.lowercased() {
                    try await Outbox.enqueue(
                        AccountMail.emailChanged, to: oldEmail, user: user, parameters: ["newEmail": email], on: connection)
                }
                return try UserRecord(row: rows[0], shownToOwner: true)
            }
        } catch let error as PostgresError where error.kind == .uniqueViolation {
            throw APIError.badInput("Another account has taken that address meanwhile.")
        }
    }

    /// Throws RATE_LIMITED when `user` has had the hour's messages of `template`.
    private static func underTheHourlyLimit(
        _ template: MailTemplate, user: Int64, context: RequestContext, on connection: some PostgresQuerying
    ) async throws {
        let sent = try await Outbox.sentInTheLastHour(template, user: user, on: connection)
        guard sent < context.settings[Shared.accountMailPerHour] else {
            throw APIError.rateLimited("Enough of these messages have been sent for now; try again in an hour.")
        }
    }
}
