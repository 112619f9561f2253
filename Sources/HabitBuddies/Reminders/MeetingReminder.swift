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
        let rows = try await connection.query(
            """
            SELECT m.organizer_id, m.buddy_id, to_char(m.starts_at AT TIME ZONE m.time_zone, 'HH24:MI'), m.time_zone
            FROM buddy_meetings m WHERE m.id = $1 AND m.status = 'ACCEPTED' AND m.starts_at > clock_timestamp()
            """, [meeting])
        guard let row = rows.first else { return .done }
        let people = [try row.decode(Int64.self, at: 0), try row.decode(Int64.self, at: 1)]
        try await Notifications.record(
            .meetingReminder, forEach: people, actor: nil, subject: NodeReference("Meeting", meeting),
            message: "Your buddy check-in starts at \(try row.decode(String.self, at: 2)) (\(try row.decode(String.self, at: 3))).",
            on: connection)
        return .done
    }
}
