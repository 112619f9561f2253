import HuddleRuntime
import Synchronization

/// Watches the hot standbys that reads may go to (issue 40): whether each
/// answers as a standby, what it has replayed, and how far behind the
/// primary that leaves it. One per process, on one loop: a statement to
/// the primary and one to each standby every `pollInterval`, however many
/// workers read from them.
///
/// A standby's lag is measured against the primary's own positions, not
/// the standby's clock: the monitor keeps the primary's WAL position at
/// each poll, and a standby's lag is the age of the oldest of those it has
/// not replayed (none: no lag). An idle primary gives an idle standby no
/// lag; a standby whose stream stopped grows older by the poll.
public final class ReplicaMonitor: Sendable {
    public struct Settings: Sendable {
        /// How often the primary and each standby are asked where they are.
        public var pollInterval = Duration.milliseconds(50)
        /// A standby further behind than this leaves the rotation until it catches up.
        public var maxLag = Duration.seconds(5)
        /// How long one poll may take before its standby counts as down.
        public var pollTimeout = Duration.seconds(1)

        public init() {}
    }

    /// What is known of one standby.
    public struct Replica: Sendable {
        /// Its host and database, for logs and metrics (no password).
        public let name: String
        /// It answered its last poll, as a standby.
        public fileprivate(set) var isUp = false
        /// What it had replayed at its last poll.
        public fileprivate(set) var replayed: WALPosition?
        /// How far behind the primary it was at its last poll.
        public fileprivate(set) var lag: Duration?
        /// Up and within `maxLag`: reads may go to it.
        public fileprivate(set) var inRotation = false
    }

    public let settings: Settings
    private let loop: EventLoop
    private let primary: PostgresPool
    private let standbys: [PostgresPool]
    private let state: Mutex<State>
    private let clock = ContinuousClock()
    private let polls = Mutex<[Task<Void, Never>]>([])

    private struct State {
        var replicas: [Replica]
        /// The primary's positions at its polls, oldest first: those of the
        /// last `2 × maxLag`, and the newest one before.
        var primaryPositions: [(at: ContinuousClock.Instant, position: WALPosition)] = []
        /// When the primary last answered its poll.
        var primaryAnswered: ContinuousClock.Instant?
    }

    /// Called when the primary's position goes back: a new primary (a
    /// failover), on another timeline.
    private let onNewPrimary: (@Sendable () -> Void)?

    /// Watches `replicas` (standbys of `primary`) from `loop`, with a connection to each.
    public init(
        primary: PostgresConfiguration, replicas: [PostgresConfiguration], settings: Settings = Settings(), on loop: EventLoop,
        onNewPrimary: (@Sendable () -> Void)? = nil
    ) {
        self.settings = settings
        self.loop = loop
        self.onNewPrimary = onNewPrimary
        func polling(_ configuration: PostgresConfiguration) -> PostgresPool {
            var configuration = configuration
            configuration.minConnections = 1
            configuration.maxConnections = 1
            configuration.acquireTimeout = settings.pollTimeout
            configuration.connectTimeout = settings.pollTimeout
            configuration.statementTimeout = settings.pollTimeout
            configuration.applicationName = "huddle-replica-monitor"
            return PostgresPool(configuration, on: loop)
        }
        self.primary = polling(primary)
        standbys = replicas.map(polling)
        state = Mutex(State(replicas: replicas.map { Replica(name: Self.name(of: $0.url)) }))
    }

    /// A connection string's host and database, without its user or password.
    public static func name(of url: String) -> String {
        if let scheme = url.range(of: "://") {
            var rest = url[scheme.upperBound...]
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
            if let at = rest[..<authorityEnd].lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
            // Of the parameters, only where it is (a socket's directory, a port) stays.
            guard let query = rest.firstIndex(of: "?") else { return String(rest) }
            let kept = rest[rest.index(after: query)...].split(separator: "&").filter { $0.hasPrefix("host=") || $0.hasPrefix("port=") }
            return ([String(rest[..<query])] + kept.map(String.init)).joined(separator: " ")
        }
        let kept = url.split(separator: " ").filter { part in
            ["host=", "hostaddr=", "port=", "dbname="].contains { part.hasPrefix($0) }
        }
        return kept.joined(separator: " ")
    }

