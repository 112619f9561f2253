import Foundation
import HabitBuddies
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Python's `gql`, as the Habit Buddies app: a habit from the catalogue, a
/// check-in, a buddy found and paired over HTTP, then `meetingUpdated` over
/// graphql-transport-ws and graphql-ws at once while the buddy proposes a meeting.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct HabitBuddiesPythonClientTests {
    typealias F = HabitBuddiesFixtures

    @Test func gqlFindsABuddyAndHearsOfTheirMeetingOverBothSubprotocols() async throws {
        try await TestServer.with(mounting: [HabitBuddies.self]) { server in
            let users = try await server.makeUsers(2, prefix: "pyhb")
            let (app, buddy) = (users[0], users[1])
            let profile = try await server.graphql(
                #"mutation { updateHabitProfile(input: { timeZone: "America/New_York" }) { timeZone } }"#, token: app.token)
            #expect(profile["errors"].isNull, "\(profile)")
            // The buddy-to-be has swiped right already: the app's right swipe makes the pair.
            _ = try await F.habit(server, token: buddy.token, "Read 20 pages", timeZone: "Europe/London")
            let swiped = try await server.graphql(F.swipe, ["id": app.id, "direction": "RIGHT"], token: buddy.token)
            #expect(swiped["errors"].isNull, "\(swiped)")

            let client = try ClientProcess.python("habitbuddies_client.py", ["\(server.port)", app.token])
            try await waitForSubscriptions(2, server: server)
            let date = F.day(2)
            let proposed = try await server.graphql(
                F.schedule, ["input": ["buddyId": app.id, "date": date, "time": "19:30", "timeZone": "Europe/London"]],
                token: buddy.token)
            #expect(proposed["errors"].isNull, "\(proposed)")
            let outcome = try await client.finished()
            #expect(outcome.status == 0, "\(outcome.errors)")
            let update = "MEETING_SCHEDULED PROPOSED by pyhb1 at \(date)T19:30"
            #expect(
                outcome.output == """
                    catalogue 20 habits; Read 20 pages LEARNING
                    added Read 20 pages ACTIVE
                    checked in, streak 1 today True
                    candidate pyhb1 shares Read 20 pages in Europe/London
                    buddy pyhb1
                    dashboard America/New_York 1 buddy; Read 20 pages 1
                    graphql-transport-ws \(update)
                    graphql-ws \(update)

                    """)
        }
    }
}
