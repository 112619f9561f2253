import Synchronization

/// A value that tells events, or viewers, apart: any hashable and sendable value.
public struct SharingKey: Hashable, @unchecked Sendable {
    // Only Sendable values are ever wrapped (the initializer asks for it).
    private let value: AnyHashable

    public init(_ value: some Hashable & Sendable) {
        self.value = AnyHashable(value)
    }
}

/// A source event that one process hands to many subscriptions alike, such
/// as one notification heard by everyone following a topic.
public protocol SharedSourceEvent: Sendable {
    /// The same for each subscription this process delivers the event to,
    /// and different for every other event; nil for an event only one
    /// subscription receives.
    var occurrence: SharingKey? { get }
}

/// A context that knows whether an execution read who is asking: the
/// signed-in user, the client's address, anything that differs between
/// two subscribers of one event.
public protocol ViewerScopedContext: Sendable {
    /// Who is asking, everything about them a resolver may read.
    var viewerKey: SharingKey { get }
    /// Whether anything run with this context has read who is asking.
    var hasReadViewer: Bool { get }
}

/// One execution of an event's selection set for every subscriber whose
/// answer is the same (issue 42): subscriptions with the same document,
/// operation, variables and limits share the result of the first to run
/// the event, unless that run read who was asking (`ViewerScopedContext`),
/// in which case the result is shared only with subscribers who are the
/// same viewer, and each other viewer's is run once for them.
///
/// Whether a run depends on the viewer is observed, not declared: a
/// resolver that reads the user through the context marks the run, so a
/// resolver that forgets a declaration cannot hand one user's answer to
/// another. A run that reads no viewer is a function of the event, the
/// document, the variables and the database: any subscriber would get the
/// same answer running it at the same moment.
///
/// Results are held for `holdFor`, at most `maxEntries` of them and
/// `maxHeldBytes` of their JSON; a subscriber that comes after its entry
/// went runs the event itself, with the same answer as before.
public final class SharedEventExecutions: Sendable {
    public let maxEntries: Int
    public let maxHeldBytes: Int
    public let holdFor: Duration
    private let state = Mutex(State())
    private let clock = ContinuousClock()

    /// Executions run, and results shared without running, since the start.
    public let runs = Atomic<Int>(0)
    public let shared = Atomic<Int>(0)

    public init(maxEntries: Int = 4_096, maxHeldBytes: Int = 16 << 20, holdFor: Duration = .seconds(30)) {
        self.maxEntries = maxEntries
        self.maxHeldBytes = maxHeldBytes
        self.holdFor = holdFor
    }

    /// What one subscription asks of each event, all but who is asking.
    public struct Shape: Hashable, Sendable {
        let document: String
        let operationName: String?
        let variables: String
        let limits: ExecutionLimits
        private let hash: Int

        init(document: String, operationName: String?, variables: [GraphQLValue.Member], limits: ExecutionLimits) {
            var writer = JSONWriter(capacity: 64)
            writer.value(.object(variables))
            self.document = document
            self.operationName = operationName
            self.variables = writer.text
            self.limits = limits
            var hasher = Hasher()
            hasher.combine(document)
            hasher.combine(operationName)
            hasher.combine(self.variables)
            hasher.combine(limits)
            hash = hasher.finalize()
        }

        public func hash(into hasher: inout Hasher) { hasher.combine(hash) }

        public static func == (a: Shape, b: Shape) -> Bool {
            a.hash == b.hash && a.document == b.document && a.operationName == b.operationName && a.variables == b.variables
                && a.limits == b.limits
        }
    }

    private struct Key: Hashable {
        var occurrence: SharingKey
        var shape: Shape
        /// nil for the run any subscriber may share; else the one viewer's.
        var viewer: SharingKey?
    }

    private enum Entry {
        case running([CheckedContinuation<Void, Never>])
        /// A result; `readViewer` only on the shared key, telling that each
        /// viewer needs a run of their own.
        case done(ExecutionResult, readViewer: Bool, bytes: Int)
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        /// Finished keys, oldest first, with when they finished.
        var finished: [(key: Key, at: ContinuousClock.Instant)] = []
        var firstFinished = 0
        var heldBytes = 0
    }

    private enum Step {
        case answer(ExecutionResult)
        case wait(Key)
        case run(Key)
    }

