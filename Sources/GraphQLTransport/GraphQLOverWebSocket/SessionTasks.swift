import GraphQL
import HuddleRuntime
import TraceContext

/// The tasks a GraphQL WebSocket session runs on its loop, whichever
/// protocol it speaks: its operations by id, and its timers. All of them
/// stop when the session ends. An operation is a task while it starts; a
/// subscription then goes on as a feed (`follow`), with no task of its own. Used on the loop only (asserted at each
/// entry), which is what makes it Sendable.
final class SessionTasks: @unchecked Sendable {
    private let loop: EventLoop
    let metrics: Metrics?
    private var operations: [String: Operation] = [:]
    /// What stops each of its timers.
    private var timers: [() -> Void] = []
    private(set) var isStopped = false

    private let socket: WebSocket
    private let protocolName: String

    init(socket: WebSocket, protocolName: String, metrics: Metrics?) {
        self.loop = socket.loop
        self.socket = socket
        self.protocolName = protocolName
        self.metrics = metrics
    }

    /// What an operation's log line says of its run, filled as it runs.
    final class OperationRecord: @unchecked Sendable {
        var type: String?
        /// The request's operationName, or the document's own.
        var name: String?
        var events = 0
        var errorCodes: [String] = []
        /// The operation's span, when its trace is recorded.
        var trace: TraceParent?
        /// Whether the operation has started: a subscription's source
        /// stream made (its LISTEN in place), a query's execution begun.
        private(set) var isStarted = false
        var onStarted: (() -> Void)?

        func started() {
            guard !isStarted else { return }
            isStarted = true
            onStarted?()
        }

        func count(_ errors: [GraphQLError]) {
            for code in GraphQLOverHTTP.codes(of: errors) where !errorCodes.contains(code) { errorCodes.append(code) }
        }
    }

    /// One operation: its task while it starts (or runs, for a query), then
    /// its feed. Touched on the loop only, like the rest of the session.
    private final class Operation: @unchecked Sendable {
        let record = OperationRecord()
        let requestID: String
        let started = ContinuousClock.now
        var task: Task<Void, Never>?
        var feed: SubscriptionFeed?
        /// Its end is logged (and counted).
        var isEnded = false

        init(requestID: String) {
            self.requestID = requestID
        }
    }

    var operationCount: Int {
        loop.assertInLoopThread()
        return operations.count
    }

    func isRunning(_ id: String) -> Bool { operations[id] != nil }

    /// Runs an operation; `body` should stop when its task is cancelled
    /// (by `cancel(id)` or the session's end). Its errors name it by
    /// `<the socket's request id>:<id>` (`RequestID.current`), and its end
    /// is logged under that id, with what `body` recorded.
    func run(_ id: String, _ body: @escaping @Sendable (OperationRecord) async -> Void) {
        loop.assertInLoopThread()
        let metrics = metrics
        let operation = Operation(requestID: "\(socket.requestID):\(LoggedOperation.clamped(id))")
        operations[id] = operation
        operation.task = Task(executorPreference: loop) { [self] in
            let record = operation.record
            // Counted once its source is in place (`OperationRecord.started`):
            // from then on no event it follows can pass it by.
            record.onStarted = { metrics?.subscriptionStarted() }
            await RequestID.$current.withValue(operation.requestID) {
                guard let tracer = socket.tracer else { return await body(record) }
                await tracer.run(
                    "GraphQL over WebSocket", kind: .server, under: socket.traceContext,
                    attributes: [
                        "huddle.websocket.protocol": .string(protocolName), "huddle.request_id": .string(operation.requestID),
                    ]
                ) { span in
                    if span.isRecording { record.trace = span.context.traceParent }
                    await body(record)
                    span.updateAttributes { attributes in
                        if let type = record.type { attributes.set("graphql.operation.type", value: .string(type)) }
                        if let name = record.name { attributes.set("graphql.operation.name", value: .string(name)) }
                    }
                }
            }
            operation.task = nil
            if Task.isCancelled { return end(operation, cancelled: true) }
            // A subscription goes on as its feed, which ends it.
            guard operation.feed == nil else { return }
            end(operation, cancelled: false)
            if operations[id] === operation { operations[id] = nil }
        }
    }

