import Foundation
import PostgresTestSupport
import RuntimeTestSupport
import TestSupport
import Testing

/// `huddle outbox`: what an operator sees of the mail not sent, and sending dead mail again.
@Suite(.enabled(if: TestDatabase.available)) struct OutboxCommandTests {
    @Test func listsWhatIsNotSentAndMakesDeadMailPendingAgain() async throws {
        try await TestDatabase.withScratchDatabase { url in
            let environment = ["DATABASE_URL": url]
            let migrated = try await offThePool { try HuddleCommand.run(["migrate"], environment: environment) }
            #expect(migrated.status == 0, "\(migrated.standardError)")
            try await TestDatabase.withPool(url: url) { pool, _ in
                _ = try await pool.query(
                    """
                    INSERT INTO email_outbox (recipient, template, state, attempts, last_error, sent_at) VALUES
                      ('a@example.com', 'verify-email', 'dead', 8, 'Failed sending data to the peer (reply 451)', NULL),
                      ('b@example.com', 'reset-password', 'dead', 1, 'RCPT failed: 550 (reply 550)', NULL),
                      ('c@example.com', 'verify-email', 'pending', 2, 'Couldn''t connect to server', NULL),
                      ('d@example.com', 'verify-email', 'sent', 1, NULL, now())
                    """)
            }
            let listed = try HuddleCommand.run(["outbox"], environment: environment)
            #expect(listed.status == 0, "\(listed.standardError)")
            let lines = listed.standardOutput.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
            #expect(
                lines.map { $0.prefix(5).joined(separator: " ") } == [
                    "1 dead 8 verify-email a@example.com", "2 dead 1 reset-password b@example.com",
                    "3 pending 2 verify-email c@example.com",
                ], "\(listed.standardOutput)")
            #expect(lines.first?.last == " Failed sending data to the peer (reply 451)")

            let one = try HuddleCommand.run(["outbox", "--retry", "2"], environment: environment)
            #expect(one.standardOutput == "1 dead message made pending again\n", "\(one.standardError)")
            let rest = try HuddleCommand.run(["outbox", "--retry-all-dead"], environment: environment)
            #expect(rest.standardOutput == "1 dead message made pending again\n")
            let after = try HuddleCommand.run(["outbox"], environment: environment).standardOutput
            #expect(
                after.split(separator: "\n").map { $0.split(separator: "\t").prefix(3).joined(separator: " ") } == [
                    "1 pending 0", "2 pending 0", "3 pending 2",
                ])
            // Each is due at once for the servers' schedulers.
            let due = try await TestDatabase.withPool(url: url) { pool, _ in
                try await pool.query("SELECT subject_id FROM scheduled_jobs WHERE kind = 'mail.send' ORDER BY subject_id").map {
                    try $0.decode(Int64.self, at: 0)
                }
            }
            #expect(due == [1, 2])
            let both = try HuddleCommand.run(["outbox", "--retry", "1", "--retry-all-dead"], environment: environment)
            #expect(both.status == 2)
        }
    }
}
