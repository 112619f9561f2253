import Foundation
import HabitBuddies
import PostgresTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// A habit's reminder goes out as a push at its time (the APNs stand-in
/// checks the provider token and headers), unless the user's quiet hours
/// would hold it until it is stale: then it stays in the inbox only.
@Suite(.enabled(if: TestDatabase.available), .hangGuard, .serialized)
struct ReminderPushTests {
    typealias F = HabitBuddiesFixtures

    /// A habit reminding `user` at 07:30 in Tokyo, its job made due now as
    /// if it were 07:30 there; waits until it has run.
    static func remindNow(_ server: TestServer, token: String) async throws {
        let habit = try await F.habit(server, token: token, "Stretch or do yoga", timeZone: "Asia/Tokyo")
        _ = try await server.graphql(
            "mutation($id: ID!) { updateHabit(id: $id, input: { reminderTime: \"07:30\" }) { id } }", ["id": habit], token: token)
        let id = Int64(rowID(habit))!
        _ = try await server.sql(
            "UPDATE scheduled_jobs SET due_at = clock_timestamp() WHERE kind = 'habits.reminder' AND subject_id = $1", [id])
        _ = try await server.sql("SELECT pg_notify('huddle_scheduler', '0')")
        for _ in 0..<200 {
            if try await server.sql("SELECT last_reminded_on IS NOT NULL FROM habits WHERE id = $1", [id])[0].decode(Bool.self, at: 0) {
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the reminder did not run")
    }

    static func registerPhone(_ server: TestServer, token: String, device: String) async throws {
        let reply = try await server.graphql(
            registerPushEndpoint, ["input": ["apns": ["token": device, "topic": "com.example.habits", "environment": "PRODUCTION"]]],
            token: token)
        #expect(reply.errorCode == nil, "\(reply)")
    }

    @Test func theReminderIsPushedAtItsTimeAndDroppedWhenQuietHoursOutlastIt() async throws {
        let services = try PushServices()
        try await TestServer.with(mounting: [HabitBuddies.self], pushing(to: services)) { server in
            let users = try await server.makeUsers(2, prefix: "habit")
            let phone = String(repeating: "a1", count: 32)
            try await Self.registerPhone(server, token: users[0].token, device: phone)
            try await Self.remindNow(server, token: users[0].token)
            let pushed = try #require(try await services.waitFor(1, of: "apns").first)
            #expect(pushed["token"] as? String == phone && pushed["providerToken"] as? Bool == true, "\(pushed)")
            #expect(pushed["priority"] as? String == "10", "a reminder is urgent: \(pushed)")
            let alert = ((pushed["payload"] as? [String: Any])?["aps"] as? [String: Any])?["alert"] as? [String: Any]
            #expect(alert?["title"] as? String == "Habit Buddies: time for your habit", "\(pushed)")
            #expect(alert?["body"] as? String == "Time for \"Stretch or do yoga\": tap today when it is done.")
            // Good for an hour: APNs drops it after that if the phone was away.
            let expiration = Double(pushed["expiration"] as? String ?? "") ?? 0
            #expect(abs(expiration - Date().addingTimeInterval(3600).timeIntervalSince1970) < 120, "\(pushed)")

            // Quiet for three hours from now: by then the reminder is stale.
            let hours = try await server.sql(
                "SELECT to_char(now() AT TIME ZONE 'Asia/Tokyo', 'HH24:MI'), to_char((now() AT TIME ZONE 'Asia/Tokyo') + interval '3 hours', 'HH24:MI')"
            )
            let quiet = try await server.graphql(
                "mutation($i: QuietHoursInput) { setQuietHours(input: $i) { starts } }",
                [
                    "i": [
                        "starts": try hours[0].decode(String.self, at: 0), "ends": try hours[0].decode(String.self, at: 1),
                        "timeZone": "Asia/Tokyo",
                    ]
                ],
                token: users[1].token)
            #expect(quiet.errorCode == nil, "\(quiet)")
            try await Self.registerPhone(server, token: users[1].token, device: String(repeating: "b2", count: 32))
            try await Self.remindNow(server, token: users[1].token)
            var state = ""
            for _ in 0..<200 {
                state =
                    try await server.sql(
                        "SELECT state FROM notice_deliveries d JOIN notifications n ON n.id = d.notification_id WHERE n.user_id = $1 AND d.channel = 'APNS'",
                        [Int64(rowID(users[1].id))!]
                    ).first?.decode(String.self, at: 0) ?? ""
                if state == "dropped" { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(state == "dropped")
            #expect(try services.received().filter { $0["service"] as? String == "apns" }.count == 1)
            let inbox = try await server.graphql(
                "{ notifications(first: 1) { edges { node { kind deliveredTo } } } }", token: users[1].token)
            #expect(inbox["data"]["notifications"]["edges"][0]["node"]["kind"].string == "HABIT_REMINDER", "\(inbox)")
            #expect(inbox["data"]["notifications"]["edges"][0]["node"]["deliveredTo"].array.compactMap(\.string) == ["WEBHOOK"], "\(inbox)")
        }
    }
}