    /// Goes on with a subscription started in `run` (the one `record`
    /// belongs to) as its feed: `respond` is given each response and
    /// `ended` called when the source ends, on the loop, with no task.
    func follow(
        _ id: String, record: OperationRecord, _ feed: SubscriptionFeed, respond: @escaping (ExecutionResult) -> Void,
        ended: @escaping () -> Void
    ) {
        loop.assertInLoopThread()
        guard let operation = operations[id], operation.record === record, !isStopped else { return feed.cancel() }
        operation.feed = feed
        feed.start(responding: respond) { [weak self] in
            ended()
            guard let self else { return }
            if self.operations[id] === operation { self.operations[id] = nil }
            self.end(operation, cancelled: false)
        }
    }

    /// Logs an operation's end (once) with what its record says, and counts it.
    private func end(_ operation: Operation, cancelled: Bool) {
        guard !operation.isEnded else { return }
        operation.isEnded = true
        let record = operation.record
        if record.isStarted { metrics?.subscriptionEnded() }
        let logger = socket.logger
        guard logger.logs(.info) else { return }
        logger.log(
            .info, "operation",
            [
                "request_id": .string(operation.requestID),
                "trace_id": record.trace.map { .string($0.traceID.hex) },
                "span_id": record.trace.map { .string($0.spanID.hex) },
                "protocol": .string(protocolName),
                "operation_type": record.type.map { .string($0) },
                "operation": record.name.map { .string($0) },
                "duration_ms": .double((ContinuousClock.now - operation.started).seconds * 1000),
                "events": record.type == "subscription" ? .int(record.events) : nil,
                "error_codes": record.errorCodes.isEmpty ? nil : .string(record.errorCodes.joined(separator: ",")),
                "outcome": .string(cancelled ? "cancelled" : "completed"),
            ])
    }

    /// Stops an operation: its task, or its feed.
    private func stop(_ operation: Operation) {
        operation.task?.cancel()
        if let feed = operation.feed {
            feed.cancel()
            // A task still starting logs the end itself, once it sees it was cancelled.
            if operation.task == nil { end(operation, cancelled: true) }
        }
    }

    /// Takes the trace a client names in its connection_init payload
    /// (`traceparent`, and `tracestate` with it) for the session's operations.
    func adoptTrace(from payload: [GraphQLValue.Member]) {
        guard let parent = payload.first(where: { $0.name == "traceparent" }), case .string(let traceparent) = parent.value else { return }
        let state = payload.first { $0.name == "tracestate" }.flatMap { member -> String? in
            if case .string(let text) = member.value { return text }
            return nil
        }
        socket.adoptTrace(traceparent: traceparent, tracestate: state)
    }

    func cancel(_ id: String) {
        loop.assertInLoopThread()
        if let operation = operations.removeValue(forKey: id) { stop(operation) }
    }

    /// Calls `action` once after `delay`, unless the session has ended.
    func after(_ delay: Duration, _ action: @escaping @Sendable () -> Void) {
        loop.assertInLoopThread()
        let cancel = loop.schedule(at: .now + delay) { [weak self] in
            guard let self, !self.isStopped else { return }
            action()
        }
        timers.append(cancel)
    }

    /// Calls `action` every `interval` until the session ends: an entry in
    /// the loop's wheel of such timers, not a task of its own.
    func every(_ interval: Duration, _ action: @escaping @Sendable () -> Void) {
        loop.assertInLoopThread()
        let repeating = loop.repeating(every: interval) { [weak self] in
            guard let self, !self.isStopped else { return }
            action()
        }
        timers.append(repeating.cancel)
    }

    /// Watches the connection's sign-in, when its context can end: `ended`
    /// runs on the loop when it does. The watch ends with the session.
    func watchAuthority(of context: any Sendable, _ ended: @escaping @Sendable () -> Void) {
        loop.assertInLoopThread()
        guard let authority = context as? ConnectionAuthority, !isStopped else { return }
        let loop = loop
        stopWatching = authority.watchEnd { loop.enqueue(ended) }
    }

    private var stopWatching: (@Sendable () -> Void)?

    func stopAll() {
        loop.assertInLoopThread()
        stopWatching?()
        stopWatching = nil
        isStopped = true
        let stopping = operations.values
        operations = [:]
        for operation in stopping { stop(operation) }
        for stop in timers { stop() }
        timers = []
    }
}
