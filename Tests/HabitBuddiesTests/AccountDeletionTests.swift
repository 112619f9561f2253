import Foundation
import HabitBuddies
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Deleting an account in Habit Buddies: each pair ends, the buddy is
/// told, and their meetings still to come are cancelled.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct AccountDeletionTests {
    typealias F = HabitBuddiesFixtures

    @Test func pairsEndWithTheBuddyToldAndMeetingsCancelled() async throws {
        try await TestServer.with(mounting: [HabitBuddies.self]) { server in
            let ana = try await server.signUp("ana")
            let bob = try await server.signUp("bob")
            for user in [ana, bob] { _ = try await F.habit(server, token: user.token, "Plan tomorrow tonight", timeZone: "Europe/Berlin") }
            try await F.pair(server, ana, bob)
            let made = try await server.graphql(
                F.schedule, ["input": ["buddyId": bob.id, "date": F.day(3), "time": "08:00", "timeZone": "Europe/Berlin"]], token: ana.token
            )
            #expect(made["data"]["scheduleMeeting"]["status"].string == "PROPOSED", "\(made)")

            let deleted = try await server.graphql("mutation { deleteAccount(password: \"correct horse battery\") }", token: ana.token)
            #expect(deleted["data"]["deleteAccount"].bool == true, "\(deleted)")
            let inbox = try await server.graphql("{ notifications { edges { node { kind message } } } }", token: bob.token)
            let kinds = inbox["data"]["notifications"]["edges"].array.map { $0["node"]["kind"].string ?? "" }
            #expect(kinds.contains("BUDDY_LEFT") && kinds.contains("MEETING_CANCELLED"), "\(inbox)")
            let cancelled = inbox["data"]["notifications"]["edges"].array.first { $0["node"]["kind"].string == "MEETING_CANCELLED" }
            #expect(cancelled?["node"]["message"].string == "A meeting was cancelled: your buddy left Habit Buddies.")
            #expect(try await server.sql("SELECT count(*)::int FROM buddy_pairs")[0].decode(Int.self, at: 0) == 0)
            #expect(try await server.sql("SELECT count(*)::int FROM meeting_attendance")[0].decode(Int.self, at: 0) == 0)
            #expect(try await server.sql("SELECT count(*)::int FROM habits")[0].decode(Int.self, at: 0) == 1)
        }
    }
}
