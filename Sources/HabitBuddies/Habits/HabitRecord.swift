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

    /// How many columns `columns` names: what a statement selects after them starts there.
    static var columnCount: Int { selection.count }

    /// The columns `init(row:)` reads, in order.
    enum Column: Int, PostgresColumnList {
        case id, userID, catalogueID, name, status, startedOn, reminderTime, createdAt, today

        var expression: String? {
            switch self {
            case .catalogueID: "h.catalogue_id::bigint"
            case .name: "coalesce(c.name, h.custom_name)"
            case .startedOn: "h.started_on::text"
            case .reminderTime: "to_char(h.reminder_time, 'HH24:MI')"
            case .today: "((now() AT TIME ZONE p.time_zone)::date)::text"
            default: nil
            }
        }
    }
    static let selection = PostgresColumns<Column>(alias: "h")
    /// The select list, from `h`.
    static var columns: String { selection.list }

    /// The tables `columns` reads (`h`, `p`, `c`), to put in a FROM clause or a join.
    static let tables = "habits h JOIN habit_profiles p ON p.user_id = h.user_id LEFT JOIN habit_catalogue c ON c.id = h.catalogue_id"
    static let from = "FROM \(tables)"

    /// Habit `h` is the viewer's (`$index`) or their buddy's.
    static func visible(toViewerAt index: Int) -> String {
        """
        (h.user_id = $\(index)::bigint OR EXISTS (SELECT 1 FROM buddy_pairs b
            WHERE b.first_id = least(h.user_id, $\(index)::bigint) AND b.second_id = greatest(h.user_id, $\(index)::bigint)))
        """
    }

    init(row: PostgresRow, offset: Int = 0) throws {
        let column = row.columns(Column.self, at: offset)
        id = try column[.id]
        userID = try column[.userID]
        catalogueID = try column[.catalogueID]
        name = try column[.name]
        status = try column[.status]
        startedOn = try column[.startedOn]
        reminderTime = try column[.reminderTime]
        createdAt = try column[.createdAt]
        today = try column[.today]
    }
}

/// A habit's streaks, worked out here from its days (the same rules as
/// its first migration's `habit_streaks`, which the database's own work uses):
/// reading a habit's days costs PostgreSQL an index-only scan, where its
/// gaps-and-islands query cost a window, a sort and two aggregations per
/// habit (docs/performance.md, "Measured choices").
struct HabitProgress: Sendable {
    var habitID: Int64
    /// Days in a row checked in, up to today or yesterday; 0 otherwise.
    var currentStreak = 0
    var longestStreak = 0
    var checkInCount = 0
    var lastCheckIn: String?

    /// The habit's id, its days checked in (days since 1970-01-01, in
    /// order) and its owner's today (likewise); habit `h`, profile `p`.
    enum Column: Int, PostgresColumnList {
        case habitID, days, today

        var expression: String? {
            switch self {
            case .habitID: "h.id"
            case .days: "ARRAY(SELECT c.day - DATE '1970-01-01' FROM habit_check_ins c WHERE c.habit_id = h.id ORDER BY c.day)"
            case .today: "(now() AT TIME ZONE p.time_zone)::date - DATE '1970-01-01'"
            }
        }
    }
    static let selection = PostgresColumns<Column>(alias: "h")
    /// The select list, from `h` and `p`.
    static var columns: String { selection.list }
    /// How many columns `columns` names: what a statement selects after them starts there.
    static var columnCount: Int { selection.count }

    init(habitID: Int64) {
        self.habitID = habitID
    }

    init(row: PostgresRow, offset: Int = 0) throws {
        let column = row.columns(Column.self, at: offset)
        self.init(habitID: try column[.habitID], days: try column[.days] as [Int64], today: try column[.today])
    }

    /// From `days`, ascending and distinct, and `today`, all counted from 1970-01-01.
    init(habitID: Int64, days: [Int64], today: Int64) {
        self.habitID = habitID
        var run = 0
        var previous: Int64?
        for day in days {
            run = previous == day - 1 ? run + 1 : 1
            longestStreak = max(longestStreak, run)
            previous = day
        }
        checkInCount = days.count
        if let last = days.last {
            currentStreak = last >= today - 1 ? run : 0
            lastCheckIn = PostgresDate(daysSinceEpoch: Int(last)).description
        }
    }

    /// How many of `days` (ascending) fall in the `count` days up to and
    /// including `today`.
    static func checkIns(in days: [Int64], lastDays count: Int, through today: Int64) -> Int {
        let first = today - Int64(count) + 1
        var checkIns = 0
        for day in days.reversed() {
            if day < first { break }
            if day <= today { checkIns += 1 }
        }
        return checkIns
    }
}

/// A row of `habit_profiles`, with the user's today and buddy count.
final class HabitProfileRecord: Sendable {
    let userID: Int64
    let timeZone: String
    let lookingForBuddies: Bool
    let today: String
    let buddyCount: Int

    /// How many columns `columns` names: what a statement selects after them starts there.
    static var columnCount: Int { selection.count }
    /// The columns `init(row:)` reads, in order.
    enum Column: Int, PostgresColumnList {
        case userID, timeZone, lookingForBuddies, today, buddyCount

        var expression: String? {
            switch self {
            case .today: "((now() AT TIME ZONE p.time_zone)::date)::text"
            case .buddyCount: "(SELECT count(*) FROM buddy_pairs b WHERE b.first_id = p.user_id OR b.second_id = p.user_id)::int"
            default: nil
            }
        }
    }
    static let selection = PostgresColumns<Column>(alias: "p")
    /// The select list, from `p`.
    static var columns: String { selection.list }

    init(row: PostgresRow) throws {
        let column = row.columns(Column.self)
        userID = try column[.userID]
        timeZone = try column[.timeZone]
        lookingForBuddies = try column[.lookingForBuddies]
        today = try column[.today]
        buddyCount = try column[.buddyCount]
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

    /// Days done over days in the range; 0 for a range of no days.
    static func rate(done: Int, days: Int) -> Double {
        days == 0 ? 0 : Double(done) / Double(days)
    }
}

/// A habit and a day of the month to show (nil: this month).
struct HabitMonth: Hashable, Sendable {
    var habit: Int64
    var month: String?
}
