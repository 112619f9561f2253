import Foundation
import GraphQL
import HabitBuddies
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Habit Buddies live, across two server processes on one database: a pair
/// made through one reaches both people subscribed to `buddyMatched` on the
/// other (over graphql-transport-ws and the legacy graphql-ws), meetings
/// reach `meetingUpdated`, a meeting's reminder arrives through
/// `notificationReceived`, and what a subscriber missed comes first with `after`.
@Suite(.enabled(if: TestDatabase.available), .serialized, .hangGuard)
struct HabitBuddiesLiveTests {
    typealias F = HabitBuddiesFixtures

    /// The next data message of a subscription, past graphql-ws's keep-alives.
    static func event(_ client: WebSocketClient) throws -> JSON {
        var text = client.next()?.text
        while text == #"{"type":"ka"}"# { text = client.next()?.text }
        return JSON(try JSONReader().read(try #require(text)))
    }

    @Test func pairsAndMeetingsMadeThroughOneServerReachSubscribersOfTheOther() async throws {
        try await TestServer.withTwo(mounting: [HabitBuddies.self]) { first, second in
            let users = try await first.makeUsers(2, prefix: "live")
            let (ana, bob) = (users[0], users[1])
            for user in users { _ = try await F.habit(first, token: user.token, "Meditate for 10 minutes", timeZone: "Europe/Berlin") }

            // Both listen on the second server, Ana over graphql-transport-ws, Bob over graphql-ws.
            let anaClient = try subscriber(port: second.port, token: ana.token)
            anaClient.send(
                #"{"id":"1","type":"subscribe","payload":{"query":"subscription { buddyMatched { buddy { user { username } habits { name } } notification { id kind } } }"}}"#
            )
            let bobClient = try subscriber(port: second.port, token: bob.token, subprotocol: "graphql-ws")
            bobClient.send(
                #"{"id":"7","type":"start","payload":{"query":"subscription { buddyMatched { buddy { user { username } } } }"}}"#)
            try await waitForSubscriptions(2, server: second)
            try await F.pair(first, ana, bob)
            let anaMatch = try Self.event(anaClient)
            #expect(anaMatch["id"].string == "1" && anaMatch["type"].string == "next", "\(anaMatch)")
            let match = anaMatch["payload"]["data"]["buddyMatched"]
            #expect(match["buddy"]["user"]["username"].string == "live1", "\(anaMatch)")
            #expect(match["buddy"]["habits"][0]["name"].string == "Meditate for 10 minutes")
            #expect(match["notification"]["kind"].string == "BUDDY_MATCHED")
            let bobMatch = try Self.event(bobClient)
            #expect(bobMatch["type"].string == "data" && bobMatch["id"].string == "7", "\(bobMatch)")
            #expect(bobMatch["payload"]["data"]["buddyMatched"]["buddy"]["user"]["username"].string == "live0", "\(bobMatch)")

            // Meetings: Bob hears of Ana's proposal, Ana of his answer; both through the first server.
            bobClient.send(
                #"{"id":"8","type":"start","payload":{"query":"subscription { meetingUpdated { kind meeting { status organizer { username } } notification { id } } }"}}"#
            )
            anaClient.send(
                #"{"id":"2","type":"subscribe","payload":{"query":"subscription { meetingUpdated { kind meeting { id status } notification { id } } }"}}"#
            )
            anaClient.send(
                #"{"id":"3","type":"subscribe","payload":{"query":"subscription { notificationReceived { kind message meeting { status } } }"}}"#
            )
            try await waitForSubscriptions(5, server: second)
            let input: [String: any Sendable] = ["buddyId": bob.id, "date": F.day(2), "time": "18:00", "timeZone": "Europe/Berlin"]
            let made = try await first.graphql(F.schedule, ["input": input], token: ana.token)
            let meeting = try #require(made["data"]["scheduleMeeting"]["id"].string, "\(made)")
            let proposed = try Self.event(bobClient)["payload"]["data"]["meetingUpdated"]
            #expect(proposed["kind"].string == "MEETING_SCHEDULED", "\(proposed)")
            #expect(proposed["meeting"]["status"].string == "PROPOSED" && proposed["meeting"]["organizer"]["username"].string == "live0")
            let accepted = try await first.graphql(
                "mutation($id: ID!) { respondToMeeting(id: $id, accept: true) { status } }", ["id": meeting], token: bob.token)
            #expect(accepted["errors"].isNull, "\(accepted)")
            // Ana's two subscriptions each get the acceptance, in either order.
            var answers: [String: JSON] = [:]
            for _ in 0..<2 {
                let message = try Self.event(anaClient)
                answers[message["id"].string ?? ""] = message["payload"]["data"]
            }
            #expect(answers["2"]?["meetingUpdated"]["kind"].string == "MEETING_ACCEPTED", "\(answers)")
            #expect(answers["2"]?["meetingUpdated"]["meeting"]["status"].string == "ACCEPTED")
            #expect(answers["3"]?["notificationReceived"]["kind"].string == "MEETING_ACCEPTED", "\(answers)")
            let acceptedNotice = try #require(answers["2"]?["meetingUpdated"]["notification"]["id"].string)

            // The meeting's reminder, fired by the scheduler of either process, arrives live.
            _ = try await first.sql("UPDATE scheduled_jobs SET due_at = clock_timestamp() WHERE kind = 'habits.meeting-reminder'")
            _ = try await first.sql("SELECT pg_notify('huddle_scheduler', '0')")
            let reminder = try Self.event(anaClient)
            #expect(reminder["id"].string == "3", "\(reminder)")
            #expect(reminder["payload"]["data"]["notificationReceived"]["kind"].string == "MEETING_REMINDER", "\(reminder)")
            #expect(reminder["payload"]["data"]["notificationReceived"]["meeting"]["status"].string == "ACCEPTED")
            // In Ana's zone (her habits', Berlin, as the meeting's), naming Bob.
            let said = reminder["payload"]["data"]["notificationReceived"]["message"].string ?? ""
            #expect(said.hasPrefix("Your check-in with live1 starts ") && said.hasSuffix(" at 18:00."), "\(said)")

            // Ana stops listening; Bob cancels; back on the first server, she catches up from her last notice.
            for id in ["1", "2", "3"] { anaClient.send(#"{"id":"\#(id)","type":"complete"}"#) }
            try await waitForSubscriptions(2, server: second)
            let cancelled = try await second.graphql(
                "mutation($id: ID!) { cancelMeeting(id: $id) { status } }", ["id": meeting], token: bob.token)
            #expect(cancelled["data"]["cancelMeeting"]["status"].string == "CANCELLED", "\(cancelled)")
            let back = try subscriber(port: first.port, token: ana.token)
            back.send(
                #"{"id":"4","type":"subscribe","payload":{"query":"subscription($after: ID) { meetingUpdated(after: $after) { kind meeting { id status } } }","variables":{"after":"\#(acceptedNotice)"}}}"#
            )
            let missed = try Self.event(back)["payload"]["data"]["meetingUpdated"]
            #expect(missed["kind"].string == "MEETING_CANCELLED", "\(missed)")
            #expect(missed["meeting"]["id"].string == meeting && missed["meeting"]["status"].string == "CANCELLED")
            // The reminder is not a meeting update: the catch-up had only the
            // cancellation. An `after` that is no notice's id is refused.
            back.send(
                #"{"id":"5","type":"subscribe","payload":{"query":"subscription($after: ID) { buddyMatched(after: $after) { buddy { since } } }","variables":{"after":"0"}}}"#
            )
            let refused = try Self.event(back)
            #expect(refused["id"].string == "5" && refused["type"].string == "error", "\(refused)")
            #expect(refused["payload"][0]["extensions"]["code"].string == "BAD_USER_INPUT")
        }
    }
}
