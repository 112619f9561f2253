import Synchronization
import TraceContext
import Tracing

/// Batches and caches loads by key for one request (DataLoader semantics).
///
/// `load` is called while a resolver runs: it only records the key and
/// returns a waiting field. The executor starts waiting fields once no ready
/// work is left, so by then every key of the level has been recorded; the
/// first of them to run calls the batch function with all the keys (split
/// by `maxBatchSize`), and the rest wait for its answer. Each key is loaded
/// at most once per loader, which lives as long as the request.
public final class DataLoader<Key: Hashable & Sendable, Value: Sendable>: BatchRunner {
    public typealias BatchFunction = @Sendable ([Key]) async throws -> [Result<Value, any Error>]

    // Internals are usable from inlinable code so that a loader of concrete
    // types is specialized where it is used: unspecialized, every dictionary
    // access looks up generic metadata at run time. The executor reaches a
    // loader through protocols, whose witnesses are the unspecialized code,
    // so they call these closures, formed where the types are known.
    @usableFromInline let batch: BatchFunction
    @usableFromInline let maxBatchSize: Int
    @usableFromInline let state = Mutex(State())
    @usableFromInline let dispatch: @Sendable (DataLoader) async -> Void
    @usableFromInline let resolvePending: @Sendable (Pending) throws -> Resolved
    @usableFromInline let resolvePendingList: @Sendable (PendingList) throws -> Resolved

    /// Each key has a slot, given when it is first loaded or primed: the
    /// key is hashed once, and everything after (the batch, the waiting
    /// fields reading their values) goes by the slot's number.
    @usableFromInline struct State {
        @usableFromInline var slots: [Key: Int] = [:]
        @usableFromInline var keys: [Key] = []
        @usableFromInline var entries: [Entry] = []
        /// The slots recorded for the next batch.
        @usableFromInline var queue: [Int] = []
        /// How many times the batch function has been called, for tests and metrics.
        @usableFromInline var batchCount = 0

        @usableFromInline init() {}

        /// The key's slot, and whether it was made now (with `entry`).
        @inlinable mutating func slot(for key: Key, making entry: @autoclosure () -> Entry) -> (slot: Int, isNew: Bool) {
            let next = entries.count
            let slot = Self.read(&slots[key, default: next])
            guard slot == next else { return (slot, false) }
            keys.append(key)
            entries.append(entry())
            return (slot, true)
        }

        // Reading through the `default:` subscript's accessor finds or
        // inserts with one hash of the key; a lookup, then an insert, is two.
        @inlinable static func read(_ value: inout Int) -> Int { value }

        /// The slot's result, once its batch has run.
        @inlinable func finished(_ slot: Int) -> Result<Value, any Error>? {
            if case .done(let result) = entries[slot] { return result }
            return nil
        }
    }

    @usableFromInline enum Entry {
        case waiting([CheckedContinuation<Result<Value, any Error>, Never>])
        case done(Result<Value, any Error>)
    }

    @inlinable public init(maxBatchSize: Int = 1_000, batch: @escaping BatchFunction) {
        precondition(maxBatchSize > 0, "a batch holds at least one key")
        self.maxBatchSize = maxBatchSize
        self.batch = batch
        dispatch = { await $0.dispatchQueuedKeys() }
        resolvePending = { try $0.resolveNow() }
        resolvePendingList = { try $0.resolveNow() }
    }

    /// How many times the batch function ran.
    @inlinable public var batchCount: Int { state.withLock { $0.batchCount } }

    /// Gives `key` its value without a batch, unless it has one or is
    /// queued already (as graphql-js's DataLoader `prime`): another loader's
    /// batch that read these rows anyway (a join) saves this one its statement.
    @inlinable public func prime(_ key: Key, _ value: Value) {
        state.withLock { state in _ = state.slot(for: key, making: .done(.success(value))) }
    }

    /// The field whose value is the key's, completed through `transform`.
    @inlinable public func load(_ key: Key, _ transform: @escaping @Sendable (Value) throws -> Resolved) -> Resolved {
        let (slot, cached) = state.withLock { state in Self.record(key, in: &state) }
        if let cached { return Resolved.fromResult(cached, transform) }
        return .deferred(Pending(loader: self, slot: slot, transform: transform))
    }

    /// The key's slot, and its result if it has one; otherwise the key is
    /// queued for the next batch (once).
    @inlinable static func record(_ key: Key, in state: inout State) -> (slot: Int, result: Result<Value, any Error>?) {
        let (slot, isNew) = state.slot(for: key, making: .waiting([]))
        if isNew {
            state.queue.append(slot)
            return (slot, nil)
        }
        return (slot, state.finished(slot))
    }

    /// A key recorded after its level's batch started: its value waits for the next batch.
    @inlinable func nextBatch(_ slot: Int, _ transform: @escaping @Sendable (Value) throws -> Resolved) -> Resolved {
        .async { [self] in try transform(try await value(at: slot).get()) }
    }

    /// Runs the batch function over the keys recorded so far.
    public func run() async {
        await dispatch(self)
    }

    /// A load waiting for the loader's next batch.
    @usableFromInline struct Pending: DeferredValue {
        @usableFromInline let loader: DataLoader
        @usableFromInline let slot: Int
        @usableFromInline let transform: @Sendable (Value) throws -> Resolved

        @inlinable init(loader: DataLoader, slot: Int, transform: @escaping @Sendable (Value) throws -> Resolved) {
            self.loader = loader
            self.slot = slot
            self.transform = transform
        }

        @inlinable var batch: any BatchRunner { loader }

        @usableFromInline func resolve() throws -> Resolved {
            try loader.resolvePending(self)
        }

