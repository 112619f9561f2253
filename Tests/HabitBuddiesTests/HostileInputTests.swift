import Foundation
import HabitBuddies
import HuddleCore
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// What an attacker (or a careless client) sends Habit Buddies, answered
/// with a coded error and nothing written.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct HostileInputTests {
    typealias H = HabitBuddiesFixtures

    /// PostgreSQL's text cannot hold U+0000 and libpq would cut the value
    /// there: a time zone or a habit's name with one is refused.
    @Test func textWithANulCharacterIsRefusedNeverCutShort() async throws {
        try await TestServer.with(mounting: [HabitBuddies.self]) { server in
            let ana = try await server.makeUsers(1, prefix: "nul")[0]
            let zone = try await server.graphql(
                "mutation($z: String) { updateHabitProfile(input: {timeZone: $z}) { timeZone } }", ["z": "UTC\u{0}junk"],
                token: ana.token)
            #expect(zone.errorCode == "BAD_USER_INPUT", "\(zone)")
            #expect(zone.errorMessage == APIError.nulCharacterMessage)
            let custom = try await server.graphql(
                H.addHabit, ["input": ["customName": "Run\u{0}secretly", "timeZone": "UTC"]], token: ana.token)
            #expect(custom.errorCode == "BAD_USER_INPUT", "\(custom)")
            #expect(custom.errorMessage == APIError.nulCharacterMessage)
            #expect(try await server.sql("SELECT count(*)::int FROM habits")[0].decode(Int.self, at: 0) == 0)
        }
    }

    /// Dates PostgreSQL cannot store, or that would come back as text the
    /// server's own scalar refuses, are refused on the way in.
    @Test func datesOutsideWhatIsStoredAreBadUserInput() async throws {
        try await TestServer.with(mounting: [HabitBuddies.self]) { server in
            let users = try await server.makeUsers(2, prefix: "when")
            let (me, buddy) = (users[0], users[1])
            for user in users { _ = try await H.habit(server, token: user.token, "Plan tomorrow tonight", timeZone: "Pacific/Pago_Pago") }
            let habit = try await H.habit(server, token: me.token, "Read 20 pages", timeZone: "Pacific/Pago_Pago")

            let yearZero = try await server.graphql(H.checkIn, ["id": habit, "date": "0000-01-01"], token: me.token)
            #expect(yearZero.errorCode == "BAD_USER_INPUT", "\(yearZero)")
            let literal = try await server.graphql(
                #"query($id: ID!) { node(id: $id) { ... on Habit { calendar(month: "0000-01-01") { date } } } }"#, ["id": habit],
                token: me.token)
            #expect(literal.errorCode == "GRAPHQL_VALIDATION_FAILED", "\(literal)")

            try await H.pair(server, me, buddy)
            let farAway = try await server.graphql(
                H.schedule, ["input": ["buddyId": buddy.id, "date": "9999-12-31", "time": "23:50"]], token: me.token)
            #expect(farAway.errorCode == "BAD_USER_INPUT", "\(farAway)")
            #expect(farAway.errorMessage == "\"input.date\" must be within two years.")
            #expect(try await server.sql("SELECT count(*)::int FROM buddy_meetings")[0].decode(Int.self, at: 0) == 0)
        }
    }
}