    /// Starts polling; the first poll of each server is made at once.
    public func start() {
        var tasks = [
            Task(executorPreference: loop) { [self] in
                while !Task.isCancelled {
                    await pollPrimary()
                    await loop.sleep(for: settings.pollInterval)
                }
            }
        ]
        for index in standbys.indices {
            tasks.append(
                Task(executorPreference: loop) { [self] in
                    while !Task.isCancelled {
                        await poll(index)
                        await loop.sleep(for: settings.pollInterval)
                    }
                })
        }
        polls.withLock { $0 = tasks }
    }

    public func stop() async {
        let tasks = polls.withLock { tasks in
            defer { tasks = [] }
            return tasks
        }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
        await primary.close()
        for standby in standbys { await standby.close() }
    }

    /// Every worker's pools to the standbys (`ReplicaReads`), for their statement counts.
    private let readers = Mutex<[ReplicaReads]>([])

    func adopt(_ reads: ReplicaReads) {
        readers.withLock { $0.append(reads) }
    }

    /// Statements run on each standby by the workers' pools, since they started.
    public func statementsRun() async -> [Int] {
        var counts = [Int](repeating: 0, count: standbys.count)
        for reads in readers.withLock({ $0 }) {
            for (index, pool) in reads.pools.enumerated() { counts[index] += await pool.gauges().statements }
        }
        return counts
    }

    /// The standbys now, in the order they were given.
    public var replicas: [Replica] {
        state.withLock { $0.replicas }
    }

    /// The newest position the primary gave its poll.
    public var primaryPosition: WALPosition? {
        state.withLock { $0.primaryPositions.last?.position }
    }

    /// The standbys in rotation that have replayed `position` (any in
    /// rotation for nil), by their index.
    public func readable(after position: WALPosition?) -> [Int] {
        state.withLock { state in
            state.replicas.indices.filter { index in
                let replica = state.replicas[index]
                guard replica.inRotation, let replayed = replica.replayed else { return false }
                return position.map { replayed >= $0 } ?? true
            }
        }
    }

    private func pollPrimary() async {
        // The position written: what a standby streams, and so what one
        // that has caught up has replayed (the insert position may run a
        // page header ahead of it).
        guard let rows = try? await primary.query("SELECT pg_current_wal_lsn()::text", []),
            let text = try? rows.first?.decode(String.self, at: 0), let position = WALPosition(text)
        else { return }
        let now = clock.now
        let newPrimary = state.withLock { state -> Bool in
            state.primaryAnswered = now
            // Behind the last: a new primary (a failover), whose positions are
            // of another timeline. What the old one's were says nothing now.
            var newPrimary = false
            if let last = state.primaryPositions.last?.position, position < last {
                state.primaryPositions = []
                newPrimary = true
            }
            if state.primaryPositions.last?.position != position { state.primaryPositions.append((now, position)) }
            // The newest position older than the window stays: a standby
            // that has not replayed it is behind by more than the window,
            // however long the primary then wrote nothing.
            let window = settings.maxLag * 2
            if let newestOld = state.primaryPositions.dropLast().lastIndex(where: { now - $0.at > window }), newestOld > 0 {
                state.primaryPositions.removeFirst(newestOld)
            }
            return newPrimary
        }
        if newPrimary { onNewPrimary?() }
    }

    private func poll(_ index: Int) async {
        let rows = try? await standbys[index].query("SELECT pg_is_in_recovery(), pg_last_wal_replay_lsn()::text", [])
        let row = rows?.first
        let inRecovery = (try? row?.decode(Bool.self, at: 0)) ?? false
        let replayed = (try? row?.decode(String?.self, at: 1))?.flatMap { WALPosition($0) }
        let now = clock.now
        state.withLock { state in
            var replica = state.replicas[index]
            // A server no longer in recovery was promoted: it is no standby of this primary's.
            replica.isUp = inRecovery && replayed != nil
            replica.replayed = replica.isUp ? replayed : nil
            // Lag is measured against the primary's positions: while it does
            // not answer, how far behind a standby is cannot be told.
            let primaryIsHeard = state.primaryAnswered.map { now - $0 <= settings.maxLag } ?? false
            if let replayed = replica.replayed, primaryIsHeard, !state.primaryPositions.isEmpty {
                let behind = state.primaryPositions.first { $0.position > replayed }
                replica.lag = behind.map { now - $0.at } ?? .zero
            } else {
                replica.lag = nil
            }
            replica.inRotation = replica.isUp && (replica.lag.map { $0 <= settings.maxLag } ?? false)
            state.replicas[index] = replica
        }
    }
}