        @inlinable func resolveNow() throws -> Resolved {
            guard let result = loader.state.withLock({ $0.finished(slot) }) else {
                return loader.nextBatch(slot, transform)
            }
            return try transform(result.get())
        }
    }

    /// Loads many keys as one list field. The list waits as one value (not
    /// one per key), and each item is completed on its own: a key that fails
    /// is an error of its item.
    @inlinable public func loadMany(_ keys: [Key], _ transform: @escaping @Sendable (Value) throws -> Resolved) -> Resolved {
        let (slots, cached): ([Int], [Result<Value, any Error>]?) = state.withLock { state in
            // Room for every key at once, rather than rehashing as the table grows.
            state.slots.reserveCapacity(state.slots.count + keys.count)
            var slots: [Int] = []
            slots.reserveCapacity(keys.count)
            var complete = true
            for key in keys {
                let (slot, result) = Self.record(key, in: &state)
                slots.append(slot)
                if result == nil { complete = false }
            }
            return (slots, complete ? slots.map { state.finished($0)! } : nil)
        }
        if let cached { return .list(cached.map { Resolved.fromResult($0, transform) }) }
        return .deferred(PendingList(loader: self, slots: slots, transform: transform))
    }

    /// A list of loads waiting for the loader's next batch.
    @usableFromInline struct PendingList: DeferredValue {
        @usableFromInline let loader: DataLoader
        @usableFromInline let slots: [Int]
        @usableFromInline let transform: @Sendable (Value) throws -> Resolved

        @inlinable init(loader: DataLoader, slots: [Int], transform: @escaping @Sendable (Value) throws -> Resolved) {
            self.loader = loader
            self.slots = slots
            self.transform = transform
        }

        @inlinable var batch: any BatchRunner { loader }

        @usableFromInline func resolve() throws -> Resolved {
            try loader.resolvePendingList(self)
        }

        @inlinable func resolveNow() throws -> Resolved {
            let results = loader.state.withLock { state in slots.map { state.finished($0) } }
            return .list(
                zip(slots, results).map { slot, result in
                    result.map { Resolved.fromResult($0, transform) } ?? loader.nextBatch(slot, transform)
                })
        }
    }

    @inlinable func value(at slot: Int) async -> Result<Value, any Error> {
        await dispatchQueuedKeys()
        return await withCheckedContinuation { continuation in
            let ready: Result<Value, any Error>? = state.withLock { state in
                switch state.entries[slot] {
                case .done(let result):
                    return result
                case .waiting(var continuations):
                    continuations.append(continuation)
                    state.entries[slot] = .waiting(continuations)
                    return nil
                }
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Runs the batch function over every recorded key, in batches of at most `maxBatchSize`.
    @inlinable func dispatchQueuedKeys() async {
        let (slots, keys): ([Int], [Key]) = state.withLock { state in
            defer { state.queue = [] }
            return (state.queue, state.queue.map { state.keys[$0] })
        }
        guard !keys.isEmpty else { return }
        var start = 0
        while start < keys.count {
            let end = min(start + maxBatchSize, keys.count)
            let chunk = Array(keys[start..<end])
            let chunkSlots = slots[start..<end]
            start = end
            state.withLock { $0.batchCount += 1 }
            var results: [Result<Value, any Error>]
            do {
                results = try await runBatch(chunk)
                if results.count != chunk.count {
                    let error = DataLoaderError.wrongResultCount(keys: chunk.count, results: results.count)
                    results = Array(repeating: .failure(error), count: chunk.count)
                }
            } catch {
                results = Array(repeating: .failure(error), count: chunk.count)
            }
            let waiters: [(CheckedContinuation<Result<Value, any Error>, Never>, Result<Value, any Error>)] = state.withLock { state in
                var waiters: [(CheckedContinuation<Result<Value, any Error>, Never>, Result<Value, any Error>)] = []
                for (slot, result) in zip(chunkSlots, results) {
                    if case .waiting(let continuations) = state.entries[slot] {
                        waiters += continuations.map { ($0, result) }
                    }
                    state.entries[slot] = .done(result)
                }
                return waiters
            }
            for (continuation, result) in waiters { continuation.resume(returning: result) }
        }
    }
}

extension DataLoader {
    /// The batch function over `keys`; in a span of its own when the task
    /// is traced (`DataLoader UserRecord`, with the number of keys).
    @inlinable func runBatch(_ keys: [Key]) async throws -> [Result<Value, any Error>] {
        guard let tracer = RecordedTrace.tracer else { return try await batch(keys) }
        return try await tracer.withSpan("DataLoader \(Self.valueName)") { span in
            span.attributes = ["huddle.dataloader.keys": .int64(Int64(keys.count))]
            return try await batch(keys)
        }
    }

    /// The loaded type's name, without `Optional`.
    @usableFromInline static var valueName: String {
        let name = String(describing: Value.self)
        return name.hasPrefix("Optional<") && name.hasSuffix(">") ? String(name.dropFirst(9).dropLast()) : name
    }
}

public enum DataLoaderError: Error, Sendable, Equatable, CustomStringConvertible {
    case wrongResultCount(keys: Int, results: Int)

    public var description: String {
        switch self {
        case .wrongResultCount(let keys, let results):
            "The batch function must return one result per key: it was given \(keys) keys and returned \(results) results."
        }
    }
}

extension Resolved {
    @inlinable static func fromResult<Value>(_ result: Result<Value, any Error>, _ transform: (Value) throws -> Resolved) -> Resolved {
        switch result {
        case .success(let value):
            do { return try transform(value) } catch { return .async { throw error } }
        case .failure(let error):
            return .async { throw error }
        }
    }
}
