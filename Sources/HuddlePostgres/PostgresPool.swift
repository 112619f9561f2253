import CLibPQ
import CLibUV
import HuddleRuntime

/// The isolation level a transaction runs at.
public enum PostgresIsolationLevel: String, Sendable {
    case readCommitted = "READ COMMITTED"
    case repeatableRead = "REPEATABLE READ"
    case serializable = "SERIALIZABLE"
}

/// The connections of one event loop.
///
/// A statement outside a transaction goes to the least busy connection and
/// is pipelined behind whatever that connection has in flight; the pool
/// opens another connection (up to the maximum) when every open one is
/// busy. A transaction takes a connection to itself until it ends. When
/// nothing is free, callers wait in one FIFO queue, each for at most the
/// acquire timeout. Connections that break are replaced, with exponential
/// backoff while PostgreSQL does not answer; statements in flight on them
/// fail with a `.connection` error, later ones go through once it is back.
///
/// Use it from tasks on its loop (the async methods hop there otherwise).
/// Its state is touched only on that loop's thread: what makes it
/// Sendable, and what `statistics` and the waiters' hand-over assert.
public final class PostgresPool: @unchecked Sendable, PostgresQuerying {
    public let loop: EventLoop
    public let configuration: PostgresConfiguration

    private var connections: [PostgresConnection] = []
    /// Connections a transaction (or `withConnection`) holds.
    private var exclusive: Set<ObjectIdentifier> = []
    /// The connection kept from new statements so it drains for the first
    /// waiting transaction.
    private var draining: ObjectIdentifier?
    private var connecting = 0
    private var waiters = RingBuffer<Waiter>()
    private var waiting = 0
    private var closed = false
    private var reconnectScheduled = false
    /// The tasks opening a connection or waiting to, by number: cancelled
    /// when the pool closes, so that none is left watching a socket or
    /// sleeping on a loop that is to stop.
    private var background: [Int: Task<Void, Never>] = [:]
    /// The number the last of them was given.
    private var lastBackgroundNumber = 0
    private var backoff: Duration
    private var lastConnectError: PostgresError?

    public init(_ configuration: PostgresConfiguration, on loop: EventLoop) {
        precondition(configuration.maxConnections >= 1 && configuration.minConnections <= configuration.maxConnections)
        self.loop = loop
        self.configuration = configuration
        backoff = configuration.reconnectBackoff.first
    }

    /// How the pool's connections are used right now.
    public struct Statistics: Sendable, Equatable {
        public var open: Int
        /// Held by a transaction or running statements.
        public var busy: Int
        /// Callers waiting for a connection.
        public var waiting: Int
        /// Round trips made to check a connection left idle, since the pool started.
        public var healthChecks: Int
        /// Statements finished (or failed) on the pool's connections, since it started.
        public var statements: Int
        /// Connections that could not be opened, since the pool started.
        public var failedOpenings: Int
    }

    private var healthChecks = 0
    private var failedOpenings = 0
    private var statements = 0
    /// Since the pool started: each acquisition's wait for a connection
    /// (0 when one was free), and each statement's duration.
    private(set) var acquireWait = Histogram(bounds: Metrics.databaseBuckets)
    private(set) var statementDuration = Histogram(bounds: Metrics.databaseBuckets)

    /// Read on the loop's thread.
    public var statistics: Statistics {
        loop.assertInLoopThread()
        return Statistics(
            open: connections.count,
            busy: connections.filter { exclusive.contains(ObjectIdentifier($0)) || $0.statementsInFlight > 0 }.count,
            waiting: waiting,
            healthChecks: healthChecks,
            statements: statements,
            failedOpenings: failedOpenings
        )
    }

    /// Opens the minimum number of connections; throws when the first cannot
    /// be opened (so a server can refuse to start without its database).
    public func start() async throws {
        try await loop.onLoop {
            let connection = try await PostgresConnection.connect(configuration, on: loop)
            adopt(connection)
            for _ in 1..<max(1, configuration.minConnections) { openConnection() }
        }
    }

    // MARK: Statements and transactions

    public func query(_ sql: String, _ parameters: [any PostgresEncodable]) async throws -> PostgresRows {
        try await loop.onLoop {
            let connection = try await acquire(exclusive: false)
            return try await connection.query(sql, parameters)
        }
    }

