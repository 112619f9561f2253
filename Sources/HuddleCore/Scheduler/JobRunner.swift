import Foundation
import HuddlePostgres
import HuddleRuntime
import Synchronization

/// One server process's side of the durable scheduler. It sleeps on a
/// libuv timer until the earliest job is due (by the database's clock),
/// wakes early when a NOTIFY says something sooner was scheduled, and then
/// claims due jobs one per transaction with `FOR UPDATE SKIP LOCKED`, a
/// few at a time. Several processes share one table: a job is claimed by
/// one of them, and its work commits with its removal, so it is done
/// exactly once; a process killed mid-way rolls back and another takes it.
package final class JobRunner: Sendable {
    package struct Settings: Sendable {
        /// Jobs run at once (each holds a connection while it runs).
        package var concurrency = 4
        /// The longest sleep between looks at the table, in case a NOTIFY
        /// was missed (the listener reconnecting, say).
        package var longestSleep = Duration.seconds(30)
        /// The wait after a failed look (the database away).
        package var retryAfterError = Duration.seconds(1)
        /// The longest wait before a failed job is tried again (it doubles
        /// from one second with each failure).
        package var longestBackoff = Duration.seconds(3600)

        package init() {}
    }

    private let work: [String: ScheduledWork]
    private let database: PostgresPool
    private let listener: PostgresListener?
    private let logger: Logger
    private let metrics: Metrics?
    private let settings: Settings
    private let tracer: HuddleTracer?
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// A runner of `work` on `database`'s loop, woken by NOTIFY through
    /// `listener` (without one it looks every `longestSleep`), counting
    /// what it does in `metrics`, each job a trace's root when `tracer` is given.
    package init(
        work: [ScheduledWork], database: PostgresPool, listener: PostgresListener?, logger: Logger, metrics: Metrics? = nil,
        settings: Settings = Settings(), tracer: HuddleTracer? = nil
    ) {
        self.metrics = metrics
        self.tracer = tracer
        self.work = Dictionary(work.map { ($0.kind, $0) }, uniquingKeysWith: { first, _ in first })
        self.database = database
        self.listener = listener
        self.logger = logger
        self.settings = settings
    }

    package func start() {
        let running = Task(executorPreference: database.loop) { await self.run() }
        task.withLock { $0 = running }
    }

    /// Stops taking jobs and waits for the ones running (a job cut short
    /// rolls back and stays due).
    package func stop() async {
        guard let running = task.withLock({ $0 }) else { return }
        running.cancel()
        await running.value
    }

    private func run() async {
        let loop = database.loop
        let (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        var follower: Task<Void, Never>?
        if let listener {
            do {
                let events = try await listener.events(on: Scheduler.channel)
                follower = Task(executorPreference: loop) {
                    for await _ in events { wake.yield() }
                }
            } catch {
                logger.log(.warning, "scheduler: not listening; looking at the table on a timer", ["error": .string("\(error)")])
            }
        }
        defer { follower?.cancel() }
        var iterator = wakes.makeAsyncIterator()
        while !Task.isCancelled {
            let wait: Duration
            do {
                metrics?.recordSchedulerLook()
                await runDueJobs()
                wait = try await untilNextDue()
            } catch {
                logger.log(.warning, "scheduler: cannot read the jobs", ["error": .string("\(error)")])
                wait = settings.retryAfterError
            }
            if Task.isCancelled { break }
            // A sleeper cut short by a NOTIFY must not wake the runner too:
            // that wake would end the next sleep at once, whose sleeper
            // would wake the one after, and the runner would never sleep.
            let sleeper = Task(executorPreference: loop) {
                await loop.sleep(for: wait)
                if !Task.isCancelled { wake.yield() }
            }
            _ = await iterator.next()
            sleeper.cancel()
        }
    }

    /// How long until the earliest job is due, by the database's clock (at
    /// most `longestSleep`).
    private func untilNextDue() async throws -> Duration {
        let rows = try await database.query(
            "SELECT ceil(extract(epoch FROM min(due_at) - clock_timestamp()) * 1000)::bigint FROM scheduled_jobs", [])
        guard let milliseconds = try rows.first?.decode(Int64?.self, at: 0) else { return settings.longestSleep }
        return min(.milliseconds(max(0, milliseconds)), settings.longestSleep)
    }

    /// Runs jobs until none is due, `concurrency` at a time. One claim
    /// goes first: when nothing is due (most wakes) the look costs one
    /// connection, not `concurrency` of them held open by the pool after.
    private func runDueJobs() async {
        guard await claimOne() else { return }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<settings.concurrency {
                group.addTask(executorPreference: database.loop) {
                    while !Task.isCancelled, await self.claimOne() {}
                }
            }
        }
    }

    /// What one claiming transaction did.
    private enum Claim {
        /// Nothing was due.
        case none
        /// A job of a kind no mounted app does, put off.
        case postponed
        /// A job ran: done, or due again later.
        case ran(outcome: String, lateness: Double)
    }

    /// A job's own failure, as distinct from the database's.
    private struct JobFailure: Error {
        var id: Int64
        var kind: String
        var subject: Int64
        var error: any Error
    }

    /// Claims one due job and does it in the same transaction; false when
    /// none is due (or the database cannot be reached).
    private func claimOne() async -> Bool {
        do {
            let claim = try await database.withTransaction { connection in
                // statement_timestamp(), stable, bounds the index scan; with
                // the volatile clock_timestamp() PostgreSQL filtered every
                // row instead (docs/performance.md, "Measured choices").
                let rows = try await connection.query(
                    """
                    SELECT id, kind, subject_id, extract(epoch FROM clock_timestamp() - due_at)::float8
                    FROM scheduled_jobs WHERE due_at <= statement_timestamp()
                    ORDER BY due_at, id LIMIT 1 FOR UPDATE SKIP LOCKED
                    """, [])
                guard let row = rows.first else { return Claim.none }
                let id = try row.decode(Int64.self, at: 0)
                let kind = try row.decode(String.self, at: 1)
                let subject = try row.decode(Int64.self, at: 2)
                let lateness = try row.decode(Double.self, at: 3)
                guard let work = work[kind] else {
                    // A kind no mounted app does (an app taken out, or a newer
                    // version's job): kept for the process that can.
                    _ = try await connection.query(
                        """
                        UPDATE scheduled_jobs SET due_at = clock_timestamp() + interval '1 hour',
                          last_error = 'no mounted app does this kind of job' WHERE id = $1
                        """, [id])
                    return Claim.postponed
                }
                let outcome: ScheduledWork.Outcome
                do {
                    outcome = try await JobSpans.performing(tracer, kind: kind, subject: subject, lateness: lateness) {
                        try await work.perform(subject, connection)
                    }
                } catch let error as PostgresError where error.isTransient {
                    throw error
                } catch {
                    throw JobFailure(id: id, kind: kind, subject: subject, error: error)
                }
                switch outcome {
                case .done:
                    _ = try await connection.query("DELETE FROM scheduled_jobs WHERE id = $1", [id])
                case .again(let dueAt):
                    _ = try await connection.query("UPDATE scheduled_jobs SET due_at = $2 WHERE id = $1", [id, dueAt])
                }
                return Claim.ran(outcome: outcome == .done ? "done" : "again", lateness: lateness)
            }
            // Counted once committed (a transaction run again counts once).
            switch claim {
            case .none: return false
            case .postponed: return true
            case .ran(let outcome, let lateness):
                metrics?.recordJob(outcome: outcome, lateness: lateness)
                return true
            }
        } catch let failure as JobFailure {
            metrics?.recordJob(outcome: "failed", lateness: 0)
            logger.log(
                .error, "scheduler: job failed",
                ["kind": .string(failure.kind), "subject": .int(Int(failure.subject)), "error": .string("\(failure.error)")])
            do {
                _ = try await database.query(
                    """
                    UPDATE scheduled_jobs SET attempts = attempts + 1, last_error = left($2, 2000),
                      due_at = clock_timestamp() + least(power(2, attempts), $3) * interval '1 second'
                    WHERE id = $1
                    """, [failure.id, "\(failure.error)", Int(settings.longestBackoff.milliseconds / 1000)])
            } catch {
                return false
            }
            return true
        } catch {
            if !Task.isCancelled {
                logger.log(.warning, "scheduler: cannot claim a job", ["error": .string("\(error)")])
            }
            return false
        }
    }
}
