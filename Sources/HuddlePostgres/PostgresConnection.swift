import CLibPQ
import CLibUV
import HuddleRuntime

#if canImport(Glibc)
    import Glibc
#endif

/// A notification from `LISTEN`: the channel, its payload and the sending
/// backend's process id.
public struct PostgresNotification: Sendable, Equatable {
    public var channel: String
    public var payload: String
    public var processID: Int32
    /// Which notification this is of those the process's listener heard
    /// (1, 2, …): the same for every subscriber it hands this one to, so
    /// they can tell one event from another that says the same.
    public var sequence: UInt64 = 0
}

/// One connection to PostgreSQL, driven by its event loop without blocking
/// it: libpq in non-blocking pipeline mode, its socket watched by `uv_poll`.
///
/// Statements sent in the same loop turn go out together and are answered
/// in order, so independent statements cost one round trip between them.
/// Each statement ends with its own Sync, so each runs in its own implicit
/// transaction (outside `BEGIN`) and one failing leaves the others alone.
/// Statements are prepared on first use and the names kept per connection.
///
/// Everything here runs on the loop's thread, which is what makes it
/// Sendable: the async methods hop there when called from elsewhere, the
/// others assert it (`assertInLoopThread`).
public final class PostgresConnection: @unchecked Sendable, PostgresQuerying {
    public let loop: EventLoop
    let configuration: PostgresConfiguration

    private enum State { case connecting, ready, closed }
    private var state = State.connecting
    private var connection: OpaquePointer?
    var connectionHandle: OpaquePointer? {
        loop.assertInLoopThread()
        return connection
    }
    private var poll: UnsafeMutablePointer<uv_poll_t>?
    private var polledSocket: Int32 = -1
    private var pollEvents: Int32 = 0
    private var wantsWrite = false
    private var connectContinuation: CheckedContinuation<Void, any Error>?
    private var connectTimer: UnsafeMutablePointer<uv_timer_t>?

    /// What the connection expects from the server next, in order.
    private enum Expected {
        case prepare(sql: String)
        /// `sent`: when it was handed to libpq, for its duration.
        case query(CheckedContinuation<PostgresRows, any Error>, simple: Bool, sent: ContinuousClock.Instant)
        case sync
    }
    private var expected = RingBuffer<Expected>()
    private var currentResult: OpaquePointer?
    private var currentError: PostgresError?
    /// Why the statements after a failed Prepare were skipped.
    private var abortError: PostgresError?

    /// Tasks waiting for every statement in flight to finish.
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []

    private var preparedStatements: [String: String] = [:]
    private var nextStatementNumber = 0

    /// Statements sent and not yet answered.
    public private(set) var statementsInFlight = 0
    /// When the connection last finished a statement (the loop's clock, ms).
    private(set) var lastUsed: UInt64 = 0
    /// Set by the owner: called once when the connection closes or breaks.
    var onClose: ((PostgresError) -> Void)?
    /// Set by a listener: called for each notification.
    var onNotification: ((PostgresNotification) -> Void)?
    /// Set by the owner: called each time a statement finishes.
    /// Called as each statement finishes (or fails), with how long it took
    /// from its sending.
    var onStatementFinished: ((Duration) -> Void)?

    /// The server process serving this connection.
    public private(set) var backendProcessID: Int32 = 0

    public var isOpen: Bool {
        loop.assertInLoopThread()
        return state == .ready
    }

    private init(loop: EventLoop, configuration: PostgresConfiguration) {
        self.loop = loop
        self.configuration = configuration
    }

    deinit {
        if let connection { PQfinish(connection) }
        currentResult.map { PQclear($0) }
    }

    /// Opens a connection on `loop`.
    public static func connect(
        _ configuration: PostgresConfiguration, on loop: EventLoop
    ) async throws -> PostgresConnection {
        let connection = PostgresConnection(loop: loop, configuration: configuration)
        try await loop.onLoop { try await connection.open() }
        return connection
    }