    /// Runs `body` with a connection of its own, returned to the pool after.
    public func withConnection<T>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await loop.onLoop {
            let connection = try await acquire(exclusive: true)
            defer { release(connection) }
            return try await body(connection)
        }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back
    /// when it throws. A serialization failure or deadlock runs `body` again
    /// (in a new transaction), at most `transactionRetries` times, so `body`
    /// must not have effects outside the database.
    public func withTransaction<T>(
        isolation: PostgresIsolationLevel = .readCommitted,
        _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        var retries = 0
        while true {
            do {
                return try await withConnection { connection in
                    _ = try await connection.query("BEGIN ISOLATION LEVEL \(isolation.rawValue)")
                    do {
                        let value = try await body(connection)
                        _ = try await connection.query("COMMIT")
                        return value
                    } catch {
                        if connection.isOpen { _ = try? await connection.query("ROLLBACK") }
                        throw error
                    }
                }
            } catch let error as PostgresError where error.isTransient && retries < configuration.transactionRetries {
                retries += 1
            }
        }
    }

    /// Fails waiting callers and closes every connection.
    public func close() async {
        await loop.onLoop {
            closed = true
            while let waiter = waiters.popFirst() {
                waiter.finish(throwing: PostgresError(.poolClosed, "the PostgreSQL pool is closed"))
            }
            waiting = 0
            for connection in connections { connection.close() }
            connections = []
            for task in background.values { task.cancel() }
            background = [:]
        }
    }

    // MARK: Handing out connections

    private func acquire(exclusive wantsExclusive: Bool) async throws -> PostgresConnection {
        while true {
            guard !closed else { throw PostgresError(.poolClosed, "the PostgreSQL pool is closed") }
            let connection: PostgresConnection
            if let ready = wantsExclusive ? idleConnection() : sharedConnection() {
                connection = ready
                if wantsExclusive { exclusive.insert(ObjectIdentifier(connection)) }
                acquireWait.record(0)
            } else {
                let started = ContinuousClock.now
                do {
                    connection = try await wait(exclusive: wantsExclusive)
                } catch {
                    // A wait that ended without a connection counts too: the worst ones.
                    acquireWait.record((ContinuousClock.now - started).seconds)
                    throw error
                }
                acquireWait.record((ContinuousClock.now - started).seconds)
            }
            let idle = uv_now(loop.uv) - connection.lastUsed
            if idle < UInt64(configuration.healthCheckAfterIdle.milliseconds) || connection.statementsInFlight > 0 {
                return connection
            }
            // Unused for a while: it may have died quietly (a restarted
            // server, a dropped NAT entry). One round trip tells.
            healthChecks += 1
            do {
                _ = try await connection.query("SELECT 1", [])
                return connection
            } catch let error as PostgresError where error.kind == .connection {
                if wantsExclusive { release(connection) }
            }
        }
    }

    /// The least busy connection that takes more statements.
    private func sharedConnection() -> PostgresConnection? {
        var best: PostgresConnection?
        for connection in connections where connection.isOpen {
            let id = ObjectIdentifier(connection)
            guard !exclusive.contains(id), id != draining,
                connection.statementsInFlight < configuration.maxPipelineDepth
            else { continue }
            if best == nil || connection.statementsInFlight < best!.statementsInFlight { best = connection }
        }
        if let best, best.statementsInFlight > 0 { growIfAllowed() }
        return best
    }

    /// A connection with nothing in flight and no holder.
    private func idleConnection() -> PostgresConnection? {
        if let connection = connections.first(where: {
            $0.isOpen && $0.statementsInFlight == 0 && !exclusive.contains(ObjectIdentifier($0))
                && (draining == nil || draining == ObjectIdentifier($0))
        }) {
            if draining == ObjectIdentifier(connection) { draining = nil }
            return connection
        }
        return nil
    }

    private func growIfAllowed() {
        if connections.count + connecting < configuration.maxConnections { openConnection() }
    }

