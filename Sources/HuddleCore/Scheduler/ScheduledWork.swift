import Foundation
import HuddlePostgres
import HuddleRuntime

/// A kind of work the durable scheduler does for an app (a round's end, a
/// reminder): `perform` runs in the transaction that claimed the job, so
/// the work and the job's removal commit together or not at all.
package struct ScheduledWork: Sendable {
    /// What happens to the job once `perform` returns.
    package enum Outcome: Sendable, Equatable {
        /// Done; the job goes.
        case done
        /// Not yet (a round nobody wrote in gets more time); the job is due again then.
        case again(at: Date)
    }

    /// The job kind, `app.what` (`prolific.round-end`).
    package let kind: String
    package let perform: @Sendable (_ subject: Int64, _ connection: PostgresConnection) async throws -> Outcome

    package init(_ kind: String, perform: @escaping @Sendable (_ subject: Int64, _ connection: PostgresConnection) async throws -> Outcome)
    {
        self.kind = kind
        self.perform = perform
    }
}

/// Puts work on the durable scheduler.
package enum Scheduler {
    /// The channel a process's `JobRunner` listens on; a payload is the
    /// due time (milliseconds since 1970) of a job just scheduled.
    package static let channel = "huddle_scheduler"

    /// Schedules the job of `kind` for `subject` at `dueAt`, or moves it
    /// there if it exists, in the caller's transaction; every process's
    /// runner hears of it when that commits and sleeps no longer than until then.
    package static func schedule(_ kind: String, subject: Int64, at dueAt: Date, on connection: some PostgresQuerying) async throws {
        _ = try await connection.query(
            """
            INSERT INTO scheduled_jobs (kind, subject_id, due_at) VALUES ($1, $2, $3)
            ON CONFLICT (kind, subject_id) DO UPDATE SET due_at = EXCLUDED.due_at, attempts = 0, last_error = NULL
            """, [kind, subject, dueAt])
        let milliseconds = Int64((dueAt.timeIntervalSince1970 * 1000).rounded())
        _ = try await connection.query("SELECT pg_notify($1, $2)", [channel, String(milliseconds)])
    }

    /// Removes the job of `kind` for `subject`, if any, in the caller's transaction.
    package static func cancel(_ kind: String, subject: Int64, on connection: some PostgresQuerying) async throws {
        _ = try await connection.query("DELETE FROM scheduled_jobs WHERE kind = $1 AND subject_id = $2", [kind, subject])
    }
}
