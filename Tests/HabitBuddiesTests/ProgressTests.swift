import Foundation
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

@testable import HabitBuddies

/// A habit's progress as the API works it out: streaks computed in Swift
/// from the habit's days, checked against the database's `habit_streaks`
/// on generated check-ins; and the dashboard's folded statements (habits
/// with completion and milestones, buddies with their habits) answering
/// what the separate loaders answer, in four statements whatever the numbers.
@Suite(.hangGuard)
struct ProgressTests {
    typealias F = HabitBuddiesFixtures

    @Test func streaksFromDays() {
        let empty = HabitProgress(habitID: 1, days: [], today: 100)
        #expect(empty.currentStreak == 0 && empty.longestStreak == 0 && empty.checkInCount == 0 && empty.lastCheckIn == nil)
        // Up to today, up to yesterday (today not yet done), and broken the day before.
        #expect(HabitProgress(habitID: 1, days: [97, 98, 99, 100], today: 100).currentStreak == 4)
        #expect(HabitProgress(habitID: 1, days: [97, 98, 99], today: 100).currentStreak == 3)
        #expect(HabitProgress(habitID: 1, days: [97, 98], today: 100).currentStreak == 0)
        let gaps = HabitProgress(habitID: 1, days: [1, 2, 3, 4, 10, 11, 99, 100], today: 100)
        #expect(gaps.currentStreak == 2 && gaps.longestStreak == 4 && gaps.checkInCount == 8)
    }

    /// The check-ins of a range ending today: days before it and after
    /// today are not counted, nor anything in a range of no days.
    @Test func checkInsOfTheLastDays() {
        let days: [Int64] = [10, 70, 71, 75, 99, 100, 101]
        #expect(HabitProgress.checkIns(in: days, lastDays: 30, through: 100) == 4)
        #expect(HabitProgress.checkIns(in: days, lastDays: 1, through: 100) == 1)
        #expect(HabitProgress.checkIns(in: days, lastDays: 30, through: 98) == 3)
        #expect(HabitProgress.checkIns(in: days, lastDays: 0, through: 100) == 0)
        #expect(HabitProgress.checkIns(in: [], lastDays: 30, through: 100) == 0)
        #expect(HabitProgress.checkIns(in: [101, 102], lastDays: 30, through: 100) == 0)
    }

