import Formats
import Foundation
import GraphQL
import HuddlePostgres
import HuddleRuntime

/// `requestDataExport`: a JSON document of everything the account owns in
/// the shared core and each mounted app (`App.exportData`), made by the
/// scheduler (job kind `account.export`, subject the user), kept until its
/// link expires, and mailed to the account's address as a link that
/// downloads it once (`/account/export`).
package struct DataExport: Sendable {
    package static let jobKind = "account.export"
    /// The job that removes an export nobody downloaded, when its link expires.
    package static let expiryKind = "account.export-expiry"

    let apps: [any App.Type]
    let settings: AppSettings

    package init(apps: [any App.Type], settings: AppSettings) {
        self.apps = apps
        self.settings = settings
    }

    /// The scheduler's work: making an export and mailing its link, and
    /// removing it when the link expires.
    package var work: [ScheduledWork] {
        [
            ScheduledWork(Self.jobKind) { user, connection in
                try await make(for: user, on: connection)
                return .done
            },
            ScheduledWork(Self.expiryKind) { export, connection in
                _ = try await connection.query("DELETE FROM data_exports WHERE id = $1", [export])
                return .done
            },
        ]
    }

    static func bind(_ binder: inout SchemaBinder) {
        binder.rootAsync("Mutation", "requestDataExport") { input in
            let context = input.request
            let user = try context.signedIn()
            try await context.database.withTransaction { connection in
                // Counted by the mail sent, which a download does not take away.
                guard try await Outbox.sentInTheLastHour(AccountMail.dataExport, user: user, on: connection) == 0 else {
                    throw APIError.rateLimited("An export was made in the last hour: its link is in your mail.")
                }
                // One job per account: asking twice before it runs makes one export.
                try await Scheduler.schedule(jobKind, subject: user, at: Date(), on: connection)
            }
            return .scalar(.boolean(true))
        }
    }

    private func make(for user: Int64, on connection: PostgresConnection) async throws {
        let rows = try await connection.query("SELECT email FROM users WHERE id = $1", [user])
        guard let email = try rows.first?.decode(String.self, at: 0) else { return }
        var sections = ["\"exportedAt\":\(JSONText.quoted(Instant.text(Date())))"]
        for app in [Shared.self] + apps {
            if let section = try await app.exportData(of: user, on: connection) {
                sections.append("\(JSONText.quoted(app.schemaFolder)):\(section)")
            }
        }
        let made = try await connection.query(
            """
            INSERT INTO data_exports (user_id, document, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))
            RETURNING id, expires_at
            """, [user, "{" + sections.joined(separator: ",") + "}", AccountTokens.Purpose.dataExport.lifetime(settings)])
        try await Scheduler.schedule(
            Self.expiryKind, subject: try made[0].decode(Int64.self, at: 0), at: try made[0].decode(Date.self, at: 1), on: connection)
        try await Outbox.enqueue(AccountMail.dataExport, to: email, user: user, on: connection)
    }

    /// The export a download link's token opens, taken: its owner's
    /// username and the document. Throws BAD_USER_INPUT for a token not
    /// live, or when the export has gone.
    package static func download(token: String, database: PostgresPool) async throws -> (username: String, document: String) {
        try await database.withTransaction { connection in
            let (user, email) = try await AccountTokens.redeem(token, .dataExport, on: connection)
            // Only while the account still has the address the link went to.
            let rows = try await connection.query(
                """
                DELETE FROM data_exports WHERE id = (
                    SELECT e.id FROM data_exports e JOIN users u ON u.id = e.user_id
                    WHERE e.user_id = $1 AND e.expires_at > now() AND lower(u.email) = lower($2) ORDER BY e.id DESC LIMIT 1)
                RETURNING document, (SELECT username FROM users WHERE id = $1)
                """, [user, email])
            guard let row = rows.first else { throw AccountTokens.invalid }
            return (try row.decode(String.self, at: 1), try row.decode(String.self, at: 0))
        }
    }
}
