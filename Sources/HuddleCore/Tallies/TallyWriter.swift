import Foundation
import HuddlePostgres
import HuddleRuntime
import Synchronization

/// Writes a process's `Tallies` to the database every `interval`, each
/// tally's batch in a short transaction of its own, and what is held a last
/// time when it stops. A tally's batch that fails is tried again with the
/// next write (its later reads held meanwhile). Once an hour it removes
/// what each tally keeps no longer (`Tally.prune`).
package final class TallyWriter: Sendable {
    private let tallies: Tallies
    private let declared: [Tally]
    private let database: PostgresPool
    private let interval: Duration
    private let settings: AppSettings
    private let logger: Logger
    private let running = Mutex<(task: Task<Void, Never>?, stopped: Bool)>((nil, false))
    /// True: the timer fired; false: stop.
    private let event: AsyncStream<Bool>.Continuation
    private let events: Mutex<AsyncStream<Bool>?>
    private let writtenCount = Atomic<Int>(0)
    private let failedCount = Atomic<Int>(0)

    /// `database`'s loop is where it runs; `declared` are the tallies the
    /// apps declare (whose old rows it prunes).
    package init(
        _ tallies: Tallies, declared: [Tally], database: PostgresPool, interval: Duration, settings: AppSettings, logger: Logger
    ) {
        self.tallies = tallies
        self.declared = declared
        self.database = database
        self.interval = interval
        self.settings = settings
        self.logger = logger
        let (events, event) = AsyncStream.makeStream(of: Bool.self)
        self.events = Mutex(events)
        self.event = event
    }

    /// Keys and hours written so far.
    package var written: Int { writtenCount.load(ordering: .relaxed) }

    /// Writes that failed (each tried again with the next).
    package var failed: Int { failedCount.load(ordering: .relaxed) }

    /// Starts writing on the timer; after `stop`, does nothing.
    package func start() {
        let loop = database.loop
        guard
            let events = events.withLock({ events in
                defer { events = nil }
                return events
            })
        else { return }
        running.withLock { running in
            guard !running.stopped else { return }
            running.task = Task(executorPreference: loop) { [self] in await run(events) }
        }
    }

    /// Stops the timer (a write in progress finishes first) and writes what
    /// is held, trying three times over about a second.
    package func stop() async {
        let task = running.withLock { running in
            running.stopped = true
            defer { running.task = nil }
            return running.task
        }
        event.yield(false)
        event.finish()
        await task?.value
        await Task(executorPreference: database.loop) { [self] in
            for attempt in 1...3 {
                if await writeAllHeld() { return }
                await database.loop.sleep(for: .milliseconds(250 * attempt))
            }
        }.value
    }

    private func run(_ events: AsyncStream<Bool>) async {
        let loop = database.loop
        var iterator = events.makeAsyncIterator()
        var lastPrune: ContinuousClock.Instant?
        while true {
            // As the scheduler's: a sleeper cut short must not end the next wait.
            let sleeper = Task(executorPreference: loop) { [event, interval] in
                await loop.sleep(for: interval)
                if !Task.isCancelled { event.yield(true) }
            }
            let timerFired = await iterator.next() ?? false
            sleeper.cancel()
            if !timerFired { return }
            _ = await write()
            if lastPrune.map({ $0.duration(to: .now) >= .seconds(3600) }) ?? true {
                await prune()
                lastPrune = .now
            }
        }
    }

    /// Writes batches until none is held; false when one failed.
    private func writeAllHeld() async -> Bool {
        while true {
            switch await write() {
            case .nothing: return true
            case .written: continue
            case .failed: return false
            }
        }
    }

    private enum Outcome { case nothing, written, failed }

    /// Writes the batch to write, a transaction a tally.
    private func write() async -> Outcome {
        let batch = tallies.batchToWrite()
        guard !batch.isEmpty else { return .nothing }
        var failed: [Tallies.Bucket: Tallies.Counts] = [:]
        for (tally, entries) in Dictionary(grouping: batch, by: { $0.key.tally }).sorted(by: { $0.key.name < $1.key.name }) {
            // In key order: two processes' batches lock the same rows in the same order.
            let sorted = entries.sorted { ($0.key.key, $0.key.hour) < ($1.key.key, $1.key.hour) }
            do {
                try await database.withTransaction { connection in
                    _ = try await connection.query(
                        tally.statement,
                        [sorted.map(\.key.key), sorted.map(\.key.hour), sorted.map(\.value.reads), sorted.map(\.value.signedIn)])
                }
                writtenCount.add(sorted.count, ordering: .relaxed)
            } catch {
                failedCount.add(1, ordering: .relaxed)
                for (bucket, counts) in sorted { failed[bucket] = counts }
                logger.log(
                    .warning, "tallies: counted reads not written; trying again with the next write",
                    ["tally": .string(tally.name), "entries": .int(sorted.count), "error": .string("\(error)")])
            }
        }
        tallies.written(except: failed)
        return failed.isEmpty ? .written : .failed
    }

    /// Removes what each tally keeps no longer.
    private func prune() async {
        for tally in declared {
            guard let prune = tally.prune else { continue }
            let cutoff = Int64(Date().timeIntervalSince1970) - Int64(settings[prune.keepDays]) * 86_400
            do {
                _ = try await database.query(prune.statement, [cutoff])
            } catch {
                logger.log(.warning, "tallies: old counts not removed", ["tally": .string(tally.name), "error": .string("\(error)")])
            }
        }
    }
}
