import CLibUV
import Foundation
import HuddleRuntime
import Synchronization

/// The process's one `LISTEN` connection: it listens on the channels that
/// have subscribers and hands each notification to them.
///
/// When the connection breaks (PostgreSQL restarted, say) notifications
/// sent meanwhile are lost; the listener reconnects with backoff, listens
/// again, and tells every subscriber `.reconnected`, so they catch up from
/// the database. Notifications should carry ids, not documents: PostgreSQL
/// limits a payload to 8,000 bytes.
///
/// The listener lives on one loop; subscribers may consume their streams
/// on any.
public final class PostgresListener: @unchecked Sendable {
    public enum Event: Sendable, Equatable {
        case notification(PostgresNotification)
        /// Listening again after a break; notifications may have been missed.
        case reconnected
    }

    public let loop: EventLoop
    public let configuration: PostgresConfiguration
    private var connection: PostgresConnection?
    private var subscribers: [String: [UInt64: Subscriber]] = [:]
    /// How a channel's events reach its subscribers, worked out once and
    /// kept until the channel's subscribers change: an event heard by
    /// thousands then costs one job per loop, not a pass over them all.
    private var routes: [String: Route] = [:]
    /// Notifications a subscriber's stream had no room for (it keeps the
    /// newest 10,000 while its reader falls behind), since the start.
    public let droppedEvents = Atomic<Int>(0)
    private var nextSubscriber: UInt64 = 0
    /// Numbers notifications; starts at random so that two listeners in
    /// one process (two servers, in tests) do not number alike.
    private var notificationsHeard = UInt64.random(in: 0..<(1 << 62))
    fileprivate private(set) var closed = false
    private var backoff: Duration
    private var connectionsMade = 0
    /// The number of the connection listening now; 0 while there is none.
    private let listening = Atomic<Int>(0)
    /// The task getting a connection back after one was lost.
    private var reconnecting: Task<Void, Never>?

    /// Which connection is listening now (each new one gets the next
    /// number), or nil while none is, when notifications go unheard. A
    /// cache kept fresh by notifications trusts what it learned only
    /// under the same number: a change means some may have been missed.
    public var connectionNumber: Int? {
        let number = listening.load(ordering: .acquiring)
        return number == 0 ? nil : number
    }

    public init(_ configuration: PostgresConfiguration, on loop: EventLoop) {
        self.loop = loop
        self.configuration = configuration
        backoff = configuration.reconnectBackoff.first
    }

    /// Connects; throws when PostgreSQL cannot be reached at all.
    public func start() async throws {
        try await loop.onLoop { try await connect() }
    }

    /// Events a subscriber has not taken yet past which the oldest are
    /// dropped (counted in `droppedEvents`).
    static let maxUnreadEvents = 10_000

    /// One subscriber of a channel: a stream that is read, or a feed that is called.
    private enum Subscriber {
        case stream(AsyncStream<Event>.Continuation)
        case feed(Feed)
    }