    private func wait(exclusive: Bool) async throws -> PostgresConnection {
        let waiter = Waiter(exclusive: exclusive, loop: loop)
        let timeout = configuration.acquireTimeout
        let timer = Task(executorPreference: loop) { [weak self, waiter] in
            await self?.loop.sleep(for: timeout)
            guard !Task.isCancelled, let self else { return }
            let reason = self.lastConnectError.map { " (last connection error: \($0.message))" } ?? ""
            if waiter.finish(throwing: PostgresError(.poolTimeout, "no PostgreSQL connection came free within \(timeout)\(reason)")) {
                self.waiting -= 1
            }
        }
        defer { timer.cancel() }
        // A caller that is cancelled (its client went away) stops waiting at once.
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiter.continuation = continuation
                waiters.push(waiter)
                waiting += 1
                growIfAllowed()
                serveWaiters()
            }
        } onCancel: { [weak self, waiter] in
            self?.loop.enqueue { [weak self] in
                guard let self else { return }
                if waiter.finish(throwing: PostgresError(.cancelled, "the wait for a PostgreSQL connection was cancelled")) {
                    self.waiting -= 1
                }
            }
        }
    }

    private func release(_ connection: PostgresConnection) {
        exclusive.remove(ObjectIdentifier(connection))
        if connection.isOpen, connection.transactionStatus != PQTRANS_IDLE, connection.statementsInFlight == 0 {
            // Left mid-transaction (a body that escaped its transaction):
            // closing is the one way to be sure nothing leaks into the next user.
            connection.close()
        }
        serveWaiters()
    }

    /// Hands free connections to waiters, first come first served.
    private func serveWaiters() {
        draining = nil
        while let waiter = waiters.first {
            if waiter.isFinished {
                waiters.removeFirst()
                continue
            }
            let connection: PostgresConnection?
            if waiter.exclusive {
                connection = idleConnection()
                if let connection { exclusive.insert(ObjectIdentifier(connection)) }
            } else {
                connection = sharedConnection()
            }
            guard let connection else {
                if waiter.exclusive {
                    // Keep new statements off one connection so it drains.
                    draining =
                        connections
                        .filter { $0.isOpen && !exclusive.contains(ObjectIdentifier($0)) }
                        .min { $0.statementsInFlight < $1.statementsInFlight }
                        .map(ObjectIdentifier.init)
                }
                if connections.isEmpty, connecting == 0 { openConnection() }
                return
            }
            waiters.removeFirst()
            waiting -= 1
            waiter.finish(returning: connection)
        }
    }

    // MARK: Opening and losing connections

    private func openConnection() {
        guard !closed else { return }
        connecting += 1
        inBackground { [self] in
            do {
                let connection = try await PostgresConnection.connect(configuration, on: loop)
                connecting -= 1
                guard !closed else { return connection.close() }
                backoff = configuration.reconnectBackoff.first
                lastConnectError = nil
                adopt(connection)
                serveWaiters()
            } catch {
                connecting -= 1
                // Given up because the pool closed: not a failure to report.
                if closed { return }
                failedOpenings += 1
                lastConnectError = error as? PostgresError ?? PostgresError(.connection, "\(error)")
                scheduleReconnect()
            }
        }
    }

    /// Runs `body` in a task on the loop that `close` cancels.
    private func inBackground(_ body: @escaping @Sendable () async -> Void) {
        lastBackgroundNumber += 1
        let number = lastBackgroundNumber
        background[number] = Task(executorPreference: loop) { [self] in
            await body()
            background[number] = nil
        }
    }

    private func adopt(_ connection: PostgresConnection) {
        connection.onClose = { [weak self, weak connection] _ in
            guard let self, let connection else { return }
            self.connectionClosed(connection)
        }
        connection.onStatementFinished = { [weak self] duration in
            guard let self else { return }
            self.statements += 1
            self.statementDuration.record(duration.seconds)
            if self.waiting > 0 { self.serveWaiters() }
        }
        connections.append(connection)
    }

    private func connectionClosed(_ connection: PostgresConnection) {
        connections.removeAll { $0 === connection }
        exclusive.remove(ObjectIdentifier(connection))
        guard !closed else { return }
        if connections.count + connecting < configuration.minConnections || waiting > 0 {
            openConnection()
        }
    }

    private func scheduleReconnect() {
        guard !closed, !reconnectScheduled,
            connections.count + connecting < configuration.minConnections || waiting > 0
        else { return }
        reconnectScheduled = true
        let delay = backoff
        backoff = min(backoff * 2, configuration.reconnectBackoff.last)
        inBackground { [self] in
            await loop.sleep(for: delay)
            reconnectScheduled = false
            guard !closed else { return }
            if connections.count + connecting < max(1, configuration.minConnections) || waiting > 0 {
                openConnection()
            }
        }
    }
}

/// A caller waiting for a connection; finished once, by a hand-over or its
/// timeout, both on the pool's loop (asserted), which is what makes it Sendable.
private final class Waiter: @unchecked Sendable {
    let exclusive: Bool
    let loop: EventLoop
    var continuation: CheckedContinuation<PostgresConnection, any Error>?
    private(set) var isFinished = false

    init(exclusive: Bool, loop: EventLoop) {
        self.exclusive = exclusive
        self.loop = loop
    }

    func finish(returning connection: PostgresConnection) {
        loop.assertInLoopThread()
        guard !isFinished else { return }
        isFinished = true
        continuation?.resume(returning: connection)
    }

    @discardableResult
    func finish(throwing error: PostgresError) -> Bool {
        loop.assertInLoopThread()
        guard !isFinished else { return false }
        isFinished = true
        continuation?.resume(throwing: error)
        return true
    }
}
