import Foundation
import GraphQL
import HuddleMail
import HuddlePostgres
import HuddleRuntime

/// Sends the outbox's messages: the scheduler's work of kind `mail.send`.
/// The claimed job's row lock keeps a message to one process at a time;
/// its books are kept through a pool of its own, each statement committing
/// at once, never inside the job's transaction (as `NoticeDelivery`'s): the
/// link's token is committed before the message is sent, so a link that
/// reached its reader works, and the message is marked sent once the
/// server took it. No SMTP conversation waits inside a transaction holding
/// locks on the outbox or the tokens. A failure is counted on the row and the job comes back after a
/// backoff, until the last attempt or a permanent refusal marks the
/// message dead. A process killed after the server took a message but
/// before the mark sends it again, with the same Message-ID and a second
/// working link.
package struct MailDelivery: Sendable {
    package struct Settings: Sendable {
        /// Where messages go: an SMTP server, or a folder.
        package var transport: any MailTransport
        package var from: MailAddress
        /// The server as users reach it (`https://api.example.com`): links
        /// open its pages under `/account/`.
        package var publicURL: String
        /// Attempts before a message is given up as dead.
        package var maxAttempts = 8
        /// The waits between attempts.
        package var backoff = Backoff(first: .seconds(30), longest: .seconds(3600))

        package init(transport: any MailTransport, from: MailAddress, publicURL: String) {
            self.transport = transport
            self.from = from
            self.publicURL = publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL
        }
    }

    package let settings: Settings
    let database: PostgresPool
    let appSettings: AppSettings
    let logger: Logger
    let metrics: Metrics?

    /// A sender that keeps its books through `database`, a pool of its own
    /// on the loop where the scheduler's jobs run.
    package init(_ settings: Settings, database: PostgresPool, appSettings: AppSettings, logger: Logger, metrics: Metrics?) {
        self.settings = settings
        self.database = database
        self.appSettings = appSettings
        self.logger = logger
        self.metrics = metrics
    }

    /// The scheduler's work that sends one message.
    package var work: ScheduledWork {
        ScheduledWork(Outbox.jobKind) { id, _ in try await send(id) }
    }

    private func send(_ id: Int64) async throws -> ScheduledWork.Outcome {
        let rows = try await database.query(
            """
            SELECT o.recipient, o.template, o.parameters::text, o.state, o.attempts, o.user_id, coalesce(u.username, ''),
                   extract(epoch FROM o.created_at)::float8
            FROM email_outbox o LEFT JOIN users u ON u.id = o.user_id WHERE o.id = $1
            """, [id])
        guard let row = rows.first, try row.decode(String.self, at: 3) == "pending" else { return .done }
        let recipient = try row.decode(String.self, at: 0)
        let attempts = try row.decode(Int.self, at: 4) + 1
        let user = try row.decode(Int64?.self, at: 5)
        guard let template = MailTemplate.all[try row.decode(String.self, at: 1)], let to = MailAddress(recipient) else {
            return try await failed(
                id, attempts: attempts, MailError(permanent: true, "no such template, or an address SMTP cannot carry"))
        }
        var link: String?
        var tokenHash: String?
        if let purpose = template.link, let user {
            // Minted holding the row, and only while it is still pending: a
            // new password (which gives up such mail, then revokes the
            // links, AccountTokens.revokeAfterNewPassword) either waits for
            // this and revokes the token, or comes first and stops it.
            let made = try await database.withTransaction { connection -> (token: String, hash: String)? in
                let state = try await connection.query("SELECT state FROM email_outbox WHERE id = $1 FOR UPDATE", [id])
                guard try state.first?.decode(String.self, at: 0) == "pending" else { return nil }
                return try await AccountTokens.make(purpose, user: user, email: recipient, settings: appSettings, on: connection)
            }
            guard let made else { return .done }
            link = "\(settings.publicURL)/account/\(purpose.page)?token=\(made.token)"
            tokenHash = made.hash
        }
        let content = template.render(
            .init(username: try row.decode(String.self, at: 6), parameters: Self.parameters(try row.decode(String.self, at: 2)), link: link)
        )
        // Stable for the row, so that a message sent twice says it is one.
        let stamp = Authentication.hash("message \(id) \(try row.decode(Double.self, at: 7))").prefix(16)
        let message = MailMessage(
            from: settings.from, to: to, subject: content.subject, text: content.text, html: content.html,
            messageID: MailMessage.messageID(for: id, from: settings.from, random: String(stamp)), date: Date())
        let sent = await JobSpans.delivering("EMAIL") { () async -> Result<Void, MailError> in
            do throws(MailError) {
                try await settings.transport.send(OutgoingMail(message))
                return .success(())
            } catch {
                return .failure(error)
            }
        } outcome: {
            (try? $0.get()) == nil ? "failed" : "sent"
        }
        if case .failure(let error) = sent {
            // Refused for good, the link went nowhere: its token goes too.
            // Any other failure (a timeout after the data, say) may have
            // delivered it; the token stays, to expire unused if not.
            if error.isPermanent, let tokenHash {
                _ = try await database.query("DELETE FROM account_tokens WHERE token_hash = $1", [tokenHash])
            }
            return try await failed(id, attempts: attempts, error)
        }
        // Only a row still pending: one given up meanwhile (a new password) stays given up.
        _ = try await database.query(
            "UPDATE email_outbox SET state = 'sent', sent_at = now(), attempts = $2, last_error = NULL WHERE id = $1 AND state = 'pending'",
            [id, attempts])
        metrics?.recordMail(outcome: "sent")
        logger.log(.info, "mail: sent", ["id": .int(Int(id)), "template": .string(template.name), "attempt": .int(attempts)])
        return .done
    }

    /// Counts a failed attempt: dead after the last one or a permanent
    /// refusal, else due again after a backoff that doubles.
    private func failed(_ id: Int64, attempts: Int, _ error: MailError) async throws -> ScheduledWork.Outcome {
        let dead = error.isPermanent || attempts >= settings.maxAttempts
        _ = try await database.query(
            "UPDATE email_outbox SET attempts = $2, last_error = left($3, 2000), state = $4 WHERE id = $1 AND state = 'pending'",
            [id, attempts, error.description, dead ? "dead" : "pending"])
        metrics?.recordMail(outcome: dead ? "dead" : "failed")
        logger.log(
            dead ? .error : .warning, dead ? "mail: gave up on a message" : "mail: not sent; trying again later",
            ["id": .int(Int(id)), "attempt": .int(attempts), "error": .string(error.description)])
        if dead { return .done }
        return .again(at: settings.backoff.nextAttempt(after: attempts))
    }

    /// A row's parameters (a JSON object of strings).
    static func parameters(_ text: String) -> [String: String] {
        guard case .object(let members)? = try? JSONReader().read(text) else { return [:] }
        var parameters: [String: String] = [:]
        for member in members { if case .string(let value) = member.value { parameters[member.name] = value } }
        return parameters
    }
}