    /// The events of `channel`, from now until the stream is dropped or the
    /// listener closed.
    public func events(on channel: String) async throws -> AsyncStream<Event> {
        try await loop.onLoop {
            let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(Self.maxUnreadEvents))
            let id = try await add(.stream(continuation), on: channel)
            continuation.onTermination = { [weak self] _ in
                guard let self else { return }
                self.loop.enqueue { self.unsubscribe(channel, id) }
            }
            return stream
        }
    }

    /// The events of `channel` from now on, for a subscriber that is
    /// called with each (`Feed.start`) rather than reading a stream:
    /// thousands of them wait with nothing running, and each event reaches
    /// all of one loop's in one job.
    public func feed(on channel: String) async throws -> Feed {
        try await loop.onLoop {
            let feed = Feed(listener: self, channel: channel)
            feed.id = try await add(.feed(feed), on: channel)
            return feed
        }
    }

    private func add(_ subscriber: Subscriber, on channel: String) async throws -> UInt64 {
        let id = nextSubscriber
        nextSubscriber += 1
        let first = subscribers[channel, default: [:]].isEmpty
        subscribers[channel, default: [:]][id] = subscriber
        routes[channel] = nil
        if first, let connection, connection.isOpen {
            do {
                _ = try await connection.query("LISTEN \(Self.quoted(channel))")
            } catch {
                unsubscribe(channel, id)
                throw error
            }
        }
        return id
    }

    /// One subscriber's events of a channel, kept from when it was made
    /// until it starts (the subscriber listens before it reads what
    /// happened so far, so that nothing falls between), then handed to
    /// its handler on its loop. Confined to the listener's loop.
    public final class Feed: @unchecked Sendable {
        fileprivate let listener: PostgresListener
        fileprivate let channel: String
        fileprivate var id: UInt64 = 0
        /// Events heard before the start, the newest `maxUnreadEvents`.
        fileprivate var early: [Event] = []
        fileprivate var loop: EventLoop?
        /// Called with each event, and with nil when the listener closes.
        fileprivate var handler: (@Sendable (Event?) -> Void)?
        fileprivate var stopped = false

        fileprivate init(listener: PostgresListener, channel: String) {
            self.listener = listener
            self.channel = channel
        }

        /// Calls `handler` with each event on `loop` (on the listener's
        /// loop when nil), the ones heard since the feed was made first,
        /// and with nil if the listener closes, until the returned
        /// function is called.
        public func start(on loop: EventLoop?, _ handler: @escaping @Sendable (Event?) -> Void) -> @Sendable () -> Void {
            let listener = listener
            listener.loop.enqueue { [self] in
                guard !stopped else { return }
                self.loop = loop
                self.handler = handler
                listener.routes[channel] = nil
                let early = self.early
                self.early = []
                if !early.isEmpty { deliver(on: loop) { for event in early { handler(event) } } }
                if listener.closed { deliver(on: loop) { handler(nil) } }
            }
            return { [self] in listener.loop.enqueue { self.stop() } }
        }

        /// Lets go of a feed that will not start: the listener forgets it.
        public func discard() {
            listener.loop.enqueue { [self] in stop() }
        }

        fileprivate func stop() {
            guard !stopped else { return }
            stopped = true
            handler = nil
            listener.unsubscribe(channel, id)
        }

        fileprivate func deliver(on loop: EventLoop?, _ work: @escaping @Sendable () -> Void) {
            if let loop { loop.enqueue(work) } else { work() }
        }
    }

    /// A channel's subscribers as its events reach them: streams one by
    /// one, started feeds by loop, feeds not started yet into their `early`.
    private struct Route {
        var streams: [AsyncStream<Event>.Continuation] = []
        var loops: [(loop: EventLoop?, handlers: [@Sendable (Event?) -> Void])] = []
        var unstarted: [Feed] = []

        init(_ channelSubscribers: [UInt64: Subscriber], listener: ObjectIdentifier) {
            var byLoop: [ObjectIdentifier: Int] = [:]
            for subscriber in channelSubscribers.values {
                switch subscriber {
                case .stream(let continuation): streams.append(continuation)
                case .feed(let feed):
                    guard let handler = feed.handler else {
                        unstarted.append(feed)
                        continue
                    }
                    let key = feed.loop.map(ObjectIdentifier.init) ?? listener
                    if let index = byLoop[key] {
                        loops[index].handlers.append(handler)
                    } else {
                        byLoop[key] = loops.count
                        loops.append((feed.loop, [handler]))
                    }
                }
            }
        }
    }

    /// Hands `event` to a channel's subscribers: the feeds of one loop in one job.
    private func deliver(_ event: Event, on channel: String) {
        guard let channelSubscribers = subscribers[channel] else { return }
        let route = routes[channel] ?? Route(channelSubscribers, listener: ObjectIdentifier(self))
        routes[channel] = route
        for continuation in route.streams {
            if case .dropped = continuation.yield(event) { droppedEvents.add(1, ordering: .relaxed) }
        }
        for feed in route.unstarted {
            if feed.early.count >= Self.maxUnreadEvents {
                feed.early.removeFirst()
                droppedEvents.add(1, ordering: .relaxed)
            }
            feed.early.append(event)
        }
        for (loop, handlers) in route.loops {
            if let loop {
                loop.enqueue { for handler in handlers { handler(event) } }
            } else {
                for handler in handlers { handler(event) }
            }
        }
    }

    /// Ends every stream and closes the connection.
    public func close() async {
        await loop.onLoop {
            closed = true
            listening.store(0, ordering: .releasing)
            reconnecting?.cancel()
            connection?.close()
            connection = nil
            for subscriber in subscribers.values.flatMap(\.values) {
                switch subscriber {
                case .stream(let continuation): continuation.finish()
                case .feed(let feed):
                    guard let handler = feed.handler else { continue }
                    feed.deliver(on: feed.loop) { handler(nil) }
                }
            }
            subscribers = [:]
            routes = [:]
        }
    }

    private func unsubscribe(_ channel: String, _ id: UInt64) {
        subscribers[channel]?[id] = nil
        routes[channel] = nil
        guard subscribers[channel]?.isEmpty == true else { return }
        subscribers[channel] = nil
        if let connection, connection.isOpen {
            Task(executorPreference: loop) { _ = try? await connection.query("UNLISTEN \(Self.quoted(channel))") }
        }
    }

    private func connect() async throws {
        let connection = try await PostgresConnection.connect(configuration, on: loop)
        // Closed while it opened: there is nothing to listen for on it.
        guard !closed else { return connection.close() }
        connection.onNotification = { [weak self] notification in
            guard let self else { return }
            notificationsHeard += 1
            var notification = notification
            notification.sequence = notificationsHeard
            deliver(.notification(notification), on: notification.channel)
        }
        connection.onClose = { [weak self] _ in self?.connectionLost() }
        for channel in subscribers.keys {
            _ = try await connection.query("LISTEN \(Self.quoted(channel))")
        }
        guard !closed else { return connection.close() }
        self.connection = connection
        backoff = configuration.reconnectBackoff.first
        connectionsMade += 1
        listening.store(connectionsMade, ordering: .releasing)
    }

    private func connectionLost() {
        listening.store(0, ordering: .releasing)
        connection = nil
        guard !closed else { return }
        // Cancelled by `close`, so that no sleep or opening connection of
        // the listener's keeps its loop from stopping.
        reconnecting = Task(executorPreference: loop) { [self] in
            defer { reconnecting = nil }
            while !closed {
                let delay = backoff
                backoff = min(backoff * 2, configuration.reconnectBackoff.last)
                await loop.sleep(for: delay)
                guard !closed else { return }
                do {
                    try await connect()
                } catch {
                    continue
                }
                for channel in subscribers.keys { deliver(.reconnected, on: channel) }
                return
            }
        }
    }

    /// A channel name as an SQL identifier (LISTEN takes no parameters).
    static func quoted(_ channel: String) -> String {
        "\"" + channel.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Sends a notification through `database` (any connection will do:
    /// every listening process receives it once the sender commits).
    public static func notify(_ channel: String, payload: String, through database: some PostgresQuerying) async throws {
        _ = try await database.query("SELECT pg_notify($1, $2)", [channel, payload])
    }
}
