import Formats
import Foundation
import HuddlePostgres

/// The durable outbox (`email_outbox`): mail is put here in the transaction
/// of the change that causes it, and sent by the scheduler's runners
/// (`MailDelivery`), so a change and its message commit together or not at all.
package enum Outbox {
    /// The scheduler's job kind that sends one message.
    package static let jobKind = "mail.send"

    /// Puts a message of `template` to `recipient` in the outbox, in the
    /// caller's transaction; it goes once that commits. Its id.
    @discardableResult
    package static func enqueue(
        _ template: MailTemplate, to recipient: String, user: Int64?, parameters: [String: String] = [:],
        on connection: some PostgresQuerying
    ) async throws -> Int64 {
        let rows = try await connection.query(
            "INSERT INTO email_outbox (user_id, recipient, template, parameters) VALUES ($1, $2, $3, $4::jsonb) RETURNING id",
            [user, recipient, template.name, jsonObject(parameters)])
        let id = try rows[0].decode(Int64.self, at: 0)
        try await Scheduler.schedule(jobKind, subject: id, at: Date(), on: connection)
        return id
    }

    /// How many messages of `template` were put in the outbox for `user` in the last hour.
    package static func sentInTheLastHour(_ template: MailTemplate, user: Int64, on connection: some PostgresQuerying) async throws -> Int {
        try await connection.query(
            "SELECT count(*)::int FROM email_outbox WHERE user_id = $1 AND template = $2 AND created_at > now() - interval '1 hour'",
            [user, template.name])[0].decode(Int.self, at: 0)
    }

    /// A JSON object of strings, as text for a `jsonb` parameter.
    static func jsonObject(_ object: [String: String]) -> String {
        "{" + object.sorted { $0.key < $1.key }.map { JSONText.quoted($0.key) + ":" + JSONText.quoted($0.value) }.joined(separator: ",")
            + "}"
    }

    /// A message as an operator sees it (`huddle outbox`).
    package struct Entry: Sendable {
        package var id: Int64
        package var recipient: String
        package var template: String
        package var state: String
        package var attempts: Int
        package var lastError: String?
        package var createdAt: Date
    }

    /// The messages not sent (pending or dead), oldest first, up to `limit`.
    package static func waiting(limit: Int, on connection: some PostgresQuerying) async throws -> [Entry] {
        try await connection.query(
            """
            SELECT id, recipient, template, state, attempts, last_error, created_at FROM email_outbox
            WHERE state <> 'sent' ORDER BY id LIMIT $1
            """, [limit]
        ).map { row in
            Entry(
                id: try row.decode(Int64.self, at: 0), recipient: try row.decode(String.self, at: 1),
                template: try row.decode(String.self, at: 2),
                state: try row.decode(String.self, at: 3), attempts: try row.decode(Int.self, at: 4),
                lastError: try row.decode(String?.self, at: 5), createdAt: try row.decode(Date.self, at: 6))
        }
    }

    /// Makes dead messages (those `ids` names, or all with nil) pending
    /// again with their attempts reset, and due now; how many.
    package static func retry(_ ids: [Int64]?, on connection: PostgresConnection) async throws -> Int {
        let rows = try await connection.query(
            """
            UPDATE email_outbox SET state = 'pending', attempts = 0, last_error = NULL
            WHERE state = 'dead' AND ($1::bigint[] IS NULL OR id = ANY($1::bigint[])) RETURNING id
            """, [ids.map { "{" + $0.map(String.init).joined(separator: ",") + "}" }])
        for row in rows { try await Scheduler.schedule(jobKind, subject: try row.decode(Int64.self, at: 0), at: Date(), on: connection) }
        return rows.count
    }
}
