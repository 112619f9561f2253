/// A subscription that hands each response to its consumer as it is made
/// (MapSourceToResponseEvent, spec §6.2.3.2, pushed): made by
/// `subscribe(…, pushingOn:)`.
///
/// While no event is running it holds no task: its source calls it on its
/// queue, and a response another subscriber's run made (issue 42's shared
/// executions) is handed over in the same job as the rest of that queue's.
/// Only a run of its own is a task, and only while it runs. Events come out
/// in the order the source gave them: one that arrives while another runs
/// waits its turn.
///
/// Confined to its queue: `start` and `cancel` are called there, and the
/// consumer's closures are called there. That is what makes it Sendable.
/// Its consumer keeps it: dropped, it stops as `cancel` stops it.
public final class SubscriptionFeed: @unchecked Sendable {
    /// Runs around each event's execution: gives it the operation's
    /// task-local values (its request id, its trace), which a run started
    /// from the queue would not otherwise have.
    public typealias EventScope = @Sendable (_ run: @Sendable () async -> Void) async -> Void

    /// Events kept while one runs; past this many the oldest are dropped,
    /// as a listener's stream keeps only its newest.
    public static let maxWaitingEvents = 10_000

    private let subscription: PreparedSubscription
    private let queue: SubscriberQueue
    private let eventScope: EventScope?
    private var respond: ((ExecutionResult) -> Void)?
    private var ended: (() -> Void)?
    private var stopSource: (@Sendable () -> Void)?
    /// Events waiting for their turn, from `firstWaiting` on.
    private var waiting: [Parent] = []
    private var firstWaiting = 0
    private var sourceEnd: SourceEnd?
    /// An event is running, or waiting for another subscriber's run.
    private var busy = false
    /// The consumer cannot take more for now (`pause`).
    private var paused = false
    private var stopped = false
    /// Events dropped because `maxWaitingEvents` were waiting.
    public private(set) var droppedEvents = 0

    private enum SourceEnd {
        case finished
        case failed(any Error)
    }

    init(_ subscription: PreparedSubscription, queue: SubscriberQueue, eventScope: EventScope?) {
        self.subscription = subscription
        self.queue = queue
        self.eventScope = eventScope
    }

    deinit {
        stopSource?()
        if !started { discardSource() }
    }

    /// `start` was called: the source is in `stopSource`'s hands from then on.
    private var started = false

    private func discardSource() {
        if case .feed(let feed) = subscription.events { feed.discard() }
    }

    /// Starts the events: `respond` is called with each response, and
    /// `ended` once the source has ended and every response was given
    /// (not after `cancel`).
    public func start(responding respond: @escaping (ExecutionResult) -> Void, ended: @escaping () -> Void) {
        guard !stopped, !started else { return }
        started = true
        self.respond = respond
        self.ended = ended
        switch subscription.events {
        case .feed(let feed):
            stopSource = feed.start(queue) { [weak self] delivery in self?.received(delivery) }
        case .stream(let stream):
            // A source that must be asked: one task asks it for this
            // subscription, on the queue, as `subscribe`'s consumer would.
            let task = Task(executorPreference: queue.executor) { [weak self] in
                do {
                    for try await event in stream {
                        guard let self else { return }
                        self.received(.event(event))
                    }
                    self?.received(.end(nil))
                } catch {
                    self?.received(.end(error))
                }
            }
            stopSource = { task.cancel() }
        }
    }

    /// Stops the subscription: nothing more is given to the consumer. A
    /// run under way finishes (others may be waiting for it); its
    /// response is dropped.
    public func cancel() {
        guard !stopped else { return }
        stopped = true
        if !started {
            started = true
            discardSource()
        }
        stopSource?()
        stopSource = nil
        respond = nil
        ended = nil
        waiting = []
        firstWaiting = 0
    }

    /// Holds back responses until `resume`: for a consumer that has fallen
    /// behind (a client reading slowly). Events wait meanwhile, at most
    /// `maxWaitingEvents` of them.
    public func pause() {
        paused = true
    }

    public func resume() {
        guard paused else { return }
        paused = false
        advance()
    }

