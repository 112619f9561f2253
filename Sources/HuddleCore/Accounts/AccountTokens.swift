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

    /// Marks every live token of `purpose` for `user` used: a new password
    /// makes the other reset links die with the one used.
    static func useUp(_ purpose: Purpose, user: Int64, on connection: some PostgresQuerying) async throws {
        _ = try await connection.query(
            "UPDATE account_tokens SET used_at = now() WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL", [user, purpose.rawValue])
    }

    static var invalid: GraphQLError { APIError.badInput("This link has expired or has been used already; ask for a new one.") }
}
