import HuddleRuntime
import Synchronization

/// One worker's pools to the hot standbys, and the choice of one for an
/// operation's reads: a standby in rotation (`ReplicaMonitor`) that has
/// replayed what the reader must see, taken in turn; none (read from the
/// primary) when no standby has, after waiting at most `maxWait` for one.
public final class ReplicaReads: Sendable {
    public let monitor: ReplicaMonitor
    /// A pool per standby, in the monitor's order, on the worker's loop.
    public let pools: [PostgresPool]
    /// How long a read that must see a write waits for a standby to replay
    /// it before going to the primary.
    public let maxWait: Duration
    private let loop: EventLoop
    private let next = Atomic<Int>(0)

    public init(monitor: ReplicaMonitor, replicas: [PostgresConfiguration], maxWait: Duration, on loop: EventLoop) {
        precondition(replicas.count == monitor.replicas.count, "one pool per watched standby")
        self.monitor = monitor
        self.maxWait = maxWait
        self.loop = loop
        pools = replicas.map { PostgresPool($0, on: loop) }
        monitor.adopt(self)
    }

    /// The pool of a standby that has replayed `position` (any in rotation
    /// for nil), or nil for the primary. With `mayWait`, and a standby in
    /// rotation that may yet replay it, waits up to `maxWait` for one to.
    public func pool(after position: WALPosition?, mayWait: Bool = true) async -> PostgresPool? {
        if let pool = readable(after: position) { return pool }
        guard mayWait, position != nil, maxWait > .zero, !monitor.readable(after: nil).isEmpty else { return nil }
        let deadline = ContinuousClock.now + maxWait
        while ContinuousClock.now < deadline {
            await loop.onLoop { await loop.sleep(for: min(monitor.settings.pollInterval, deadline - .now)) }
            if let pool = readable(after: position) { return pool }
        }
        return nil
    }

    private func readable(after position: WALPosition?) -> PostgresPool? {
        let readable = monitor.readable(after: position)
        guard !readable.isEmpty else { return nil }
        return pools[readable[next.add(1, ordering: .relaxed).newValue % readable.count]]
    }

    public func close() async {
        for pool in pools { await pool.close() }
    }
}