    private func received(_ delivery: SourceEventFeed.Delivery) {
        guard !stopped, sourceEnd == nil else { return }
        switch delivery {
        case .event(let event):
            // The usual case, with nothing before it: no queue.
            if !busy && !paused && firstWaiting == waiting.count { return process(event, personal: false) }
            if waiting.count - firstWaiting >= Self.maxWaitingEvents {
                firstWaiting += 1
                droppedEvents += 1
            }
            waiting.append(event)
        case .end(let error):
            sourceEnd = error.map(SourceEnd.failed) ?? .finished
            let stop = stopSource
            stopSource = nil
            stop?()
        }
        advance()
    }

    /// Takes the waiting events in turn until one must run or wait.
    private func advance() {
        while !busy && !paused && !stopped {
            guard firstWaiting < waiting.count else {
                waiting = []
                firstWaiting = 0
                if let sourceEnd { finish(sourceEnd) }
                return
            }
            let event = waiting[firstWaiting]
            firstWaiting += 1
            process(event, personal: false)
        }
    }

    private func process(_ event: Parent, personal: Bool) {
        guard let sharing = subscription.sharing, let occurrence = subscription.occurrence(of: event) else {
            return run(event) { result, _ in result }
        }
        // Another subscription of this queue already waits for the run any
        // subscriber may share: this one joins its wait.
        let waits = personal ? nil : queue.waits
        let key = waits.map { _ in
            SharedRunWaits.Key(registry: ObjectIdentifier(sharing.executions), occurrence: occurrence, shape: sharing.shape)
        }
        if let waits, let key, let wait = waits.wait(for: key) {
            waits.join(wait, self, event: event)
            busy = true
            return
        }
        let wait = key.map { SharedRunWaits.Wait(key: $0, feed: self, event: event) }
        let claim = sharing.executions.claim(
            occurrence: occurrence, shape: sharing.shape, viewer: sharing.viewer, personal: personal, queue: queue
        ) { [weak self] outcome in
            if let waits, let wait {
                waits.end(wait, outcome)
            } else {
                self?.waited(outcome, for: event)
            }
        }
        switch claim {
        case .answer(let result): respond?(result)
        case .waiting(let shared):
            busy = true
            // Only a wait for the run anyone may share is anyone else's: a
            // wait for this viewer's own run (the registry knows that runs
            // of this event read the viewer) stays this subscription's.
            if shared, let waits, let wait { waits.begin(wait) }
        case .run(let shared):
            run(event) { result, readViewer in sharing.executions.finish(shared, result, readViewer: readViewer) }
        }
    }

    /// The run this subscription waited for has ended.
    func waited(_ outcome: SharedEventExecutions.Outcome, for event: Parent) {
        guard !stopped else { return }
        busy = false
        switch outcome {
        case .result(let result):
            subscription.sharing?.executions.countShared()
            respond?(result)
        case .personal: process(event, personal: true)
        case .again: process(event, personal: false)
        case .runOwn:
            subscription.sharing?.executions.countOwnRun()
            run(event) { result, _ in result }
        }
        advance()
    }

    /// Runs `event` in a task of the queue; `finish` turns the run into the response.
    private func run(_ event: Parent, finish: @escaping @Sendable (ExecutionResult, _ readViewer: Bool) -> ExecutionResult) {
        busy = true
        let subscription = subscription
        let eventScope = eventScope
        Task(executorPreference: queue.executor) { [self] in
            let ran = RunOutcome()
            if let eventScope {
                await eventScope { ran.value = await subscription.run(event) }
            } else {
                ran.value = await subscription.run(event)
            }
            let (result, readViewer) = ran.value ?? (PreparedSubscription.failed(CancellationError()), true)
            ran.value = nil
            self.ran(finish(result, readViewer))
        }
    }

    private func ran(_ result: ExecutionResult) {
        busy = false
        guard !stopped else { return }
        respond?(result)
        advance()
    }

    private func finish(_ end: SourceEnd) {
        let (respond, ended) = (respond, ended)
        cancel()
        if case .failed(let error) = end { respond?(PreparedSubscription.failed(error)) }
        ended?()
    }
}

/// A run's outcome, out of the scope it ran in.
private final class RunOutcome: @unchecked Sendable {
    // Written and read by the one task that runs the event.
    var value: (ExecutionResult, readViewer: Bool)?
}
