import Foundation
import Synchronization

/// The process's counted reads not yet in the database, by tally, key and
/// hour. A reader counts once per key and hour: who read what is held
/// until the hour ends (whatever was written meanwhile), at most `capacity`
/// of them; a new reader that finds them full is dropped (`dropped`) rather
/// than held, so counting never costs memory without bound, nor waits for
/// the database.
package final class Tallies: Sendable {
    /// What a batch adds: one tally's key in one hour (seconds since 1970).
    package struct Bucket: Hashable, Sendable {
        package let tally: Tally
        package let key: Int64
        package let hour: Int64

        package init(tally: Tally, key: Int64, hour: Int64) {
            self.tally = tally
            self.key = key
            self.hour = hour
        }
    }

    package struct Counts: Sendable, Equatable {
        package var reads: Int32 = 0
        package var signedIn: Int32 = 0

        package init(reads: Int32 = 0, signedIn: Int32 = 0) {
            self.reads = reads
            self.signedIn = signedIn
        }

        mutating func add(_ other: Counts) {
            reads = reads.addingReportingOverflow(other.reads).overflow ? .max : reads + other.reads
            signedIn = signedIn.addingReportingOverflow(other.signedIn).overflow ? .max : signedIn + other.signedIn
        }
    }

    private struct Read: Hashable {
        let bucket: Bucket
        let reader: TallyReader
    }

    private struct State {
        var counts: [Bucket: Counts] = [:]
        /// Who read what this hour (and in an hour not yet pruned).
        var reads: Set<Read> = []
        /// The batch being written, or left by a write that failed.
        var writing: [Bucket: Counts]?

        /// Forgets the reads of hours before `hour`: their readers count again in a new hour anyway.
        mutating func prune(before hour: Int64) {
            if reads.contains(where: { $0.bucket.hour < hour }) { reads = reads.filter { $0.bucket.hour >= hour } }
        }
    }

    /// Distinct readers of a key in an hour held at once.
    package let capacity: Int
    private let clock: @Sendable () -> Date
    private let state = Mutex(State())
    private let droppedCount = Atomic<Int>(0)

    /// `clock` says what hour it is (tests pin it).
    package init(capacity: Int, clock: @escaping @Sendable () -> Date = Date.init) {
        self.capacity = max(1, capacity)
        self.clock = clock
    }

    /// Reads dropped because the held readers were full.
    package var dropped: Int { droppedCount.load(ordering: .relaxed) }

    /// Readers held now.
    package var held: Int { state.withLock { $0.reads.count } }

    private static func hour(of date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down)) / 3600 * 3600
    }

    /// Counts a read of `key` by `reader` at `now` (the clock's time by
    /// default); the same reader of the same key in the same hour counts once.
    package func count(_ tally: Tally, key: Int64, by reader: TallyReader, at now: Date? = nil) {
        let hour = Self.hour(of: now ?? clock())
        let read = Read(bucket: Bucket(tally: tally, key: key, hour: hour), reader: reader)
        let counted = state.withLock { state -> Bool in
            if !state.reads.contains(read) {
                if state.reads.count >= capacity {
                    state.prune(before: hour)
                    if state.reads.count >= capacity { return false }
                }
                state.reads.insert(read)
            } else if reader != .unknown {
                return true
            }
            state.counts[read.bucket, default: Counts()].add(Counts(reads: 1, signedIn: reader.isSignedIn ? 1 : 0))
            return true
        }
        if !counted { droppedCount.add(1, ordering: .relaxed) }
    }

    /// The batch to write: the one a failed write left, else the counts
    /// held, which are handed over now. Empty when there is nothing.
    package func batchToWrite() -> [Bucket: Counts] {
        let hour = Self.hour(of: clock())
        return state.withLock { state in
            state.prune(before: hour)
            if let writing = state.writing { return writing }
            let batch = state.counts
            state.counts = [:]
            state.writing = batch.isEmpty ? nil : batch
            return batch
        }
    }

    /// The batch `batchToWrite` gave is in the database but for `failed`,
    /// which the next write tries again.
    package func written(except failed: [Bucket: Counts] = [:]) {
        state.withLock { $0.writing = failed.isEmpty ? nil : failed }
    }
}
