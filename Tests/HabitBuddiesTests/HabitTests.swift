import Foundation
import HabitBuddies
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Habits and check-ins: at most three active, days in the user's time
/// zone and never in the future, streaks, completion, the calendar,
/// milestones and the dashboard.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct HabitTests {
    typealias F = HabitBuddiesFixtures

    @Test func atMostThreeActiveHabitsWithTheFourthRefusedAndNothingWritten() async throws {
        try await TestServer.with(mounting: [HabitBuddies.self]) { server in
            let user = try await server.makeUsers(1, prefix: "habit")[0]
            // A time zone the tz database does not know, and none at all, make nothing.
            for zone in ["Mars/Olympus_Mons", "CEST"] {
                let reply = try await server.graphql(
                    F.addHabit, ["input": ["catalogueHabitId": try await F.catalogue(server, "Read 20 pages"), "timeZone": zone]],
                    token: user.token)
                #expect(reply["errors"][0]["extensions"]["code"].string == "BAD_USER_INPUT", "\(reply)")
            }
            let none = try await server.graphql(
                F.addHabit, ["input": ["catalogueHabitId": try await F.catalogue(server, "Read 20 pages")]], token: user.token)
            #expect(none["errors"][0]["message"].string?.contains("time zone") == true, "\(none)")
            #expect(try await server.sql("SELECT count(*)::int FROM habit_profiles")[0].decode(Int.self, at: 0) == 0)

            let first = try await F.habit(server, token: user.token, "Read 20 pages")
            _ = try await F.habit(server, token: user.token, "Meditate for 10 minutes")
            let own = try await server.graphql(
                F.addHabit, ["input": ["customName": "  Learn to juggle "]], token: user.token)
            #expect(own["data"]["addHabit"]["name"].string == "Learn to juggle", "\(own)")
            let fourth = try await server.graphql(
                F.addHabit, ["input": ["catalogueHabitId": try await F.catalogue(server, "Cook at home")]], token: user.token)
            #expect(fourth["errors"][0]["extensions"]["code"].string == "BAD_USER_INPUT", "\(fourth)")
            #expect(fourth["errors"][0]["message"].string?.contains("at most 3") == true)
            let twice = try await server.graphql(
                F.addHabit, ["input": ["customName": "learn to JUGGLE"]], token: user.token)
            #expect(twice["errors"][0]["message"].string == "You are already forming this habit.", "\(twice)")
            #expect(try await server.sql("SELECT count(*)::int FROM habits")[0].decode(Int.self, at: 0) == 3)
            // The database holds the rule even without the resolver.
            await #expect(throws: (any Error).self) {
                try await server.sql("INSERT INTO habits (user_id, catalogue_id, started_on) SELECT id, 18, current_date FROM users")
            }
            // Pausing one makes room; resuming it with three active again is refused.
            let paused = try await server.graphql(
                "mutation($id: ID!) { setHabitStatus(id: $id, status: PAUSED) { status } }", ["id": first], token: user.token)
            #expect(paused["data"]["setHabitStatus"]["status"].string == "PAUSED", "\(paused)")
            _ = try await F.habit(server, token: user.token, "Cook at home")
            let resumed = try await server.graphql(
                "mutation($id: ID!) { setHabitStatus(id: $id, status: ACTIVE) { status } }", ["id": first], token: user.token)
            #expect(resumed["errors"][0]["extensions"]["code"].string == "BAD_USER_INPUT", "\(resumed)")
            // Somebody else's habit is not found.
            let stranger = try await server.makeUsers(1, prefix: "stranger")[0]
            let foreign = try await server.graphql(
                "mutation($id: ID!) { setHabitStatus(id: $id, status: ARCHIVED) { status } }", ["id": first], token: stranger.token)
            #expect(foreign["errors"][0]["extensions"]["code"].string == "NOT_FOUND", "\(foreign)")
        }
    }

    @Test func checkInsMakeStreaksCompletionACalendarAndAMilestoneButNeverInTheFuture() async throws {
        try await TestServer.with(mounting: [HabitBuddies.self]) { server in
            let user = try await server.makeUsers(1, prefix: "streak")[0]
            // Kiritimati is UTC+14: its today is often UTC's tomorrow, and still not the future.
            let zone = "Pacific/Kiritimati"
            let today = try await server.sql("SELECT ((now() AT TIME ZONE $1)::date)::text", [zone])[0].decode(String.self, at: 0)
            let start = try await server.sql("SELECT (($1::date) - 9)::text", [today])[0].decode(String.self, at: 0)
            let habit = try await F.habit(server, token: user.token, "Walk 10,000 steps", timeZone: zone, startedOn: start)
            var last: JSON = .null
            for back in [9, 8, 7, 6, 5, 4, 2, 1, 0] {
                let date = try await server.sql("SELECT (($1::date) - $2::int)::text", [today, back])[0].decode(String.self, at: 0)
                last = try await server.graphql(F.checkIn, ["id": habit, "date": date], token: user.token)
                #expect(last["errors"].isNull, "\(last)")
            }
            #expect(last["data"]["checkIn"]["currentStreak"].int == 3, "\(last)")
            #expect(last["data"]["checkIn"]["longestStreak"].int == 6)
            #expect(last["data"]["checkIn"]["checkedInToday"].bool == true)
            // Again is the same; the future and before the start are refused, with nothing written.
            let again = try await server.graphql(F.checkIn, ["id": habit], token: user.token)
            #expect(again["data"]["checkIn"]["currentStreak"].int == 3, "\(again)")
            let tomorrow = try await server.sql("SELECT (($1::date) + 1)::text", [today])[0].decode(String.self, at: 0)
            let future = try await server.graphql(F.checkIn, ["id": habit, "date": tomorrow], token: user.token)
            #expect(future["errors"][0]["message"].string == "A check-in cannot be in the future.", "\(future)")
            let early = try await server.graphql(F.checkIn, ["id": habit, "date": "2020-01-01"], token: user.token)
            #expect(early["errors"][0]["extensions"]["code"].string == "BAD_USER_INPUT", "\(early)")
            #expect(try await server.sql("SELECT count(*)::int FROM habit_check_ins")[0].decode(Int.self, at: 0) == 9)
            // Six days in a row reached no milestone; filling the gap makes ten, and the 7-day one, once.
            let gap = try await server.sql("SELECT (($1::date) - 3)::text", [today])[0].decode(String.self, at: 0)
            let filled = try await server.graphql(F.checkIn, ["id": habit, "date": gap], token: user.token)
            #expect(filled["data"]["checkIn"]["currentStreak"].int == 10, "\(filled)")
            _ = try await server.graphql(
                "mutation($id: ID!, $d: Date) { undoCheckIn(habitId: $id, date: $d) { id } }", ["id": habit, "d": gap], token: user.token)
            _ = try await server.graphql(F.checkIn, ["id": habit, "date": gap], token: user.token)
            let notices = try await server.graphql(
                "{ notifications { edges { node { kind message habit { name } } } } }", token: user.token)
            let milestones = notices["data"]["notifications"]["edges"].array.filter { $0["node"]["kind"].string == "HABIT_MILESTONE" }
            #expect(milestones.count == 1, "\(notices)")
            #expect(milestones.first?["node"]["habit"]["name"].string == "Walk 10,000 steps")

            let progress = try await server.graphql(
                """
                query($id: ID!, $from: Date!, $to: Date!) { node(id: $id) { ... on Habit {
                  currentStreak checkInCount lastCheckIn milestones { days reachedOn }
                  all: completionRate(from: $from, to: $to) whole: completionRate(from: "2020-01-01")
                  calendar(month: $to) { date done isFuture isBeforeStart }
                } } }
                """, ["id": habit, "from": start, "to": today], token: user.token)
            let node = progress["data"]["node"]
            #expect(node["checkInCount"].int == 10, "\(progress)")
            #expect(node["lastCheckIn"].string == today)
            #expect(node["milestones"].array.map { $0["days"].int } == [7])
            // The run from nine days ago was seven days long on the gap's day, which was filled last.
            #expect(node["milestones"][0]["reachedOn"].string == gap, "\(progress)")
            #expect(node["all"].double == 1.0)
            #expect(node["whole"].double == 1.0)
            let days = node["calendar"].array
            #expect(days.count >= 28 && days.count <= 31)
            #expect(days.first { $0["date"].string == today }?["done"].bool == true)
            #expect(days.filter { $0["isFuture"].bool == true }.allSatisfy { $0["done"].bool == false })
        }
    }

    /// A milestone is dated by the day its streak reached it, not by the
    /// day the check-in that found it was made.
    @Test func aMilestoneIsReachedOnTheDayItsStreakGotThatLong() async throws {
        try await TestServer.with(mounting: [HabitBuddies.self]) { server in
            let user = try await server.makeUsers(1, prefix: "late")[0]
            let zone = "Europe/Berlin"
            // Today read once, so a midnight during the test moves nothing.
            let today = try await server.sql("SELECT ((now() AT TIME ZONE $1)::date)::text", [zone])[0].decode(String.self, at: 0)
            func day(_ back: Int) async throws -> String {
                try await server.sql("SELECT ($1::date - $2::int)::text", [today, back])[0].decode(String.self, at: 0)
            }
            let habit = try await F.habit(server, token: user.token, "Read 20 pages", timeZone: zone, startedOn: try await day(10))
            // Seven days, from a week ago to yesterday, all checked in today.
            for back in (1...7).reversed() {
                let answer = try await server.graphql(F.checkIn, ["id": habit, "date": try await day(back)], token: user.token)
                #expect(answer["errors"].isNull, "\(answer)")
            }
            let read = try await server.graphql(
                "query($id: ID!) { node(id: $id) { ... on Habit { milestones { days reachedOn } } } }", ["id": habit], token: user.token)
            #expect(read["data"]["node"]["milestones"].array.map { $0["days"].int } == [7], "\(read)")
            #expect(read["data"]["node"]["milestones"][0]["reachedOn"].string == (try await day(1)), "\(read)")
        }
    }

    @Test func theDashboardInOneRequestWithAConstantNumberOfStatements() async throws {
        try await TestServer.with(mounting: [HabitBuddies.self]) { server in
            let users = try await server.makeUsers(4, prefix: "dash")
            let dashboard = """
                { habitDashboard {
                    profile { timeZone today buddyCount maxBuddies }
                    habits { name currentStreak longestStreak completionRate calendar { date done } }
                    buddies { user { username } habits { name currentStreak checkedInToday } }
                    nextMeeting { startsAt buddy { username } }
                } }
                """
            var counts: [Int] = []
            for user in users { _ = try await F.habit(server, token: user.token, "Read 20 pages") }
            for (buddies, newBuddies) in [(1, users[1...1]), (3, users[2...3])] {
                for other in newBuddies { try await F.pair(server, users[0], other) }
                for user in users { try await F.checkInToday(server, token: user.token) }
                let before = try await server.statementCount()
                let reply = try await server.graphql(dashboard, token: users[0].token)
                counts.append(try await server.statementCount() - before)
                #expect(reply["errors"].isNull, "\(reply)")
                #expect(reply["data"]["habitDashboard"]["buddies"].array.count == buddies, "\(reply)")
                #expect(reply["data"]["habitDashboard"]["profile"]["maxBuddies"].int == 3)
            }
            #expect(counts[0] == counts[1], "\(counts)")
        }
    }
}

