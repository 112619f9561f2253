import Foundation
import Synchronization

/// The process's counted reads not yet in the database, by tally, key and
/// hour, bounded: at most `capacity` distinct reads are held, and at most
/// one more batch of them waits to be written. A read that finds both full
/// is dropped (`dropped`) rather than held: counting never costs a reader
/// memory without bound, nor waits for the database.
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
    }

    private struct Read: Hashable {
        let bucket: Bucket
        let reader: TallyReader
    }

    private struct State {
        var counts: [Bucket: Counts] = [:]
        var reads: Set<Read> = []
        /// The batch being written, or handed over to be written.
        var writing: [Bucket: Counts]?
        var wake: (@Sendable () -> Void)?
    }

    /// Distinct reads held before they are handed over to be written.
    package let capacity: Int
    private let state = Mutex(State())
    private let droppedCount = Atomic<Int>(0)

    package init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Reads dropped because the held reads and the batch being written were both full.
    package var dropped: Int { droppedCount.load(ordering: .relaxed) }

    /// Reads held now, not yet handed over.
    package var held: Int { state.withLock { $0.reads.count } }

    /// Counts a read of `key` by `reader` now; again within the same hour
    /// before the next batch, the same reader is not counted again.
    package func count(_ tally: Tally, key: Int64, by reader: TallyReader, at now: Date = Date()) {
        let hour = Int64(now.timeIntervalSince1970.rounded(.down)) / 3600 * 3600
        let read = Read(bucket: Bucket(tally: tally, key: key, hour: hour), reader: reader)
        let wake: (@Sendable () -> Void)? = state.withLock { state in
            var wake: (@Sendable () -> Void)?
            if case .unknown = reader {
                // Counted every time; held once, for the bound.
            } else if state.reads.contains(read) {
                return nil
            }
            if !state.reads.contains(read) && state.reads.count >= capacity {
                guard state.writing == nil else {
                    droppedCount.add(1, ordering: .relaxed)
                    return nil
                }
                state.writing = state.counts
                state.counts = [:]
                state.reads = []
                wake = state.wake
            }
            state.reads.insert(read)
            state.counts[read.bucket, default: Counts()].reads += 1
            if reader.isSignedIn { state.counts[read.bucket, default: Counts()].signedIn += 1 }
            return wake
        }
        wake?()
    }

    /// Called (on any thread) when the held reads are full and handed over.
    package func onFull(_ wake: @escaping @Sendable () -> Void) {
        state.withLock { $0.wake = wake }
    }

    /// The batch to write: the one handed over (or left by a failed write),
    /// else the held reads, which are handed over now. Empty when there is nothing.
    package func batchToWrite() -> [Bucket: Counts] {
        state.withLock { state in
            if let writing = state.writing { return writing }
            let batch = state.counts
            state.counts = [:]
            state.reads = []
            state.writing = batch.isEmpty ? nil : batch
            return batch
        }
    }

    /// The batch `batchToWrite` gave is in the database.
    package func written() {
        state.withLock { $0.writing = nil }
    }
}
