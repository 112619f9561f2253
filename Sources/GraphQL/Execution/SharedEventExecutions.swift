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
/// Only whole answers are shared: a run cut short (its subscriber left)
/// or with errors (a time budget run out, a database away, or a field's
/// own error) is no one else's, and each waiting subscriber runs its own,
/// as it would without sharing. Results are held for `holdFor`, at most
/// `maxEntries` of them and `maxHeldBytes` of their JSON, for subscribers
/// that come to an event later; one that comes after its entry went runs
/// the event itself, on the data as it is then.
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

    fileprivate struct Key: Hashable {
        var occurrence: SharingKey
        var shape: Shape
        /// nil for the run any subscriber may share; else the one viewer's.
        var viewer: SharingKey?
    }

    /// What a waiting subscriber is told when the run it waits for ends.
    enum Outcome: Sendable {
        case result(ExecutionResult)
        /// The run read the viewer: each viewer needs their own.
        case personal
        /// Not shareable (cut short, or with errors): run your own.
        case runOwn
        /// Look again (the run was given up before this waiter came).
        case again
    }

    /// A subscriber waiting for another's run: a suspended task, or a
    /// pushed subscription (`SubscriptionFeed`) to call on its queue.
    private enum Waiter {
        case task(CheckedContinuation<Outcome, Never>)
        case pushed(SubscriberQueue, @Sendable (Outcome) -> Void)
    }

    /// The subscribers waiting for one run, changed in place under the
    /// lock: a dictionary held in the entry's enum would be copied by each
    /// change, making thousands of waiters quadratic.
    private final class Waiters {
        var byNumber: [UInt64: Waiter] = [:]
    }

    private enum Entry {
        case running(Waiters)
        case done(ExecutionResult, bytes: Int)
        /// On the shared key: runs of this event read the viewer.
        case personal
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        /// Keys held, oldest first, with when they were held.
        var held: [(key: Key, at: ContinuousClock.Instant)] = []
        var firstHeld = 0
        var heldBytes = 0
        var nextWaiter: UInt64 = 0
        /// Shapes whose runs read the viewer: their subscribers go to their
        /// own key at once (cleared when it grows past `maxEntries`).
        var personalShapes: Set<Shape> = []
    }

    private enum Step {
        case answer(ExecutionResult)
        case wait(Key)
        case run(Key)
    }

    /// The next step for a subscriber of `sharedKey` (of `ownKey` once it
    /// is known that runs of the event read the viewer), taken under the lock.
    private func step(_ state: inout State, _ sharedKey: Key, _ ownKey: Key, personal: inout Bool) -> Step {
        evict(&state, now: clock.now)
        if state.personalShapes.contains(sharedKey.shape) { personal = true }
        if !personal, case .personal? = state.entries[sharedKey] { personal = true }
        let key = personal ? ownKey : sharedKey
        switch state.entries[key] {
        case nil, .personal?:  // only a shared key is ever marked personal
            state.entries[key] = .running(Waiters())
            return .run(key)
        case .running: return .wait(key)
        case .done(let result, _): return .answer(result)
        }
    }

    /// The result of the event `occurrence` for a subscription of `shape`,
    /// running `execute` (with a context of `viewer`) only if no result to
    /// share is held or being made.
    func result(
        occurrence: SharingKey, shape: Shape, viewer: SharingKey,
        execute: () async -> (ExecutionResult, readViewer: Bool)
    ) async -> ExecutionResult {
        let sharedKey = Key(occurrence: occurrence, shape: shape, viewer: nil)
        let ownKey = Key(occurrence: occurrence, shape: shape, viewer: viewer)
        var personal = false
        while true {
            if Task.isCancelled { return await execute().0 }
            let step = state.withLock { state in self.step(&state, sharedKey, ownKey, personal: &personal) }
            switch step {
            case .answer(let result):
                shared.add(1, ordering: .relaxed)
                return result
            case .wait(let key):
                switch await wait(for: key) {
                case .result(let result):
                    shared.add(1, ordering: .relaxed)
                    return result
                case .personal: personal = true
                case .again: continue
                case .runOwn:
                    runs.add(1, ordering: .relaxed)
                    return await execute().0
                }
            case .run(let key):
                runs.add(1, ordering: .relaxed)
                let (result, readViewer) = await execute()
                finish(Run(key: key, ownKey: ownKey), result, readViewer: readViewer)
                return result
            }
        }
    }

    /// A run a pushed subscription has taken on: it runs the event, then
    /// hands the result to `finish`.
    struct Run {
        fileprivate let key: Key
        fileprivate let ownKey: Key
    }

    /// What a pushed subscription does with an event.
    enum Claim {
        case answer(ExecutionResult)
        case run(Run)
        /// Another subscriber runs it: `then` is called on the queue when it
        /// ends. `shared`: the run is the one any subscriber may share (not
        /// a viewer's own), so others of the queue may wait for it too.
        case waiting(shared: Bool)
    }

    /// `result`'s steps for a subscription that must not suspend: the
    /// answer when one is held, else the run to make, else a wait whose
    /// outcome `then` is given on `queue`. `personal` says that runs of
    /// this event read the viewer (an earlier outcome was `.personal`).
    func claim(
        occurrence: SharingKey, shape: Shape, viewer: SharingKey, personal: Bool, queue: SubscriberQueue,
        then: @escaping @Sendable (Outcome) -> Void
    ) -> Claim {
        let sharedKey = Key(occurrence: occurrence, shape: shape, viewer: nil)
        let ownKey = Key(occurrence: occurrence, shape: shape, viewer: viewer)
        var personal = personal
        let claim = state.withLock { state -> Claim in
            switch step(&state, sharedKey, ownKey, personal: &personal) {
            case .answer(let result): return .answer(result)
            case .run(let key): return .run(Run(key: key, ownKey: ownKey))
            case .wait(let key):
                state.nextWaiter += 1
                // `step` waits only on a run under way.
                guard case .running(let waiters) = state.entries[key] else { preconditionFailure("a wait on no run") }
                waiters.byNumber[state.nextWaiter] = .pushed(queue, then)
                return .waiting(shared: key.viewer == nil)
            }
        }
        switch claim {
        case .answer: shared.add(1, ordering: .relaxed)
        case .run: runs.add(1, ordering: .relaxed)
        case .waiting: break
        }
        return claim
    }

    /// Counts a run made because a shared one could not be used (`.runOwn`).
    func countOwnRun() {
        runs.add(1, ordering: .relaxed)
    }

    /// Counts a result a waiter was given.
    func countShared() {
        shared.add(1, ordering: .relaxed)
    }

    /// Waits for the run of `key`; a subscriber that leaves stops waiting.
    private func wait(for key: Key) async -> Outcome {
        let waiter = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state -> Outcome? in
                    if Task.isCancelled { return .runOwn }
                    switch state.entries[key] {
                    case .running(let waiters):
                        waiters.byNumber[waiter] = .task(continuation)
                        return nil
                    case .done(let result, _): return .result(result)
                    case .personal: return .personal
                    case nil: return .again
                    }
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let continuation = state.withLock { state -> CheckedContinuation<Outcome, Never>? in
                guard case .running(let waiters) = state.entries[key], case .task(let found) = waiters.byNumber.removeValue(forKey: waiter)
                else {
                    return nil
                }
                return found
            }
            continuation?.resume(returning: .runOwn)
        }
    }

    /// A result is shared only when whole: not cut short, no errors.
    private static func isShareable(_ result: ExecutionResult) -> Bool {
        result.errors.isEmpty && !Task.isCancelled
    }

    /// Ends a run: the result is held for the subscribers to come and
    /// given to those waiting (when it may be shared), and returned.
    @discardableResult
    func finish(_ run: Run, _ result: ExecutionResult, readViewer: Bool) -> ExecutionResult {
        let (key, ownKey, shape) = (run.key, run.ownKey, run.key.shape)
        let shareable = Self.isShareable(result)
        let held = shareable ? result.encodedForSharing() : result
        let bytes = held.heldJSONBytes
        let now = clock.now
        let (waiters, outcome) = state.withLock { state -> ([Waiter], Outcome) in
            var waiters: [Waiter] = []
            if case .running(let waiting) = state.entries[key] { waiters = Array(waiting.byNumber.values) }
            guard shareable else {
                state.entries[key] = nil
                return (waiters, .runOwn)
            }
            if key.viewer == nil && readViewer {
                // This run is the viewer's own; everyone else runs theirs.
                state.entries[key] = .personal
                state.held.append((key, now))
                if state.personalShapes.count >= maxEntries { state.personalShapes = [] }
                state.personalShapes.insert(shape)
                if state.entries[ownKey] == nil {
                    state.entries[ownKey] = .done(held, bytes: bytes)
                    state.held.append((ownKey, now))
                    state.heldBytes += bytes
                }
                evict(&state, now: now)
                return (waiters, .personal)
            }
            state.entries[key] = .done(held, bytes: bytes)
            state.held.append((key, now))
            state.heldBytes += bytes
            evict(&state, now: now)
            return (waiters, .result(held))
        }
        Self.tell(waiters, outcome)
        return held
    }

    /// Resumes the waiting tasks, and calls the pushed subscriptions with
    /// one job per queue rather than one per subscriber.
    private static func tell(_ waiters: [Waiter], _ outcome: Outcome) {
        var queues: [ObjectIdentifier: (SubscriberQueue, [@Sendable (Outcome) -> Void])] = [:]
        for waiter in waiters {
            switch waiter {
            case .task(let continuation): continuation.resume(returning: outcome)
            case .pushed(let queue, let then): queues[queue.id, default: (queue, [])].1.append(then)
            }
        }
        for (queue, calls) in queues.values {
            queue.async { for call in calls { call(outcome) } }
        }
    }

    /// Drops the oldest results past their time or past the bounds.
    private func evict(_ state: inout State, now: ContinuousClock.Instant) {
        while state.firstHeld < state.held.count {
            let (key, at) = state.held[state.firstHeld]
            let overBounds = state.held.count - state.firstHeld > maxEntries || state.heldBytes > maxHeldBytes
            guard overBounds || now - at > holdFor else { break }
            switch state.entries[key] {
            case .done(_, let bytes):
                state.heldBytes -= bytes
                state.entries[key] = nil
            case .personal: state.entries[key] = nil
            case .running, nil: break
            }
            state.firstHeld += 1
        }
        if state.firstHeld > 1_024 && state.firstHeld * 2 > state.held.count {
            state.held.removeFirst(state.firstHeld)
            state.firstHeld = 0
        }
    }

    /// How many subscribers wait now for another's run.
    var waiting: Int {
        state.withLock { state in
            state.entries.values.reduce(0) { count, entry in
                if case .running(let waiters) = entry { count + waiters.byNumber.count } else { count }
            }
        }
    }

    /// How many results are held now.
    public var heldResults: Int {
        state.withLock { state in
            state.entries.values.reduce(0) { count, entry in
                if case .done = entry { count + 1 } else { count }
            }
        }
    }
}
