import Foundation
import GraphQL
import HuddlePostgres
import HuddleRuntime

/// The one-use tokens mail carries in links (`account_tokens`): made as the
/// message is sent, kept only as their SHA-256, good once, before they
/// expire, for the address the message went to.
package enum AccountTokens {
    package enum Purpose: String, Sendable, CaseIterable {
        case verifyEmail = "verify-email"
        case resetPassword = "reset-password"
        case changeEmail = "change-email"
        case dataExport = "data-export"

        /// The page under /account/ a link of this purpose opens.
        package var page: String {
            switch self {
            case .verifyEmail: "verify-email"
            case .resetPassword: "reset-password"
            case .changeEmail: "confirm-email"
            case .dataExport: "export"
            }
        }

        /// How long its links work.
        func lifetime(_ settings: AppSettings) -> Int {
            switch self {
            case .verifyEmail: settings[Shared.verificationLinkHours] * 3600
            case .resetPassword: settings[Shared.passwordResetLinkMinutes] * 60
            case .changeEmail, .dataExport: settings[Shared.verificationLinkHours] * 3600
            }
        }
    }

    /// A new token of `purpose` for `user` at `email`, stored hashed in the
    /// caller's transaction.
    static func make(
        _ purpose: Purpose, user: Int64, email: String, settings: AppSettings, on connection: some PostgresQuerying
    ) async throws -> (token: String, hash: String) {
        let token = RandomBytes.token()
        let hash = Authentication.hash(token)
        // What can no longer be used goes, so the table holds live links.
        _ = try await connection.query(
            "DELETE FROM account_tokens WHERE user_id = $1 AND (used_at IS NOT NULL OR expires_at < now())", [user])
        _ = try await connection.query(
            """
            INSERT INTO account_tokens (token_hash, user_id, purpose, email, expires_at)
            VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))
            """, [hash, user, purpose.rawValue, email, purpose.lifetime(settings)])
        return (token, hash)
    }

    /// Uses up `token` if it is a live one of `purpose`: its user and the
    /// address it was sent to. Throws BAD_USER_INPUT when it is unknown,
    /// used or expired (the three are not told apart).
    package static func redeem(_ token: String, _ purpose: Purpose, on connection: some PostgresQuerying) async throws -> (
        user: Int64, email: String
    ) {
        guard !token.isEmpty, token.utf8.count <= 200 else { throw invalid }
        let rows = try await connection.query(
            """
            UPDATE account_tokens SET used_at = now()
            WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()
            RETURNING user_id, email
            """, [Authentication.hash(token), purpose.rawValue])
        guard let row = rows.first else { throw invalid }
        return (try row.decode(Int64.self, at: 0), try row.decode(String.self, at: 1))
    }

    /// Whether `token` is a live one of `purpose`, without using it up.
    static func isLive(_ token: String, _ purpose: Purpose, on connection: some PostgresQuerying) async throws -> Bool {
        guard !token.isEmpty, token.utf8.count <= 200 else { return false }
        return try await !connection.query(
            "SELECT 1 FROM account_tokens WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()",
            [Authentication.hash(token), purpose.rawValue]
        ).isEmpty
    }

    /// Ends every live link of `user`'s but those confirming their own
    /// address: a new password (by a reset or a change) shuts out whoever
    /// had the old one, with the address changes, exports and resets they
    /// may have started; the mail of those still waiting is given up.
    ///
    /// The mail first: its rows are held to the commit, so a sender minting
    /// a link for one (which holds the row, MailDelivery) has either
    /// finished, and its token is revoked next, or waits and finds the row
    /// given up.
    static func revokeAfterNewPassword(user: Int64, on connection: some PostgresQuerying) async throws {
        _ = try await connection.query(
            """
            UPDATE email_outbox SET state = 'dead', last_error = 'superseded: the password was changed'
            WHERE user_id = $1 AND state = 'pending' AND template IN ('reset-password', 'confirm-new-email', 'data-export')
            """, [user])
        _ = try await connection.query(
            """
            UPDATE account_tokens SET used_at = now()
            WHERE user_id = $1 AND purpose <> 'verify-email' AND used_at IS NULL AND expires_at > now()
            """, [user])
    }

    static var invalid: GraphQLError { APIError.badInput("This link has expired or has been used already; ask for a new one.") }
}
