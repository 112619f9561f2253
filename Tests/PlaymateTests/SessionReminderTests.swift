import Foundation
import HuddlePostgres
import Playmate
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Players are reminded of their sessions on the durable scheduler, a
/// setting's minutes before `occursAt`: those still in the session when it
/// fires, once; none for a session deleted or one created inside the lead.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct SessionReminderTests {
    static let kind = "playmate.session-reminder"

    @Test func playersStillInASessionAreRemindedOnceBeforeIt() async throws {
        try await TestDatabase.withScratchDatabase { url in
            let server = try await TestServer.start(databaseURL: url, mounting: [Playmate.self], settings: ["session-reminder-minutes=90"])
            defer { server.stop() }
            let users = try await server.makeUsers(3, prefix: "remind")
            let (ana, bob, cara) = (users[0], users[1], users[2])
            // Ana said her time zone; Bob did not, so his reminder is in UTC and says so.
            let zoned = try await server.graphql(
                #"mutation { updateProfile(input: { timeZone: "Asia/Tokyo" }) { timeZone } }"#, token: ana.token)
            #expect(zoned["data"]["updateProfile"]["timeZone"].string == "Asia/Tokyo", "\(zoned)")
            let created = try await server.graphql(SessionTests.create, SessionTests.input(in: 2), token: ana.token)
            let session = try #require(created["data"]["createSportsSession"]["id"].string, "\(created)")
            let occursAt = try await server.sql("SELECT occurs_at FROM sports_sessions ORDER BY id LIMIT 1")[0].decode(Date.self, at: 0)
            let due = try await server.sql(
                """
                SELECT j.due_at = s.occurs_at - interval '90 minutes' FROM scheduled_jobs j JOIN sports_sessions s ON s.id = j.subject_id
                WHERE j.kind = $1
                """, [Self.kind])
            #expect(try due.map { try $0.decode(Bool.self, at: 0) } == [true])

            // Inside the lead: no reminder. Deleted: its reminder goes with it.
            _ = try await server.graphql(SessionTests.create, SessionTests.input(in: 1), token: bob.token)
            let doomed = try await server.graphql(SessionTests.create, SessionTests.input(in: 3), token: bob.token)
            #expect(try await jobs(server) == 2)
            let deleted = try await server.graphql(
                "mutation($id: ID!) { deleteSportsSession(sessionId: $id) }",
                ["id": try #require(doomed["data"]["createSportsSession"]["id"].string)], token: bob.token)
            #expect(deleted["errors"].isNull, "\(deleted)")
            #expect(try await jobs(server) == 1)

            // Bob joins; Cara joins and leaves.
            for (user, mutation) in [(bob, "joinSportsSession"), (cara, "joinSportsSession"), (cara, "leaveSportsSession")] {
                let changed = try await server.graphql(
                    "mutation($id: ID!) { \(mutation)(sessionId: $id) { id } }", ["id": session], token: user.token)
                #expect(changed["errors"].isNull, "\(changed)")
            }
            _ = try await server.sql("UPDATE scheduled_jobs SET due_at = clock_timestamp() WHERE kind = $1", [Self.kind])
            _ = try await server.sql("SELECT pg_notify('huddle_scheduler', '0')")
            var waited = 0
            while try await jobs(server) > 0, waited < 100 {
                try await Task.sleep(for: .milliseconds(100))
                waited += 1
            }
            #expect(try await jobs(server) == 0)

            let notices = "{ notifications(first: 10) { edges { node { kind message session { id } } } } }"
            for (user, zone) in [(ana, "Asia/Tokyo"), (bob, "UTC")] {
                let inbox = try await server.graphql(notices, token: user.token)
                let reminders = inbox["data"]["notifications"]["edges"].array.map { $0["node"] }.filter {
                    $0["kind"].string == "SESSION_REMINDER"
                }
                #expect(reminders.count == 1, "\(inbox)")
                #expect(reminders.first?["session"]["id"].string == session)
                let said = reminders.first?["message"].string ?? ""
                #expect(
                    Self.readerTimes(occursAt, zone: zone).contains { said == "Your tennis session at Central Park Courts starts \($0)." },
                    "\(inbox)")
            }
            let left = try await server.graphql(notices, token: cara.token)
            #expect(
                left["errors"].isNull
                    && left["data"]["notifications"]["edges"].array.allSatisfy { $0["node"]["kind"].string != "SESSION_REMINDER" },
                "\(left)")
        }
    }

    /// What a notice may say of `date` to a reader in `zone`, worked out
    /// here with Foundation's calendar rather than by the server's SQL: with
    /// the year or without it (the notice leaves it out in the year it was
    /// written, which this cannot know at a new year's midnight).
    static func readerTimes(_ date: Date, zone: String) -> [String] {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)!
        return ["EEE d MMM 'at' HH:mm", "EEE d MMM yyyy 'at' HH:mm"].map { format in
            formatter.dateFormat = format
            return "on \(formatter.string(from: date))" + (zone == "UTC" ? " (UTC)" : "")
        }
    }

    @Test func noRemindersWhenTheSettingIsZero() async throws {
        try await TestDatabase.withScratchDatabase { url in
            let server = try await TestServer.start(databaseURL: url, mounting: [Playmate.self], settings: ["session-reminder-minutes=0"])
            defer { server.stop() }
            let ana = try await server.makeUsers(1, prefix: "quiet")[0]
            let created = try await server.graphql(SessionTests.create, SessionTests.input(in: 48), token: ana.token)
            #expect(created["errors"].isNull, "\(created)")
            #expect(try await jobs(server) == 0)
        }
    }

    private func jobs(_ server: TestServer) async throws -> Int {
        try await server.sql("SELECT count(*)::int FROM scheduled_jobs WHERE kind = $1", [Self.kind])[0].decode(Int.self, at: 0)
    }
}
