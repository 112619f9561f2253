import Foundation
import ServerTestSupport
import TestSupport
import Testing

/// What the Habit Buddies tests share: habits added through the API,
/// check-ins, buddy pairs made by swiping, meetings.
enum HabitBuddiesFixtures {
    static let addHabit = """
        mutation($input: AddHabitInput!) { addHabit(input: $input) { id name status startedOn } }
        """
    static let checkIn = """
        mutation($id: ID!, $date: Date) { checkIn(habitId: $id, date: $date) { id currentStreak longestStreak checkedInToday } }
        """
    static let swipe = """
        mutation($id: ID!, $direction: BuddySwipeDirection!) { swipeBuddy(userId: $id, direction: $direction) { direction buddy { user { username } } } }
        """
    static let schedule = """
        mutation($input: ScheduleMeetingInput!) { scheduleMeeting(input: $input) { id status startsAt endsAt localStart timeZone durationMinutes checklist { text } } }
        """

    /// The id of the catalogue habit named `name`.
    static func catalogue(_ server: TestServer, _ name: String) async throws -> String {
        let reply = try await server.graphql("{ habitCatalogue { id name } }")
        return try #require(reply["data"]["habitCatalogue"].array.first { $0["name"].string == name }?["id"].string, "\(reply)")
    }

    /// Adds a catalogue habit (making the profile in `timeZone`); returns its id.
    static func habit(
        _ server: TestServer, token: String, _ name: String, timeZone: String = "Europe/Berlin", startedOn: String? = nil
    ) async throws -> String {
        var input: [String: any Sendable] = ["catalogueHabitId": try await catalogue(server, name), "timeZone": timeZone]
        if let startedOn { input["startedOn"] = startedOn }
        let reply = try await server.graphql(addHabit, ["input": input], token: token)
        return try #require(reply["data"]["addHabit"]["id"].string, "\(reply)")
    }

    /// Makes the two users buddies (both forming `habit`), by swiping right both ways.
    static func pair(_ server: TestServer, _ a: (token: String, id: String), _ b: (token: String, id: String)) async throws {
        for (swiper, other) in [(a, b), (b, a)] {
            let reply = try await server.graphql(swipe, ["id": other.id, "direction": "RIGHT"], token: swiper.token)
            #expect(reply["errors"].isNull, "\(reply)")
        }
    }

    /// Checks in today on each of the user's habits.
    static func checkInToday(_ server: TestServer, token: String) async throws {
        let reply = try await server.graphql("{ habitDashboard { habits { id } } }", token: token)
        for habit in reply["data"]["habitDashboard"]["habits"].array {
            let done = try await server.graphql(checkIn, ["id": habit["id"].string ?? ""], token: token)
            #expect(done["errors"].isNull, "\(done)")
        }
    }

    /// A date `days` from today in UTC, `YYYY-MM-DD`.
    static func day(_ days: Int, from date: Date = Date()) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day], from: date.addingTimeInterval(Double(days) * 86_400))
        return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }
}