    /// A habit's last check-in, a day counted from 1970, is written as the calendar's date.
    @Test func theLastCheckInIsTheCalendarsDate() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let epoch = calendar.date(from: DateComponents(year: 1970, month: 1, day: 1))!
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        func lastCheckIn(_ day: Int64) -> String? { HabitProgress(habitID: 1, days: [day], today: day).lastCheckIn }
        // Back to 1973 and on to 2136, through every kind of leap year (2000, 2100).
        for day in stride(from: Int64(958), through: 60_957, by: 7) {
            let expected = formatter.string(from: calendar.date(byAdding: .day, value: Int(day), to: epoch)!)
            #expect(lastCheckIn(day) == expected, "day \(day)")
        }
        #expect(lastCheckIn(11_016) == "2000-02-29" && lastCheckIn(11_017) == "2000-03-01")
        #expect(lastCheckIn(47_540) == "2100-02-28" && lastCheckIn(47_541) == "2100-03-01")
    }

    /// Habits with check-ins at random densities, some ending today, some
    /// yesterday, some earlier: the API's streaks equal `habit_streaks`',
    /// and its completion rates a count of the check-ins in their 30 days.
    @Test(.enabled(if: TestDatabase.available))
    func theAPIsStreaksAreTheDatabasesOnGeneratedCheckIns() async throws {
        try await TestServer.with(mounting: [HabitBuddies.self]) { server in
            let users = try await server.makeUsers(3, prefix: "gen")
            var habits: [String] = []
            for user in users {
                for name in ["Read 20 pages", "Cook at home", "Write in a journal"] {
                    habits.append(
                        try await F.habit(server, token: user.token, name, timeZone: "Asia/Tokyo", startedOn: F.day(-400)))
                }
            }
            // Every habit's own density and its own last day (today, yesterday, or days ago).
            _ = try await server.sql(
                """
                INSERT INTO habit_check_ins (habit_id, day)
                SELECT h.id, d::date FROM habits h, LATERAL (SELECT (now() AT TIME ZONE 'Asia/Tokyo')::date AS today) t,
                  generate_series(t.today - 390, t.today - (h.id % 4)::int, interval '1 day') AS d
                WHERE random() < 0.3 + (h.id % 7) * 0.1
                """)
            // Some habits start within the 30 days of the completion rate, one after today.
            _ = try await server.sql(
                """
                UPDATE habits SET started_on = (now() AT TIME ZONE 'Asia/Tokyo')::date - (h2.rank * 9 - 12)::int
                FROM (SELECT id, row_number() OVER (ORDER BY id) AS rank FROM habits) h2
                WHERE habits.id = h2.id AND h2.rank <= 3
                """)
            let query = "{ habitDashboard { habits { id currentStreak longestStreak checkInCount lastCheckIn completionRate } } }"
            var compared = 0
            for user in users {
                let reply = try await server.graphql(query, token: user.token)
                for habit in reply["data"]["habitDashboard"]["habits"].array {
                    let id = Int64(rowID(habit["id"].string ?? ""))!
                    let expected = try await server.sql(
                        "SELECT current_streak, longest_streak, total, last_day::text FROM habit_streaks(ARRAY[$1::bigint])", [id])[0]
                    #expect(habit["currentStreak"].int == (try expected.decode(Int?.self, at: 0) ?? 0), "\(habit)")
                    #expect(habit["longestStreak"].int == (try expected.decode(Int?.self, at: 1) ?? 0), "\(habit)")
                    #expect(habit["checkInCount"].int == (try expected.decode(Int?.self, at: 2) ?? 0), "\(habit)")
                    #expect(habit["lastCheckIn"].string == (try expected.decode(String?.self, at: 3)), "\(habit)")
                    let rate = try await server.sql(
                        """
                        SELECT coalesce(count(c.day)::float8 / nullif(greatest(0, t.today - greatest(t.today - 29, h.started_on) + 1), 0), 0)
                        FROM habits h CROSS JOIN LATERAL (SELECT (now() AT TIME ZONE 'Asia/Tokyo')::date AS today) t
                        LEFT JOIN habit_check_ins c ON c.habit_id = h.id AND c.day BETWEEN greatest(t.today - 29, h.started_on) AND t.today
                        WHERE h.id = $1 GROUP BY h.id, t.today
                        """, [id])[0]
                    #expect(habit["completionRate"].double == (try rate.decode(Double.self, at: 0)), "\(habit)")
                    compared += 1
                }
            }
            #expect(compared == habits.count)
        }
    }

    /// The dashboard reads its habits with completion and milestones, and
    /// its buddies with their habits, in one statement each: the answers are
    /// the separate loaders' (a habit read by `node(id:)`), and the count
    /// stays four (profile, habits, buddies, next meeting; the token was
    /// checked before) whatever the number of buddies.
    @Test(.enabled(if: TestDatabase.available))
    func theDashboardsFoldedStatementsAnswerAsTheLoadersDo() async throws {
        try await TestServer.with(mounting: [HabitBuddies.self]) { server in
            let users = try await server.makeUsers(4, prefix: "fold")
            for user in users {
                _ = try await F.habit(server, token: user.token, "Read 20 pages", timeZone: "Europe/Berlin", startedOn: F.day(-12))
                _ = try await F.habit(server, token: user.token, "Cook at home", timeZone: "Europe/Berlin", startedOn: F.day(-12))
            }
            // Eight days in a row for everyone (a milestone), from ten days ago.
            _ = try await server.sql(
                """
                INSERT INTO habit_check_ins (habit_id, day)
                SELECT h.id, (now() AT TIME ZONE 'Europe/Berlin')::date - d FROM habits h, generate_series(2, 9) AS d
                """)
            _ = try await server.sql(
                "INSERT INTO habit_milestones (habit_id, days, reached_on) SELECT id, 7, (now() AT TIME ZONE 'Europe/Berlin')::date - 3 FROM habits"
            )
            let habitFields =
                "id name currentStreak longestStreak checkInCount lastCheckIn checkedInToday completionRate milestones { days reachedOn }"
            let dashboard = """
                { habitDashboard { profile { buddyCount } habits { \(habitFields) }
                  buddies { user { username } habits { \(habitFields) } } nextMeeting { organizer { username } } } }
                """
            // As scripts/bench/habit-dashboard asks it.
            let leanDashboard = """
                { habitDashboard { profile { buddyCount } habits { \(habitFields) }
                  buddies { user { username } habits { name currentStreak checkedInToday } } nextMeeting { organizer { username } } } }
                """
            for (buddies, newBuddies) in [(1, users[1...1]), (3, users[2...3])] {
                for other in newBuddies { try await F.pair(server, users[0], other) }
                _ = try await server.graphql(
                    F.schedule,
                    ["input": ["buddyId": users[1].id, "date": F.day(2 + buddies), "time": "09:00", "timeZone": "Europe/Berlin"]],
                    token: users[0].token)
                // The buddies' habits with their completion and milestones cost one more.
                var before = try await server.statementCount()
                let reply = try await server.graphql(dashboard, token: users[0].token)
                var statements = try await server.statementCount() - before
                #expect(statements == 5, "\(statements) statements: \(reply)")
                before = try await server.statementCount()
                let lean = try await server.graphql(leanDashboard, token: users[0].token)
                statements = try await server.statementCount() - before
                #expect(statements == 4, "\(statements) statements: \(lean)")
                #expect(lean["data"]["habitDashboard"]["buddies"].array.count == buddies, "\(lean)")
                let board = reply["data"]["habitDashboard"]
                #expect(board["buddies"].array.count == buddies && board["profile"]["buddyCount"].int == buddies, "\(reply)")
                #expect(board["nextMeeting"]["organizer"]["username"].string == "fold0", "\(reply)")
                let shown = board["habits"].array + board["buddies"].array.flatMap { $0["habits"].array }
                #expect(shown.count == 2 * (buddies + 1))
                for habit in shown {
                    let alone = try await server.graphql(
                        "query($id: ID!) { node(id: $id) { ... on Habit { \(habitFields) } } }", ["id": habit["id"].string ?? ""],
                        token: users[0].token)
                    #expect(alone["data"]["node"] == habit, "\(alone) against \(habit)")
                }
                #expect(shown.allSatisfy { $0["milestones"][0]["days"].int == 7 && $0["longestStreak"].int == 8 })
                // The buddies are read by name when that is all their user is
                // asked; asked more (their avatar), with the whole row: the
                // same statements either way, and the same buddies.
                // Aliases of `user` are read together: by name only when all of them ask for names alone.
                let names = "id username firstName lastName"
                var read: [[[JSON]]] = []
                for (user, key) in [
                    ("user { \(names) }", "user"), ("user { \(names) avatar }", "user"), ("a: user { \(names) } user { avatar }", "a"),
                ] {
                    let before = try await server.statementCount()
                    let answer = try await server.graphql(
                        "{ habitDashboard { buddies { \(user) habits { name currentStreak } } } }", token: users[0].token)
                    let statements = try await server.statementCount() - before
                    #expect(statements == 1, "\(statements) statements: \(answer)")
                    let buddies = answer["data"]["habitDashboard"]["buddies"].array
                    #expect(buddies.map { $0[key]["username"] } == board["buddies"].array.map { $0["user"]["username"] }, "\(answer)")
                    read.append(buddies.map { buddy in names.split(separator: " ").map { buddy[key][String($0)] } })
                }
                #expect(read.allSatisfy { $0 == read[0] }, "\(read)")
            }
        }
    }
}
