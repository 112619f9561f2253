import Foundation
import HuddleCore
import HuddleMail
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// The outbox's delivery against a real SMTP server: failures tried again
/// with backoff until the last attempt, refusals given up at once, and
/// each message sent once by several processes.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct OutboxTests {
    /// The outbox's rows now: recipient, state and attempts.
    func outbox(_ server: TestServer) async throws -> [String: (state: String, attempts: Int, error: String?)] {
        var rows: [String: (String, Int, String?)] = [:]
        for row in try await server.sql("SELECT recipient, state, attempts, last_error FROM email_outbox") {
            rows[try row.decode(String.self, at: 0)] = (
                try row.decode(String.self, at: 1), try row.decode(Int.self, at: 2), try row.decode(String?.self, at: 3)
            )
        }
        return rows
    }

    /// While the SMTP server holds a message (it answers none until a
    /// second comes), the books are already kept: the link's token is
    /// committed, so a link that reached its reader works even if the
    /// process dies before the mark, and no transaction holds the outbox's
    /// row through the conversation. The second message, sent by the test,
    /// lets both go; the row is then marked sent.
    @Test func theBooksAreKeptOutsideTheSMTPConversation() async throws {
        let smtp = try SMTPServer(gather: 2)
        try await TestServer.with(mailing(to: smtp)) { server in
            _ = try await server.signUp("ana")
            // The message's data sent, the conversation waits for the reply.
            for _ in 0..<1200 where !smtp.isHoldingData { try await Task.sleep(for: .milliseconds(50)) }
            #expect(smtp.isHoldingData)
            let tokens = try await server.sql("SELECT count(*)::int FROM account_tokens WHERE purpose = 'verify-email'")
            #expect(try tokens[0].decode(Int.self, at: 0) == 1, "the link's token is committed before the message is sent")
            #expect(try await outbox(server)["ana@example.com"]?.state == "pending")
            #expect(smtp.received().isEmpty)
            let unlocked = try await server.sql("SELECT id FROM email_outbox WHERE recipient = 'ana@example.com' FOR UPDATE NOWAIT")
            #expect(unlocked.count == 1)

            var other = SMTPTransport.Settings(url: smtp.url())
            other.security = .none
            try await SMTPTransport(other).send(
                OutgoingMail(
                    MailMessage(
                        from: MailAddress("test@example.com")!, to: MailAddress("other@example.com")!, subject: "Second",
                        text: "Lets the first go.", messageID: "<second@example.com>", date: Date())))
            var rows = try await outbox(server)
            for _ in 0..<1200 where rows["ana@example.com"]?.state != "sent" {
                try await Task.sleep(for: .milliseconds(50))
                rows = try await outbox(server)
            }
            #expect(rows["ana@example.com"]?.state == "sent", "\(rows)")
            #expect(try await smtp.waitForMessages(2).count == 2)
        }
    }

    @Test func aRefusalIsGivenUpAtOnceAndADelayIsTriedAgainUntilTheLastAttempt() async throws {
        let smtp = try SMTPServer(refused: ["nobody@example.com"], deferred: ["later@example.com"])
        try await TestServer.with(
            mailing(to: smtp) { settings in
                settings.maxAttempts = 3
                settings.backoff.first = .milliseconds(100)
            }
        ) { server in
            _ = try await server.signUp("nobody")
            _ = try await server.signUp("later")
            _ = try await server.signUp("fine")
            var rows = try await outbox(server)
            for _ in 0..<600 where rows["later@example.com"]?.state != "dead" || rows["nobody@example.com"]?.state != "dead" {
                try await Task.sleep(for: .milliseconds(50))
                rows = try await outbox(server)
            }
            #expect(rows["nobody@example.com"]?.state == "dead")
            #expect(rows["nobody@example.com"]?.attempts == 1)
            #expect(rows["nobody@example.com"]?.error?.contains("550") == true, "\(rows)")
            #expect(rows["later@example.com"]?.state == "dead")
            #expect(rows["later@example.com"]?.attempts == 3)
            #expect(rows["later@example.com"]?.error?.contains("451") == true, "\(rows)")
            #expect(rows["fine@example.com"]?.state == "sent")
            #expect(smtp.received().map(\.recipients) == [["fine@example.com"]])
            // Dead messages leave the scheduler. A link refused for good goes
            // with its token; one tried and deferred keeps each attempt's
            // (a deferral may come after the server took the message) to expire.
            #expect(
                try await server.sql("SELECT count(*)::int FROM scheduled_jobs WHERE kind = 'mail.send'")[0].decode(Int.self, at: 0) == 0)
            let tokens = try await server.sql(
                "SELECT u.username, count(t.*)::int FROM users u LEFT JOIN account_tokens t ON t.user_id = u.id GROUP BY u.username")
            let counts = Dictionary(
                uniqueKeysWithValues: try tokens.map { (try $0.decode(String.self, at: 0), try $0.decode(Int.self, at: 1)) })
            #expect(counts == ["nobody": 0, "later": 3, "fine": 1], "\(counts)")
            let metrics = try await server.get("/metrics")
            #expect(metrics.contains("huddle_mail_messages_total{outcome=\"sent\"} 1\n"), "\(metrics)")
            #expect(metrics.contains("huddle_mail_messages_total{outcome=\"failed\"} 2\n"))
            #expect(metrics.contains("huddle_mail_messages_total{outcome=\"dead\"} 2\n"))
        }
    }

    /// Messages waiting when the server is away go once it is back.
    @Test func messagesWaitWhileTheServerIsAwayAndGoWhenItIsBack() async throws {
        let port = freePort()
        try await TestServer.with(
            { configuration in
                var transport = SMTPTransport.Settings(url: "smtp://127.0.0.1:\(port)")
                transport.security = .none
                var settings = MailDelivery.Settings(
                    transport: try! SMTPTransport(transport), from: MailAddress("hello@huddle.example")!,
                    publicURL: "https://huddle.example")
                settings.backoff = Backoff(first: .milliseconds(200), longest: .milliseconds(400))
                // However long the SMTP server below takes to start.
                settings.maxAttempts = 100
                configuration.mail = settings
            }
        ) { server in
            _ = try await server.signUp("ana")
            var rows = try await outbox(server)
            for _ in 0..<600 where (rows["ana@example.com"]?.attempts ?? 0) < 2 {
                try await Task.sleep(for: .milliseconds(50))
                rows = try await outbox(server)
            }
            #expect(rows["ana@example.com"]?.state == "pending")
            // Nothing listens on that port; now something does.
            let smtp = try SMTPServer(port: port)
            let received = try await smtp.waitForMessages(1)
            #expect(received.first?.recipients == ["ana@example.com"])
            let link = try await ParsedMail(try #require(received.first)).link
            #expect(link?.hasPrefix("https://huddle.example/account/verify-email?token=") == true, "\(String(describing: link))")
        }
    }

    @Test func twoServersSendEachMessageOnce() async throws {
        let smtp = try SMTPServer()
        try await TestServer.withTwo(mounting: [], mailing(to: smtp)) { first, second in
            for index in 0..<10 { _ = try await (index.isMultiple(of: 2) ? first : second).signUp("user\(index)") }
            let received = try await smtp.waitForMessages(10)
            // Long enough for a second sending to have come.
            try await Task.sleep(for: .seconds(1))
            #expect(smtp.received().count == 10)
            #expect(Set(received.flatMap(\.recipients)) == Set((0..<10).map { "user\($0)@example.com" }))
            #expect(try await first.sql("SELECT count(*)::int FROM email_outbox WHERE state = 'sent'")[0].decode(Int.self, at: 0) == 10)
        }
    }
}