/// The profile: a time zone from the tz database, and reminders that follow it.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct HabitProfileTests {
    typealias F = HabitBuddiesFixtures

    @Test func aNewTimeZoneMovesTheRemindersAndAnUnknownOneChangesNothing() async throws {
        try await TestServer.with(mounting: [HabitBuddies.self]) { server in
            let user = try await server.makeUsers(1, prefix: "zone")[0]
            let update = "mutation($input: HabitProfileInput!) { updateHabitProfile(input: $input) { timeZone lookingForBuddies } }"
            let first = try await server.graphql(update, ["input": ["lookingForBuddies": false]], token: user.token)
            #expect(first["errors"][0]["extensions"]["code"].string == "BAD_USER_INPUT", "\(first)")
            let habit = try await F.habit(server, token: user.token, "Stretch or do yoga", timeZone: "Asia/Tokyo")
            _ = try await server.graphql(
                "mutation($id: ID!) { updateHabit(id: $id, input: { reminderTime: \"07:30\" }) { id } }", ["id": habit], token: user.token)
            let unknown = try await server.graphql(update, ["input": ["timeZone": "Asia/Atlantis"]], token: user.token)
            #expect(unknown["errors"][0]["extensions"]["code"].string == "BAD_USER_INPUT", "\(unknown)")
            let moved = try await server.graphql(update, ["input": ["timeZone": "America/Chicago"]], token: user.token)
            #expect(moved["data"]["updateHabitProfile"]["timeZone"].string == "America/Chicago", "\(moved)")
            #expect(moved["data"]["updateHabitProfile"]["lookingForBuddies"].bool == true)
            let local = try await server.sql(
                "SELECT to_char(due_at AT TIME ZONE 'America/Chicago', 'HH24:MI') FROM scheduled_jobs WHERE kind = 'habits.reminder'")
            #expect(try local.map { try $0.decode(String.self, at: 0) } == ["07:30"])
        }
    }
}
