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
        let rows = try await connection.query(
            """
            SELECT s.sport, l.name, s.occurs_at, array(SELECT p.user_id FROM session_players p WHERE p.session_id = s.id ORDER BY p.user_id)
            FROM sports_sessions s JOIN locations l ON l.id = s.location_id
            WHERE s.id = $1 AND s.occurs_at > clock_timestamp()
            """, [session])
        guard let row = rows.first else { return .done }
        let sport = try row.decode(String.self, at: 0)
        let place = try row.decode(String.self, at: 1)
        let occursAt = try row.decode(Date.self, at: 2)
        let players = try row.decode([Int64].self, at: 3)
        try await Notifications.record(
            .sessionReminder, forEach: players, actor: nil, subject: NodeReference("SportsSession", session),
            message: "Your \(sport.lowercased()) session at \(place) starts at \(Instant.text(occursAt)).", on: connection)
        return .done
    }
}
