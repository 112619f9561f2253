import Foundation
import HuddleCore
import HuddlePostgres

/// A habit's daily reminder, on the durable scheduler: one job per habit,
/// due at the next reminder time in its owner's time zone (computed by the
/// database's `habit_reminder_due`, which follows the zone's DST rules), and
/// due again the next day once done. `last_reminded_on` keeps it to one a
/// day even if the time is moved to later the same day.
enum HabitReminder {
    static let kind = "habits.reminder"

    static let work = ScheduledWork(kind) { habit, connection in try await remind(habit, on: connection) }

    /// Schedules the habit's reminder (when it is active and has a time) or
    /// removes it, in the caller's transaction.
    static func reschedule(habit: Int64, on connection: PostgresConnection) async throws {
        let rows = try await connection.query(
            """
            SELECT habit_reminder_due(p.time_zone, h.reminder_time, now()) FROM habits h JOIN habit_profiles p ON p.user_id = h.user_id
            WHERE h.id = $1 AND h.status = 'ACTIVE' AND h.reminder_time IS NOT NULL
            """, [habit])
        if let due = try rows.first?.decode(Date.self, at: 0) {
            try await Scheduler.schedule(kind, subject: habit, at: due, on: connection)
        } else {
            try await Scheduler.cancel(kind, subject: habit, on: connection)
        }
    }

    /// The reminders of every habit of `user` (their time zone changed).
    static func rescheduleAll(of user: Int64, on connection: PostgresConnection) async throws {
        for row in try await connection.query("SELECT id FROM habits WHERE user_id = $1 AND status <> 'ARCHIVED'", [user]) {
            try await reschedule(habit: try row.decode(Int64.self, at: 0), on: connection)
        }
    }

    static func remind(_ habit: Int64, on connection: PostgresConnection) async throws -> ScheduledWork.Outcome {
        let rows = try await connection.query(
            """
            SELECT h.user_id, coalesce(c.name, h.custom_name), h.status = 'ACTIVE' AND h.reminder_time IS NOT NULL,
                   h.last_reminded_on IS NOT DISTINCT FROM t.today,
                   EXISTS (SELECT 1 FROM habit_check_ins ci WHERE ci.habit_id = h.id AND ci.day = t.today),
                   habit_reminder_due(p.time_zone, h.reminder_time, clock_timestamp()), t.today::text
            FROM \(HabitRecord.tables),
            LATERAL (SELECT (clock_timestamp() AT TIME ZONE p.time_zone)::date AS today) t
            WHERE h.id = $1 FOR UPDATE OF h
            """, [habit])
        guard let row = rows.first, try row.decode(Bool.self, at: 2) else { return .done }
        let user = try row.decode(Int64.self, at: 0)
        let name = try row.decode(String.self, at: 1)
        let remindedToday = try row.decode(Bool.self, at: 3)
        let doneToday = try row.decode(Bool.self, at: 4)
        let next = try row.decode(Date.self, at: 5)
        if !remindedToday {
            _ = try await connection.query(
                "UPDATE habits SET last_reminded_on = $2::date WHERE id = $1", [habit, try row.decode(String.self, at: 6)])
            // Done already today: nothing to remind of.
            if !doneToday {
                try await Notifications.record(
                    .habitReminder, for: user, actor: nil, subject: NodeReference("Habit", habit),
                    message: "Time for \"\(name)\": tap today when it is done.", on: connection)
            }
        }
        return .again(at: next)
    }
}
