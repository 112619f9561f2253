import Foundation
import HuddlePostgres
import HuddleRuntime
import Synchronization

/// Writes a process's `Tallies` to the database every `interval`, at once
/// when the held reads are full, and a last time when it stops. A write
/// that fails is tried again with the next, the reads since held meanwhile
/// (dropped once those are full too).
package final class TallyWriter: Sendable {
    private let tallies: Tallies
    private let database: PostgresPool
    private let interval: Duration
    private let logger: Logger
    private let task = Mutex<Task<Void, Never>?>(nil)
    private let wake: AsyncStream<Void>.Continuation
    private let wakes: Mutex<AsyncStream<Void>?>
    private let writtenCount = Atomic<Int>(0)
    private let failedCount = Atomic<Int>(0)

    /// `database`'s loop is where it runs.
    package init(_ tallies: Tallies, database: PostgresPool, interval: Duration, logger: Logger) {
        self.tallies = tallies
        self.database = database
        self.interval = interval
        self.logger = logger
        let (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.wakes = Mutex(wakes)
        self.wake = wake
    }

    /// Keys and hours written so far.
    package var written: Int { writtenCount.load(ordering: .relaxed) }

    /// Writes that failed (each tried again with the next).
    package var failed: Int { failedCount.load(ordering: .relaxed) }

    package func start() {
        let loop = database.loop
        let wake = wake
        tallies.onFull { wake.yield() }
        guard
            let wakes = wakes.withLock({ wakes in
                defer { wakes = nil }
                return wakes
            })
        else { return }
        task.withLock { task in
            task = Task(executorPreference: loop) { [self] in await run(wakes) }
        }
    }

    /// Stops the timer and writes what is held: the batch handed over, then
    /// the reads held since (while the database takes them).
    package func stop() async {
        guard
            let running = task.withLock({ task in
                defer { task = nil }
                return task
            })
        else { return }
        running.cancel()
        wake.finish()
        await running.value
        await Task(executorPreference: database.loop) { [self] in
            while await write() {}
        }.value
    }

    private func run(_ wakes: AsyncStream<Void>) async {
        let loop = database.loop
        var iterator = wakes.makeAsyncIterator()
        while !Task.isCancelled {
            // As the scheduler's: a sleeper cut short must not wake the next wait.
            let sleeper = Task(executorPreference: loop) { [wake, interval] in
                await loop.sleep(for: interval)
                if !Task.isCancelled { wake.yield() }
            }
            let woken: Void? = await iterator.next()
            sleeper.cancel()
            if woken == nil || Task.isCancelled { break }
            await write()
        }
    }

    /// Writes the batch to write, one statement a tally, in one
    /// transaction; whether there was one and it was written.
    @discardableResult
    private func write() async -> Bool {
        let batch = tallies.batchToWrite()
        guard !batch.isEmpty else { return false }
        let byTally = Dictionary(grouping: batch, by: { $0.key.tally })
        do {
            try await database.withTransaction { connection in
                for (tally, entries) in byTally.sorted(by: { $0.key.name < $1.key.name }) {
                    // In key order: two processes' batches lock the same rows in the same order.
                    let sorted = entries.sorted { ($0.key.key, $0.key.hour) < ($1.key.key, $1.key.hour) }
                    _ = try await connection.query(
                        tally.statement,
                        [sorted.map(\.key.key), sorted.map(\.key.hour), sorted.map(\.value.reads), sorted.map(\.value.signedIn)])
                }
            }
            tallies.written()
            writtenCount.add(batch.count, ordering: .relaxed)
            return true
        } catch {
            failedCount.add(1, ordering: .relaxed)
            logger.log(
                .warning, "tallies: a batch of counted reads was not written; trying again with the next",
                ["entries": .int(batch.count), "error": .string("\(error)")])
            return false
        }
    }
}
