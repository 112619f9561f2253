import Foundation
import HuddleCore
import HuddlePostgres

/// A row of `habits`, with its name (the catalogue's or the owner's own)
/// and its owner's today.
final class HabitRecord: Identified {
    let id: Int64
    let userID: Int64
    let catalogueID: Int64?
    let name: String
    let status: String
    /// `YYYY-MM-DD`, as are the other days.
    let startedOn: String
    /// `HH:MM` in the owner's time zone.
    let reminderTime: String?
    let createdAt: Date
    /// The owner's date when it was read.
    let today: String

    static let columnCount = 9

    static let columns = """
        h.id, h.user_id, h.catalogue_id::bigint, coalesce(c.name, h.custom_name), h.status, h.started_on::text,
        to_char(h.reminder_time, 'HH24:MI'), h.created_at, ((now() AT TIME ZONE p.time_zone)::date)::text
        """

    static let from = """
        FROM habits h JOIN habit_profiles p ON p.user_id = h.user_id LEFT JOIN habit_catalogue c ON c.id = h.catalogue_id
        """

    /// Habit `h` is the viewer's (`$index`) or their buddy's.
    static func visible(toViewerAt index: Int) -> String {
        """
        (h.user_id = $\(index)::bigint OR EXISTS (SELECT 1 FROM buddy_pairs b
            WHERE b.first_id = least(h.user_id, $\(index)::bigint) AND b.second_id = greatest(h.user_id, $\(index)::bigint)))
        """
    }

    init(row: PostgresRow, offset: Int = 0) throws {
        id = try row.decode(at: offset)
        userID = try row.decode(at: offset + 1)
        catalogueID = try row.decode(at: offset + 2)
        name = try row.decode(at: offset + 3)
        status = try row.decode(at: offset + 4)
        startedOn = try row.decode(at: offset + 5)
        reminderTime = try row.decode(at: offset + 6)
        createdAt = try row.decode(at: offset + 7)
        today = try row.decode(at: offset + 8)
    }
}

/// A habit's streaks, from `habit_streaks`.
struct HabitProgress: Sendable {
    var habitID: Int64
    var currentStreak = 0
    var longestStreak = 0
    var checkInCount = 0
    var lastCheckIn: String?

    static let columns = "s.habit_id, s.current_streak, s.longest_streak, s.total, s.last_day::text"

    init(habitID: Int64) {
        self.habitID = habitID
    }

    init(row: PostgresRow, offset: Int = 0) throws {
        habitID = try row.decode(at: offset)
        currentStreak = try row.decode(Int?.self, at: offset + 1) ?? 0
        longestStreak = try row.decode(Int?.self, at: offset + 2) ?? 0
        checkInCount = try row.decode(Int?.self, at: offset + 3) ?? 0
        lastCheckIn = try row.decode(at: offset + 4)
    }
}

/// A row of `habit_profiles`, with the user's today and buddy count.
final class HabitProfileRecord: Sendable {
    let userID: Int64
    let timeZone: String
    let lookingForBuddies: Bool
    let today: String
    let buddyCount: Int

    static let columns = """
        p.user_id, p.time_zone, p.looking_for_buddies, ((now() AT TIME ZONE p.time_zone)::date)::text, habit_buddy_count(p.user_id)
        """

    init(row: PostgresRow) throws {
        userID = try row.decode(at: 0)
        timeZone = try row.decode(at: 1)
        lookingForBuddies = try row.decode(at: 2)
        today = try row.decode(at: 3)
        buddyCount = try row.decode(at: 4)
    }
}

struct HabitMilestone: Sendable {
    var days: Int
    var reachedOn: String
}

/// A day of a habit's month calendar.
struct HabitDay: Sendable {
    var date: String
    var done: Bool
    var isFuture: Bool
    var isBeforeStart: Bool
}

/// A habit and a range of days (nil ends: the defaults), for completion rates.
struct HabitRange: Hashable, Sendable {
    var habit: Int64
    var from: String?
    var to: String?
}

/// A habit and a day of the month to show (nil: this month).
struct HabitMonth: Hashable, Sendable {
    var habit: Int64
    var month: String?
}
