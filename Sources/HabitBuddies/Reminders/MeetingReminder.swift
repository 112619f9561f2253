import Foundation
import HuddleCore
import HuddlePostgres

/// A reminder to both people before an accepted meeting, on the durable
/// scheduler: scheduled when the meeting is accepted, removed when it is
/// cancelled (or the pair ends).
enum MeetingReminder {
    static let kind = "habits.meeting-reminder"

    static let work = ScheduledWork(kind) { meeting, connection in try await remind(meeting, on: connection) }

    /// Due `leadMinutes` before the start, or at once when that has passed.
    static func schedule(meeting: Int64, startsAt: Date, leadMinutes: Int, on connection: PostgresConnection) async throws {
        let due = max(startsAt.addingTimeInterval(-Double(leadMinutes) * 60), Date())
        try await Scheduler.schedule(kind, subject: meeting, at: due, on: connection)
    }

    static func cancel(meeting: Int64, on connection: PostgresConnection) async throws {
        try await Scheduler.cancel(kind, subject: meeting, on: connection)
    }

    static func remind(_ meeting: Int64, on connection: PostgresConnection) async throws -> ScheduledWork.Outcome {
        // Each person's text gives the time in their own zone (the one they
        // set, else their habits'), and names the other.
        let rows = try await connection.query(
            """
            SELECT r.id, reader_time(m.starts_at, coalesce(r.time_zone, hp.time_zone, reader_time_zone(r.id))), o.username
            FROM buddy_meetings m
            CROSS JOIN LATERAL (VALUES (m.organizer_id, m.buddy_id), (m.buddy_id, m.organizer_id)) AS pair (reader, other)
            JOIN users r ON r.id = pair.reader JOIN users o ON o.id = pair.other
            LEFT JOIN habit_profiles hp ON hp.user_id = pair.reader
            WHERE m.id = $1 AND m.status = 'ACCEPTED' AND m.starts_at > clock_timestamp()
            ORDER BY r.id
            """, [meeting])
        let messages = try rows.map { row in
            let (when, other) = (try row.decode(String.self, at: 1), try row.decode(String.self, at: 2))
            return (user: try row.decode(Int64.self, at: 0), text: "Your check-in with \(other) starts \(when).")
        }
        try await Notifications.record(
            .meetingReminder, messages: messages, actor: nil, subject: NodeReference("Meeting", meeting), on: connection)
        return .done
    }
}
