import Foundation
import HuddleCore
import HuddlePostgres

extension NotificationKind {
    static let sessionReminder = NotificationKind(rawValue: "SESSION_REMINDER")
}

/// A session's players are reminded `session-reminder-minutes` before it
/// starts, by one job per session on the durable scheduler. The job reads
/// who plays when it fires, so a player who left is not reminded and one
/// who joined is, without touching the job; deleting the session removes it.
/// A session created inside that lead gets no reminder: its players know.
enum SessionReminder {
    static let kind = "playmate.session-reminder"

    static let work = ScheduledWork(kind) { session, connection in try await remind(session, on: connection) }

    /// Schedules the reminder for a new session, in its creating transaction
    /// (none when `leadMinutes` is 0 or the time has passed).
    static func schedule(session: Int64, occursAt: Date, leadMinutes: Int, on connection: PostgresConnection) async throws {
        guard leadMinutes > 0 else { return }
        let due = occursAt.addingTimeInterval(-Double(leadMinutes) * 60)
        guard due > Date() else { return }
        try await Scheduler.schedule(kind, subject: session, at: due, on: connection)
    }

    static func cancel(session: Int64, on connection: PostgresConnection) async throws {
        try await Scheduler.cancel(kind, subject: session, on: connection)
    }

    static func remind(_ session: Int64, on connection: PostgresConnection) async throws -> ScheduledWork.Outcome {
        // Each player's text gives the time in their own zone.
        let rows = try await connection.query(
            """
            SELECT s.sport, l.name, p.user_id, reader_time(s.occurs_at, reader_time_zone(p.user_id))
            FROM sports_sessions s JOIN locations l ON l.id = s.location_id JOIN session_players p ON p.session_id = s.id
            WHERE s.id = $1 AND s.occurs_at > clock_timestamp()
            ORDER BY p.user_id
            """, [session])
        let messages = try rows.map { row in
            let sport = SportName(try row.decode(String.self, at: 0))
            let place = try row.decode(String.self, at: 1)
            let when = try row.decode(String.self, at: 3)
            return (user: try row.decode(Int64.self, at: 2), text: "Your \(sport.text) session at \(place) starts \(when).")
        }
        try await Notifications.record(
            .sessionReminder, messages: messages, actor: nil, subject: NodeReference("SportsSession", session), on: connection)
        return .done
    }
}