    // MARK: Connecting

    private func open() async throws {
        // PQconnectStartParams may resolve a host name, which waits on the
        // network; it runs on libuv's thread pool, the polling on the loop.
        let parameters = configuration.connectionParameters
        let started = await loop.runInThreadPool { () -> UnsafeSendable<OpaquePointer?> in
            var keywords = parameters.map { strdup($0.0) }
            var values = parameters.map { strdup($0.1) }
            keywords.append(nil)
            values.append(nil)
            defer {
                keywords.forEach { free($0) }
                values.forEach { free($0) }
            }
            let connection = keywords.withUnsafeBufferPointer { keywordPointer in
                values.withUnsafeBufferPointer { valuePointer in
                    keywordPointer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { k in
                        valuePointer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { v in
                            PQconnectStartParams(k.baseAddress, v.baseAddress, 1)
                        }
                    }
                }
            }
            return UnsafeSendable(connection)
        }
        connection = started.value
        guard !Task.isCancelled else {
            tearDown()
            throw Self.cancelledOpening
        }
        // libpq prints notices (and the server's goodbye on a shutdown) on
        // standard error, in among the server's JSON log lines; drop them.
        if let connection { PQsetNoticeProcessor(connection, { _, _ in }, nil) }
        guard let connection, PQstatus(connection) != CONNECTION_BAD else {
            let error = PostgresError(connection: started.value, "could not connect to PostgreSQL")
            state = .closed
            throw error
        }
        // A caller that gives up (a pool closing) ends the opening at once,
        // rather than leaving a socket watched until the connect timeout.
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                guard !Task.isCancelled else {
                    tearDown()
                    return continuation.resume(throwing: Self.cancelledOpening)
                }
                connectContinuation = continuation
                startConnectTimer()
                // PQconnectStart leaves the first step waiting for the socket to be writable.
                watchSocket(events: Int32(UV_WRITABLE.rawValue))
            }
        } onCancel: {
            loop.enqueue { [self] in finishConnecting(Self.cancelledOpening) }
        }
    }

    private static var cancelledOpening: PostgresError {
        PostgresError(.cancelled, "the opening of a PostgreSQL connection was cancelled")
    }

    private func startConnectTimer() {
        let timer = UnsafeMutablePointer<uv_timer_t>.allocate(capacity: 1)
        uv_timer_init(loop.uv, timer)
        timer.pointee.data = Unmanaged.passUnretained(self).toOpaque()
        connectTimer = timer
        uv_timer_start(
            timer,
            { timer in
                let connection = Unmanaged<PostgresConnection>.fromOpaque(timer!.pointee.data).takeUnretainedValue()
                connection.finishConnecting(
                    PostgresError(
                        .connection, "could not connect to PostgreSQL: timed out after \(connection.configuration.connectTimeout)"))
            }, UInt64(max(1, configuration.connectTimeout.milliseconds)), 0)
    }

    private func stopConnectTimer() {
        guard let timer = connectTimer else { return }
        connectTimer = nil
        uv_timer_stop(timer)
        uv_close(UnsafeMutableRawPointer(timer).assumingMemoryBound(to: uv_handle_t.self)) { handle in
            handle!.withMemoryRebound(to: uv_timer_t.self, capacity: 1) { $0.deallocate() }
        }
    }

    /// One step of PQconnectPoll, when the socket is ready for it.
    private func continueConnecting() {
        guard let connection else { return }
        // libpq may move to another socket (another host, or retrying
        // without SSL); stop watching before it can close this one.
        stopWatching()
        switch PQconnectPoll(connection) {
        case PGRES_POLLING_READING: watchSocket(events: Int32(UV_READABLE.rawValue))
        case PGRES_POLLING_WRITING: watchSocket(events: Int32(UV_WRITABLE.rawValue))
        case PGRES_POLLING_OK:
            guard PQsetnonblocking(connection, 1) == 0, PQenterPipelineMode(connection) == 1 else {
                return finishConnecting(PostgresError(connection: connection, "could not enter pipeline mode"))
            }
            backendProcessID = PQbackendPID(connection)
            state = .ready
            lastUsed = uv_now(loop.uv)
            watchSocket(events: Int32(UV_READABLE.rawValue))
            finishConnecting(nil)
        default:
            finishConnecting(PostgresError(connection: connection, "could not connect to PostgreSQL"))
        }
    }

    private func finishConnecting(_ error: PostgresError?) {
        stopConnectTimer()
        guard let continuation = connectContinuation else { return }
        connectContinuation = nil
        if let error {
            tearDown()
            continuation.resume(throwing: error)
        } else {
            continuation.resume()
        }
    }

    // MARK: The socket

    private func watchSocket(events: Int32) {
        guard let connection else { return }
        let socket = PQsocket(connection)
        guard socket >= 0 else { return fail(PostgresError(connection: connection, "lost the connection's socket")) }
        if poll == nil || socket != polledSocket {
            closePoll()
            let handle = UnsafeMutablePointer<uv_poll_t>.allocate(capacity: 1)
            guard uv_poll_init_socket(loop.uv, handle, socket) == 0 else {
                handle.deallocate()
                return fail(PostgresError(.connection, "cannot watch the PostgreSQL socket"))
            }
            // The handle holds the connection until it is closed.
            handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
            poll = handle
            polledSocket = socket
            pollEvents = 0
        }
        guard events != pollEvents else { return }
        pollEvents = events
        uv_poll_start(poll, events) { handle, status, events in
            let connection = Unmanaged<PostgresConnection>.fromOpaque(handle!.pointee.data).takeUnretainedValue()
            connection.socketReady(status: status, events: events)
        }
    }

    private func stopWatching() {
        guard let poll, pollEvents != 0 else { return }
        uv_poll_stop(poll)
        pollEvents = 0
    }

    private func closePoll() {
        guard let handle = poll else { return }
        poll = nil
        polledSocket = -1
        pollEvents = 0
        uv_poll_stop(handle)
        uv_close(UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_handle_t.self)) { handle in
            Unmanaged<PostgresConnection>.fromOpaque(handle!.pointee.data!).release()
            handle!.withMemoryRebound(to: uv_poll_t.self, capacity: 1) { $0.deallocate() }
        }
    }

    private func socketReady(status: Int32, events: Int32) {
        if state == .connecting {
            return continueConnecting()
        }
        guard status >= 0, let connection else {
            return fail(PostgresError(.connection, "the connection to PostgreSQL failed: \(String(cString: uv_strerror(status)))"))
        }
        if events & Int32(UV_READABLE.rawValue) != 0 {
            guard PQconsumeInput(connection) == 1 else {
                return fail(PostgresError(connection: connection, "the connection to PostgreSQL was lost"))
            }
            readResults()
            deliverNotifications()
        }
        if wantsWrite, state == .ready { flush() }
    }

    /// Sends what libpq has buffered; when the socket is full, waits for it
    /// to be writable (reading meanwhile, so the server never blocks on us).
    private func flush() {
        guard let connection else { return }
        switch PQflush(connection) {
        case 0: wantsWrite = false
        case 1: wantsWrite = true
        default: return fail(PostgresError(connection: connection, "could not send to PostgreSQL"))
        }
        watchSocket(events: Int32(UV_READABLE.rawValue) | (wantsWrite ? Int32(UV_WRITABLE.rawValue) : 0))
    }

    // MARK: Statements

    /// Runs one statement with its parameters bound.
    public func query(_ sql: String, _ parameters: [any PostgresEncodable]) async throws -> PostgresRows {
        try await loop.onLoop { try await self.spanning(sql) { try await self.send(sql, parameters) } }
    }

    private func send(_ sql: String, _ parameters: [any PostgresEncodable]) async throws -> PostgresRows {
        guard state == .ready, let connection else {
            throw PostgresError(.connection, "the connection to PostgreSQL is closed")
        }
        // Every value is NUL-terminated text in one buffer.
        var buffer: [UInt8] = []
        var offsets: [Int?] = []
        offsets.reserveCapacity(parameters.count)
        for parameter in parameters {
            if parameter.isPostgresNull {
                offsets.append(nil)
            } else {
                let start = buffer.count
                offsets.append(start)
                parameter.encodePostgresText(into: &buffer)
                // libpq reads each value up to its first NUL: a value holding
                // one would be stored cut short, so it is never sent.
                if buffer.withUnsafeBufferPointer({ memchr($0.baseAddress! + start, 0, $0.count - start) != nil }) {
                    throw PostgresError.nulCharacter
                }
                buffer.append(0)
            }
        }
        return try await withCheckedThrowingContinuation { continuation in
            let sent: Bool = buffer.withUnsafeBufferPointer { bytes in
                let base = UnsafeRawPointer(bytes.baseAddress)?.assumingMemoryBound(to: CChar.self)
                let values: [UnsafePointer<CChar>?] = offsets.map { offset in offset.map { base! + $0 } }
                let count = Int32(values.count)
                if let name = preparedStatements[sql] {
                    return PQsendQueryPrepared(connection, name, count, values, nil, nil, 0) == 1
                }
                if preparedStatements.count < configuration.maxPreparedStatements {
                    let name = "huddle_\(nextStatementNumber)"
                    nextStatementNumber += 1
                    guard PQsendPrepare(connection, name, sql, 0, nil) == 1 else { return false }
                    preparedStatements[sql] = name
                    expected.push(.prepare(sql: sql))
                    return PQsendQueryPrepared(connection, name, count, values, nil, nil, 0) == 1
                }
                return PQsendQueryParams(connection, sql, count, nil, values, nil, nil, 0) == 1
            }
            guard sent, PQpipelineSync(connection) == 1 else {
                continuation.resume(throwing: PostgresError(connection: connection, "could not send the statement"))
                return fail(PostgresError(connection: connection, "could not send to PostgreSQL"))
            }
            expected.push(.query(continuation, simple: false, sent: .now))
            expected.push(.sync)
            statementsInFlight += 1
            flush()
        }
    }

    /// Runs SQL text that may hold several statements (a migration file),
    /// through the simple query protocol, with no parameters. Waits for the
    /// pipeline to be idle, since it leaves pipeline mode meanwhile.
    public func execute(script sql: String) async throws {
        try await loop.onLoop {
            if !self.expected.isEmpty {
                await withCheckedContinuation { self.idleWaiters.append($0) }
            }
            guard self.state == .ready, let connection = self.connection else {
                throw PostgresError(.connection, "the connection to PostgreSQL is closed")
            }
            _ = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<PostgresRows, any Error>) in
                guard PQexitPipelineMode(connection) == 1, PQsendQuery(connection, sql) == 1 else {
                    return continuation.resume(throwing: PostgresError(connection: connection, "could not send the script"))
                }
                self.expected.push(.query(continuation, simple: true, sent: .now))
                self.statementsInFlight += 1
                self.flush()
            }
        }
    }

    /// Reads every result that has fully arrived and completes its statement.
    private func readResults() {
        guard let connection else { return }
        while let next = expected.first, state == .ready, PQisBusy(connection) == 0 {
            let result = PQgetResult(connection)
            switch next {
            case .sync:
                guard let result else { return }
                let status = PQresultStatus(result)
                PQclear(result)
                if status == PGRES_PIPELINE_SYNC {
                    expected.removeFirst()
                    abortError = nil
                }
            case .prepare(let sql):
                guard let result else {
                    expected.removeFirst()
                    continue
                }
                if PQresultStatus(result) != PGRES_COMMAND_OK {
                    preparedStatements[sql] = nil
                    if PQresultStatus(result) == PGRES_FATAL_ERROR { abortError = PostgresError(result: result) }
                }
                PQclear(result)
            case .query(let continuation, let simple, let sent):
                guard let result else {
                    expected.removeFirst()
                    statementsInFlight -= 1
                    lastUsed = uv_now(loop.uv)
                    let rows = currentResult, error = currentError
                    currentResult = nil
                    currentError = nil
                    if simple, PQenterPipelineMode(connection) != 1 {
                        fail(PostgresError(connection: connection, "could not re-enter pipeline mode"))
                    }
                    if let error {
                        rows.map { PQclear($0) }
                        continuation.resume(throwing: error)
                    } else if let rows {
                        continuation.resume(returning: PostgresRows(result: rows))
                    } else {
                        continuation.resume(throwing: PostgresError(.server, "the statement returned no result"))
                    }
                    onStatementFinished?(.now - sent)
                    if expected.isEmpty, !idleWaiters.isEmpty {
                        let waiters = idleWaiters
                        idleWaiters = []
                        waiters.forEach { $0.resume() }
                    }
                    continue
                }
                take(result, simple: simple)
            }
        }
    }

    /// Keeps a statement's result (a script's last one) or its first error.
    private func take(_ result: OpaquePointer, simple: Bool) {
        switch PQresultStatus(result) {
        case PGRES_TUPLES_OK, PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
            if currentError == nil, currentResult == nil || simple {
                currentResult.map { PQclear($0) }
                currentResult = result
                return
            }
        case PGRES_FATAL_ERROR:
            if currentError == nil { currentError = PostgresError(result: result) }
        case PGRES_PIPELINE_ABORTED:
            if currentError == nil {
                currentError = abortError ?? PostgresError(.server, "the statement was skipped after an earlier error in its pipeline")
            }
        default:
            if currentError == nil {
                currentError = PostgresError(.server, "unsupported result: \(String(cString: PQresStatus(PQresultStatus(result))))")
            }
        }
        PQclear(result)
    }

    private func deliverNotifications() {
        guard let connection else { return }
        while let notification = PQnotifies(connection) {
            let value = PostgresNotification(
                channel: String(cString: notification.pointee.relname),
                payload: String(cString: notification.pointee.extra),
                processID: notification.pointee.be_pid
            )
            PQfreemem(notification)
            onNotification?(value)
        }
    }

    // MARK: Closing

    /// Closes the connection; statements in flight fail. Callable from any
    /// thread: the closing is a job on the loop.
    public func close() {
        loop.enqueue { [self] in
            fail(PostgresError(.connection, "the connection to PostgreSQL was closed"))
        }
    }

    /// Fails everything in flight and closes, once.
    func fail(_ error: PostgresError) {
        loop.assertInLoopThread()
        if state == .connecting { return finishConnecting(error) }
        guard state != .closed else { return }
        tearDown()
        while let next = expected.popFirst() {
            if case .query(let continuation, _, _) = next { continuation.resume(throwing: error) }
        }
        statementsInFlight = 0
        let waiters = idleWaiters
        idleWaiters = []
        waiters.forEach { $0.resume() }
        let onClose = onClose
        self.onClose = nil
        onClose?(error)
    }

    private func tearDown() {
        state = .closed
        stopConnectTimer()
        closePoll()
        if let connection {
            PQfinish(connection)
            self.connection = nil
        }
        currentResult.map { PQclear($0) }
        currentResult = nil
        preparedStatements = [:]
    }
}

/// A value carried across threads by a hand-over the compiler cannot see
/// (libuv's work queue), used once on the other side.
struct UnsafeSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

extension PostgresConnection {
    /// Whether a transaction is open, as of the last statement finished.
    var transactionStatus: PGTransactionStatusType {
        loop.assertInLoopThread()
        return connectionHandle.map { PQtransactionStatus($0) } ?? PQTRANS_UNKNOWN
    }
}