    /// The result of the event `occurrence` for a subscription of `shape`,
    /// running `execute` (with a context of `viewer`) only if no result to
    /// share is held or being made.
    func result(
        occurrence: SharingKey, shape: Shape, viewer: SharingKey?,
        execute: () async -> (ExecutionResult, readViewer: Bool)
    ) async -> ExecutionResult {
        let sharedKey = Key(occurrence: occurrence, shape: shape, viewer: nil)
        while true {
            let step = state.withLock { state -> Step in
                switch state.entries[sharedKey] {
                case nil:
                    state.entries[sharedKey] = .running([])
                    return .run(sharedKey)
                case .running: return .wait(sharedKey)
                case .done(let result, readViewer: false, _): return .answer(result)
                case .done(_, readViewer: true, _):
                    let ownKey = Key(occurrence: occurrence, shape: shape, viewer: viewer ?? SharingKey(NoViewer()))
                    switch state.entries[ownKey] {
                    case nil:
                        state.entries[ownKey] = .running([])
                        return .run(ownKey)
                    case .running: return .wait(ownKey)
                    case .done(let result, _, _): return .answer(result)
                    }
                }
            }
            switch step {
            case .answer(let result):
                shared.add(1, ordering: .relaxed)
                return result
            case .wait(let key):
                await withCheckedContinuation { continuation in
                    let waiting = state.withLock { state -> Bool in
                        guard case .running(var waiters) = state.entries[key] else { return false }
                        waiters.append(continuation)
                        state.entries[key] = .running(waiters)
                        return true
                    }
                    if !waiting { continuation.resume() }
                }
            case .run(let key):
                runs.add(1, ordering: .relaxed)
                let (result, readViewer) = await execute()
                // A run cut short (its subscriber left) is no one else's answer.
                if Task.isCancelled {
                    abandon(key)
                } else {
                    finish(key, result, readViewer: readViewer, viewer: viewer, occurrence: occurrence, shape: shape)
                }
                return result
            }
        }
    }

    private struct NoViewer: Hashable, Sendable {}

    private func finish(
        _ key: Key, _ result: ExecutionResult, readViewer: Bool, viewer: SharingKey?, occurrence: SharingKey, shape: Shape
    ) {
        let bytes = result.heldJSONBytes
        let now = clock.now
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            var waiters: [CheckedContinuation<Void, Never>] = []
            if case .running(let waiting) = state.entries[key] { waiters = waiting }
            state.entries[key] = .done(result, readViewer: key.viewer == nil && readViewer, bytes: bytes)
            state.finished.append((key, now))
            state.heldBytes += bytes
            if key.viewer == nil && readViewer {
                // The run that found the answer personal is this viewer's own.
                let ownKey = Key(occurrence: occurrence, shape: shape, viewer: viewer ?? SharingKey(NoViewer()))
                if state.entries[ownKey] == nil {
                    state.entries[ownKey] = .done(result, readViewer: false, bytes: bytes)
                    state.finished.append((ownKey, now))
                    state.heldBytes += bytes
                }
            }
            evict(&state, now: now)
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Gives up a run: the next waiter runs the event itself.
    private func abandon(_ key: Key) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard case .running(let waiting) = state.entries[key] else { return [] }
            state.entries[key] = nil
            return waiting
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Drops the oldest results past their time or past the bounds.
    private func evict(_ state: inout State, now: ContinuousClock.Instant) {
        while state.firstFinished < state.finished.count {
            let (key, at) = state.finished[state.firstFinished]
            let overBounds = state.finished.count - state.firstFinished > maxEntries || state.heldBytes > maxHeldBytes
            guard overBounds || now - at > holdFor else { break }
            if case .done(_, _, let bytes) = state.entries[key] {
                state.heldBytes -= bytes
                state.entries[key] = nil
            }
            state.firstFinished += 1
        }
        if state.firstFinished > 1_024 && state.firstFinished * 2 > state.finished.count {
            state.finished.removeFirst(state.firstFinished)
            state.firstFinished = 0
        }
    }

    /// How many subscribers wait now for another's run.
    var waiting: Int {
        state.withLock { state in
            state.entries.values.reduce(0) { count, entry in
                if case .running(let waiters) = entry { count + waiters.count } else { count }
            }
        }
    }

    /// How many results are held now.
    public var heldResults: Int {
        state.withLock { $0.finished.count - $0.firstFinished }
    }
}
