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
    private var subscribers: [String: [UInt64: AsyncStream<Event>.Continuation]] = [:]
    /// Notifications a subscriber's stream had no room for (it keeps the
    /// newest 10,000 while its reader falls behind), since the start.
    public let droppedEvents = Atomic<Int>(0)
    private var nextSubscriber: UInt64 = 0
    /// Numbers notifications; starts at random so that two listeners in
    /// one process (two servers, in tests) do not number alike.
    private var notificationsHeard = UInt64.random(in: 0..<(1 << 62))
    private var closed = false
    private var backoff: Duration
    private var connectionsMade = 0
    /// The number of the connection listening now; 0 while there is none.
    private let listening = Atomic<Int>(0)

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

    /// The events of `channel`, from now until the stream is dropped or the
    /// listener closed.
    public func events(on channel: String) async throws -> AsyncStream<Event> {
        try await loop.onLoop {
            let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(10_000))
            let id = nextSubscriber
            nextSubscriber += 1
            let first = subscribers[channel, default: [:]].isEmpty
            subscribers[channel, default: [:]][id] = continuation
            continuation.onTermination = { [weak self] _ in
                guard let self else { return }
                self.loop.enqueue { self.unsubscribe(channel, id) }
            }
            if first, let connection, connection.isOpen {
                _ = try await connection.query("LISTEN \(Self.quoted(channel))")
            }
            return stream
        }
    }

    /// Ends every stream and closes the connection.
    public func close() async {
        await loop.onLoop {
            closed = true
            listening.store(0, ordering: .releasing)
            connection?.close()
            connection = nil
            for continuation in subscribers.values.flatMap(\.values) { continuation.finish() }
            subscribers = [:]
        }
    }

    private func unsubscribe(_ channel: String, _ id: UInt64) {
        subscribers[channel]?[id] = nil
        guard subscribers[channel]?.isEmpty == true else { return }
        subscribers[channel] = nil
        if let connection, connection.isOpen {
            Task(executorPreference: loop) { _ = try? await connection.query("UNLISTEN \(Self.quoted(channel))") }
        }
    }

    private func connect() async throws {
        let connection = try await PostgresConnection.connect(configuration, on: loop)
        connection.onNotification = { [weak self] notification in
            guard let self else { return }
            notificationsHeard += 1
            var notification = notification
            notification.sequence = notificationsHeard
            for continuation in subscribers[notification.channel]?.values ?? [:].values {
                if case .dropped = continuation.yield(.notification(notification)) {
                    droppedEvents.add(1, ordering: .relaxed)
                }
            }
        }
        connection.onClose = { [weak self] _ in self?.connectionLost() }
        for channel in subscribers.keys {
            _ = try await connection.query("LISTEN \(Self.quoted(channel))")
        }
        self.connection = connection
        backoff = configuration.reconnectBackoff.first
        connectionsMade += 1
        listening.store(connectionsMade, ordering: .releasing)
    }

    private func connectionLost() {
        listening.store(0, ordering: .releasing)
        connection = nil
        guard !closed else { return }
        Task(executorPreference: loop) { [self] in
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
                for continuation in subscribers.values.flatMap(\.values) { continuation.yield(.reconnected) }
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
