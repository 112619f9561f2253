import Foundation
import HabitBuddies
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Meetings between buddies: at most 30 minutes, never two at once for one
/// person, answered by the one asked, cancelled by either, an .ics each,
/// and their reminders; the daily reminder's time across DST changes.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct MeetingTests {
    typealias F = HabitBuddiesFixtures

    @Test func scheduleAnswerCancelWithTheRulesOnLengthOverlapAndWhoMayChangeIt() async throws {
        try await TestServer.with(mounting: [HabitBuddies.self]) { server in
            let users = try await server.makeUsers(3, prefix: "meet")
            let (me, buddy, stranger) = (users[0], users[1], users[2])
            for user in users { _ = try await F.habit(server, token: user.token, "Plan tomorrow tonight", timeZone: "Europe/Berlin") }
            try await F.pair(server, me, buddy)
            let date = F.day(3)
            let input: [String: any Sendable] = ["buddyId": buddy.id, "date": date, "time": "08:00", "timeZone": "Europe/Berlin"]
            // 45 minutes, a stranger, a time in the past: refused, nothing written.
            let long = try await server.graphql(F.schedule, ["input": input.merging(["durationMinutes": 45]) { $1 }], token: me.token)
            #expect(long["errors"][0]["extensions"]["code"].string == "BAD_USER_INPUT", "\(long)")
            let notBuddy = try await server.graphql(F.schedule, ["input": input.merging(["buddyId": stranger.id]) { $1 }], token: me.token)
            #expect(notBuddy["errors"][0]["extensions"]["code"].string == "FORBIDDEN", "\(notBuddy)")
            let past = try await server.graphql(F.schedule, ["input": input.merging(["date": F.day(-3)]) { $1 }], token: me.token)
            #expect(past["errors"][0]["message"].string == "A meeting has to start in the future.", "\(past)")
            let zone = try await server.graphql(
                F.schedule, ["input": input.merging(["timeZone": "Europe/Atlantis"]) { $1 }], token: me.token)
            #expect(zone["errors"][0]["extensions"]["code"].string == "BAD_USER_INPUT", "\(zone)")
            #expect(try await server.sql("SELECT count(*)::int FROM buddy_meetings")[0].decode(Int.self, at: 0) == 0)

            let made = try await server.graphql(F.schedule, ["input": input], token: me.token)
            let meeting = made["data"]["scheduleMeeting"]
            #expect(meeting["status"].string == "PROPOSED", "\(made)")
            #expect(meeting["localStart"].string == "\(date)T08:00" && meeting["durationMinutes"].int == 30)
            #expect(meeting["checklist"].array.count == 5)
            let id = meeting["id"].string ?? ""
            // Overlapping for either person: refused by the exclusion constraint.
            let overlap = try await server.graphql(
                F.schedule, ["input": input.merging(["buddyId": me.id, "time": "08:20", "durationMinutes": 10]) { $1 }], token: buddy.token)
            #expect(overlap["errors"][0]["message"].string == "One of you already has a meeting at that time.", "\(overlap)")
            let adjacent = try await server.graphql(
                F.schedule, ["input": input.merging(["buddyId": me.id, "time": "08:30"]) { $1 }], token: buddy.token)
            #expect(adjacent["errors"].isNull, "\(adjacent)")

            // Only the one asked answers; a stranger does not even see it.
            let own = try await server.graphql(
                "mutation($id: ID!) { respondToMeeting(id: $id, accept: true) { status } }", ["id": id], token: me.token)
            #expect(own["errors"][0]["extensions"]["code"].string == "FORBIDDEN", "\(own)")
            let foreign = try await server.graphql(
                "mutation($id: ID!) { cancelMeeting(id: $id) { status } }", ["id": id], token: stranger.token)
            #expect(foreign["errors"][0]["extensions"]["code"].string == "NOT_FOUND", "\(foreign)")
            let accepted = try await server.graphql(
                "mutation($id: ID!) { respondToMeeting(id: $id, accept: true) { status ics } }", ["id": id], token: buddy.token)
            #expect(accepted["data"]["respondToMeeting"]["status"].string == "ACCEPTED", "\(accepted)")
            let ics = accepted["data"]["respondToMeeting"]["ics"].string ?? ""
            #expect(
                ics.hasPrefix("BEGIN:VCALENDAR\r\n") && ics.contains("STATUS:CONFIRMED\r\n") && ics.hasSuffix("END:VCALENDAR\r\n"), "\(ics)"
            )
            #expect(ics.contains("SUMMARY:Habit Buddies check-in: meet0 and meet1\r\n"))
            #expect(ics.split(separator: "\r\n").allSatisfy { $0.utf8.count <= 75 })
            let reminder = try await server.sql("SELECT count(*)::int FROM scheduled_jobs WHERE kind = 'habits.meeting-reminder'")
            #expect(try reminder[0].decode(Int.self, at: 0) == 1)
            // The checklist opens shortly before the start.
            let early = try await server.graphql(
                "mutation($id: ID!) { setChecklistItem(meetingId: $id, position: 1, checked: true) { checked } }", ["id": id],
                token: me.token)
            #expect(early["errors"][0]["extensions"]["code"].string == "BAD_USER_INPUT", "\(early)")
            let score = try await server.graphql(
                "mutation($id: ID!) { scoreBuddy(meetingId: $id, score: 4) { score } }", ["id": id], token: me.token)
            #expect(score["errors"][0]["extensions"]["code"].string == "BAD_USER_INPUT", "\(score)")

            let upcoming = try await server.graphql(
                "{ meetings { edges { node { localStart status buddy { username } } } } }", token: me.token)
            #expect(
                upcoming["data"]["meetings"]["edges"].array.map { $0["node"]["localStart"].string } == ["\(date)T08:00", "\(date)T08:30"],
                "\(upcoming)")
            let cancelled = try await server.graphql(
                "mutation($id: ID!) { cancelMeeting(id: $id) { status } }", ["id": id], token: me.token)
            #expect(cancelled["data"]["cancelMeeting"]["status"].string == "CANCELLED", "\(cancelled)")
            #expect(
                try await server.sql("SELECT count(*)::int FROM scheduled_jobs WHERE kind = 'habits.meeting-reminder'")[0].decode(
                    Int.self, at: 0) == 0)
            // Its time is free again.
            let freed = try await server.graphql(
                F.schedule, ["input": input.merging(["time": "08:10", "durationMinutes": 15]) { $1 }], token: me.token)
            #expect(freed["errors"].isNull, "\(freed)")
            let kinds = try await server.graphql("{ notifications { edges { node { kind meeting { id } } } } }", token: buddy.token)
            #expect(
                kinds["data"]["notifications"]["edges"].array.compactMap { $0["node"]["kind"].string }.filter { $0.hasPrefix("MEETING") }
                    == ["MEETING_SCHEDULED", "MEETING_CANCELLED", "MEETING_SCHEDULED"], "\(kinds)")
        }
    }

    /// The daily reminder at 08:00 Europe/Berlin is 08:00 local on both
    /// sides of each DST change (07:00 UTC in winter, 06:00 in summer), as
    /// the database computes it for the scheduler; a time the spring change
    /// skips comes an hour later, once.
    @Test func aReminderAtEightBerlinIsEightLocalAcrossTheChanges() async throws {
        try await TestServer.with(mounting: [HabitBuddies.self]) { server in
            func due(_ time: String, after: String) async throws -> String {
                try await server.sql(
                    "SELECT to_char(habit_reminder_due('Europe/Berlin', $1::time, $2::timestamptz) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI')",
                    [time, after])[0].decode(String.self, at: 0)
            }
            #expect(try await due("08:00", after: "2026-03-28T07:30:00Z") == "2026-03-29 06:00")
            #expect(try await due("08:00", after: "2026-03-28T06:30:00Z") == "2026-03-28 07:00")
            #expect(try await due("08:00", after: "2026-03-29T06:00:00Z") == "2026-03-30 06:00")
            #expect(try await due("08:00", after: "2026-10-24T06:30:00Z") == "2026-10-25 07:00")
            #expect(try await due("02:30", after: "2026-03-28T12:00:00Z") == "2026-03-29 01:30")

            // A habit's reminder is scheduled for its owner's 08:00, and moved when the time changes.
            let user = try await server.makeUsers(1, prefix: "remind")[0]
            let habit = try await F.habit(server, token: user.token, "Drink 2 litres of water", timeZone: "Europe/Berlin")
            let set = try await server.graphql(
                "mutation($id: ID!) { updateHabit(id: $id, input: { reminderTime: \"08:00\" }) { reminderTime } }", ["id": habit],
                token: user.token)
            #expect(set["data"]["updateHabit"]["reminderTime"].string == "08:00", "\(set)")
            let local = try await server.sql(
                "SELECT to_char(due_at AT TIME ZONE 'Europe/Berlin', 'HH24:MI') FROM scheduled_jobs WHERE kind = 'habits.reminder'")
            #expect(try local.map { try $0.decode(String.self, at: 0) } == ["08:00"])
            let bad = try await server.graphql(
                "mutation($id: ID!) { updateHabit(id: $id, input: { reminderTime: \"25:00\" }) { reminderTime } }", ["id": habit],
                token: user.token)
            #expect(bad["errors"][0]["extensions"]["code"].string == "BAD_USER_INPUT", "\(bad)")
            // Due now: the scheduler reminds once, and it is due again at tomorrow's 08:00.
            _ = try await server.sql("UPDATE scheduled_jobs SET due_at = clock_timestamp() WHERE kind = 'habits.reminder'")
            _ = try await server.sql("SELECT pg_notify('huddle_scheduler', '0')")
            var reminded = 0
            for _ in 0..<100 {
                reminded = try await server.sql("SELECT count(*)::int FROM notifications WHERE kind = 'HABIT_REMINDER'")[0].decode(
                    Int.self, at: 0)
                if reminded > 0 { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(reminded == 1)
            let next = try await server.sql(
                "SELECT to_char(due_at AT TIME ZONE 'Europe/Berlin', 'HH24:MI'), due_at > now() FROM scheduled_jobs WHERE kind = 'habits.reminder'"
            )
            #expect(try next.first?.decode(String.self, at: 0) == "08:00")
            #expect(try next.first?.decode(Bool.self, at: 1) == true)
        }
    }
}
