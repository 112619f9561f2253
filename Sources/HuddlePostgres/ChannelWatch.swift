import Synchronization

/// A channel a process follows so that what it keeps from the database can
/// be trusted: whatever the channel announces changes of is read under a
/// `Stamp`, is current while the LISTEN connection of its stamp still
/// listens (after a break notifications may have been missed), and is not
/// kept when a notification came while it was being read (the reading may
/// predate the change).
public final class ChannelWatch: Sendable {
    /// When a reading was taken: the listening connection and the
    /// notifications heard until then.
    public struct Stamp: Sendable {
        fileprivate let connection: Int
        fileprivate let notices: Int
    }

    public let channel: String
    private let listener: PostgresListener
    private let started = Mutex<Bool>(false)
    private let following = Atomic<Bool>(false)
    private let notices = Atomic<Int>(0)
    private let ended = Atomic<Bool>(false)

    /// A watch of `channel` through `listener`.
    public init(_ channel: String, listener: PostgresListener) {
        self.channel = channel
        self.listener = listener
    }

    /// Subscribes on the first call (later ones return at once), handing
    /// each notification's payload to `onNotice` once it is counted, and
    /// telling `onReconnect` when the listener listens again after a break
    /// (notifications may have been missed); nothing is stamped before,
    /// nor after the listener closes.
    public func start(
        onNotice: @escaping @Sendable (String) -> Void, onReconnect: @escaping @Sendable () -> Void = {}
    ) async throws {
        let first = started.withLock { started in
            defer { started = true }
            return !started
        }
        guard first else { return }
        let events: AsyncStream<PostgresListener.Event>
        do {
            events = try await listener.events(on: channel)
        } catch {
            started.withLock { $0 = false }
            throw error
        }
        following.store(true, ordering: .releasing)
        Task(executorPreference: listener.loop) { [self] in
            for await event in events {
                switch event {
                case .notification(let notification):
                    notices.add(1, ordering: .acquiringAndReleasing)
                    onNotice(notification.payload)
                case .reconnected:
                    onReconnect()
                }
            }
            following.store(false, ordering: .releasing)
            ended.store(true, ordering: .releasing)
        }
    }

    /// Whether the listener has closed after this watch started: it will
    /// never keep anything fresh again, and whoever holds it may let it go.
    public var hasEnded: Bool { ended.load(ordering: .acquiring) }

    /// Counts a change this process made itself, ahead of its notification:
    /// a reading stamped before is not kept.
    public func noteChange() {
        notices.add(1, ordering: .acquiringAndReleasing)
    }

    /// The stamp of a reading about to be taken; nil while no notification
    /// could be heard (what is read then is not to be kept).
    public func stamp() -> Stamp? {
        guard following.load(ordering: .acquiring), let connection = listener.connectionNumber else { return nil }
        return Stamp(connection: connection, notices: notices.load(ordering: .acquiring))
    }

    /// Whether a reading stamped `stamp` is still kept fresh: the same
    /// connection listens.
    public func isCurrent(_ stamp: Stamp) -> Bool {
        following.load(ordering: .acquiring) && listener.connectionNumber == stamp.connection
    }

    /// Whether a reading stamped `stamp` may be kept: it is current and no
    /// notification came since.
    public func mayKeep(_ stamp: Stamp) -> Bool {
        isCurrent(stamp) && notices.load(ordering: .acquiring) == stamp.notices
    }
}
