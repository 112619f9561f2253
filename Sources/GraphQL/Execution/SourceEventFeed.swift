/// A serial queue a pushed subscription lives on (a server's event loop):
/// its events arrive there, its executions run there as tasks of
/// `executor`, and its results are handed over there.
public struct SubscriberQueue: Sendable {
    public let executor: any TaskExecutor
    private let enqueue: @Sendable (@escaping @Sendable () -> Void) -> Void
    /// The queue's subscriptions waiting for shared runs, gathered one wait
    /// per run; nil when each waits on its own. One per queue: every
    /// `SubscriberQueue` of one serial queue must be given the same.
    let waits: SharedRunWaits?

    /// `enqueue` runs a closure on the queue, in the order given.
    public init(
        executor: any TaskExecutor, waits: SharedRunWaits? = nil,
        enqueue: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void
    ) {
        self.executor = executor
        self.waits = waits
        self.enqueue = enqueue
    }

    /// Tells queues apart: work for many subscribers of one queue is sent as one job.
    public var id: ObjectIdentifier { ObjectIdentifier(executor) }

    public func async(_ work: @escaping @Sendable () -> Void) { enqueue(work) }
}

/// A source event stream (spec §6.2.3.1) that calls its subscriber with
/// each event instead of being asked for the next: what lets thousands of
/// subscribers of one topic wait with no task and no suspended frames
/// each, and a process hand an event to all of them in one pass.
public struct SourceEventFeed: Sendable {
    public enum Delivery: Sendable {
        case event(Parent)
        /// The stream's end; with an error when it failed.
        case end((any Error)?)
    }

    /// Starts the events: `deliver` is called with each, in order, on
    /// `queue` (on any thread when nil), until the returned function is
    /// called or `.end` is delivered. Events that came before the start
    /// (after the source was made) are delivered first.
    public typealias Start =
        @Sendable (_ queue: SubscriberQueue?, _ deliver: @escaping @Sendable (Delivery) -> Void) -> @Sendable () -> Void

    let start: Start
    /// Lets go of a source that will never start (its subscription ended
    /// first): what it holds for its start, and its place at the source.
    let discard: @Sendable () -> Void

    public init(discard: @escaping @Sendable () -> Void = {}, start: @escaping Start) {
        self.start = start
        self.discard = discard
    }

    /// A stream as a feed, read by one task for its subscriber (on the
    /// queue's executor), as a subscription whose source is a stream is
    /// read: for a field whose source is a feed in some cases only.
    public init(reading stream: AsyncThrowingStream<Parent, any Error>) {
        self.init { queue, deliver in
            let task = Task(executorPreference: queue?.executor) {
                do {
                    for try await event in stream { deliver(.event(event)) }
                    deliver(.end(nil))
                } catch {
                    deliver(.end(error))
                }
            }
            return { task.cancel() }
        }
    }

    /// The feed as a stream, for a consumer that asks for each event.
    var stream: AsyncThrowingStream<Parent, any Error> {
        AsyncThrowingStream { continuation in
            let stop = start(nil) { delivery in
                switch delivery {
                case .event(let event): continuation.yield(event)
                case .end(let error): continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in stop() }
        }
    }
}

/// A subscription root field's source event stream made as a feed.
public typealias SubscriptionFeedSource = @Sendable (ResolverInput) async throws -> SourceEventFeed
