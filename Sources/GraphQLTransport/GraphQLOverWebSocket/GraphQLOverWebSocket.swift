import GraphQL
import HuddleRuntime
import TraceContext
import Tracing

/// GraphQL over WebSocket: what both subprotocols share — the schema, the
/// documents, authentication from the connection_init payload, and limits.
public final class GraphQLOverWebSocket: Sendable {
    public struct Configuration: Sendable {
        /// A client must send connection_init within this (else 4408).
        public var connectionInitTimeout = Duration.seconds(3)
        /// Operations running at once on one connection.
        public var maxSubscriptions = 100
        /// How often the server pings (graphql-transport-ws) or sends `ka`
        /// (graphql-ws) so proxies keep an idle socket open.
        public var keepAliveInterval = Duration.seconds(12)
        /// The document cache, the limits, introspection, suggestions, where waiting work runs.
        public var operations = GraphQLOperationSettings()

        public init() {}
    }

    /// Decides from the connection_init payload whether the client may
    /// connect; returns the context its operations run with, or nil to
    /// refuse (4403 Forbidden); throws when it cannot tell now (the socket
    /// is closed with 1013, try again later, and the client is not told it
    /// is forbidden).
    public typealias Authorizer =
        @Sendable (_ payload: [GraphQLValue.Member], _ request: HTTPRequest) async throws(ServiceUnavailable) -> (any Sendable)?

    /// graphql-transport-ws first; graphql-ws is subscriptions-transport-ws,
    /// the legacy protocol of the same name's older library.
    public static let subprotocols = ["graphql-transport-ws", "graphql-ws"]

    public let schema: ExecutableSchema
    public let configuration: Configuration
    let documents: DocumentCache
    let authorize: Authorizer
    /// Counts the operations running; the server's, so /metrics shows them.
    let metrics: Metrics?

    public init(
        schema: ExecutableSchema, configuration: Configuration = Configuration(), metrics: Metrics? = nil,
        authorize: @escaping Authorizer = { _, _ in () }
    ) {
        self.schema = schema
        self.configuration = configuration
        self.metrics = metrics
        documents = configuration.operations.makeDocumentCache(for: schema.schema)
        self.authorize = authorize
    }

    /// The service to give an `HTTPServer`: sessions by the agreed subprotocol.
    public func service(allowedOrigins: [String]) -> WebSocketService {
        var service = WebSocketService(supportedSubprotocols: Self.subprotocols, allowedOrigins: allowedOrigins) { [self] request, socket in
            if socket.subprotocol == "graphql-ws" {
                return GraphQLWSLegacySession(service: self, request: request, socket: socket)
            }
            return GraphQLTransportWSSession(service: self, request: request, socket: socket)
        }
        // A client offering no known subprotocol hears 4406 from the session, as the protocol says.
        service.requireSubprotocol = false
        return service
    }

    /// The outcome of one operation's start.
    enum Start {
        /// Errors before execution (parse, validation, variables): no data.
        case failed([GraphQLError])
        /// A query or mutation's single result.
        case single(ExecutionResult)
        /// A query or mutation that defers: its initial result, then the rest.
        case incremental(ExecutionResult, IncrementalExecution)
        /// A subscription, started with `SubscriptionFeed.start`.
        case feed(SubscriptionFeed)
    }

    /// Starts `request`; what it selects (its type and name) goes into
    /// `record`, for its log line. A subscription's responses are pushed
    /// on `queue` (the socket's loop).
    func start(_ request: GraphQLRequest, context: any Sendable, record: SessionTasks.OperationRecord, queue: SubscriberQueue) async
        -> Start
    {
        let start = await Suggestions.$areHidden.withValue(configuration.operations.hidesSuggestions) {
            await startOperation(request, context: context, record: record, queue: queue)
        }
        switch start {
        case .failed(let errors): record.count(errors)
        case .single(let result), .incremental(let result, _): record.count(result.errors)
        case .feed: record.started()
        }
        return start
    }

    /// Request errors carry codes as GraphQL over HTTP's do (parse and
    /// validation codes come from the document cache).
    private func startOperation(
        _ request: GraphQLRequest, context: any Sendable, record: SessionTasks.OperationRecord, queue: SubscriberQueue
    ) async -> Start {
        var request = request
        record.name = request.operationName.map(LoggedOperation.clamped)
        if case .failure(let refusal) = configuration.operations.trustedDocuments?.resolve(&request) {
            return .failed([.coded(refusal.message, code: refusal.code)])
        }
        guard let query = request.query else { return .failed([.coded("Must provide query string.", code: "BAD_REQUEST")]) }
        let document: Document
        let source: Source
        let memo: OperationMemo
        switch documents.entry(for: query) {
        case .invalid(let errors): return .failed(errors)
        case .valid(let validDocument, let validSource, let validMemo):
            (document, source, memo) = (validDocument, validSource, validMemo)
        }
        let operation: OperationDefinition
        switch selectOperation(document, request.operationName) {
        case .failure(let error): return .failed([error.coded(ifUncoded: "OPERATION_RESOLUTION_FAILURE")])
        case .success(let selected): operation = selected
        }
        record.type = operation.operation.rawValue
        record.name = record.name ?? operation.name.map { LoggedOperation.clamped($0.value) }
        if operation.operation == .subscription {
            // Each event runs as its own response, with a context of its own
            // when the connection's context makes them (fresh loaders).
            let makeContext: @Sendable () -> any Sendable
            if let maker = context as? OperationContextMaking {
                makeContext = { maker.makeOperationContext() }
            } else {
                makeContext = { context }
            }
            switch await subscribe(
                schema: schema, document: document, source: source, operationName: request.operationName,
                variables: request.variables, context: makeContext, limits: configuration.operations.executionLimits,
                workExecutor: configuration.operations.workExecutor, memo: memo, sharedEvents: configuration.operations.sharedEvents,
                pushingOn: queue, eventScope: Self.operationScope()
            ) {
            case .feed(let feed): return .feed(feed)
            case .failure(let result): return .failed(result.errors.map { $0.coded(ifUncoded: "BAD_USER_INPUT") })
            }
        }
        var operationContext = (context as? OperationContextMaking)?.makeOperationContext() ?? context
        let routing = operationContext as? OperationRouting
        if let routing { operationContext = await routing.routed(for: operation.operation, readAfter: nil) }
        let routed = operationContext
        let type = operation.operation
        return await OperationSpans.executing(operation.operation.rawValue, record.name) { () async -> Start in
            let operationContext = routed
            var result: ExecutionResult
            if configuration.operations.incrementalDelivery {
                switch await executeIncrementally(
                    schema: schema, document: document, source: source, operationName: request.operationName,
                    variables: request.variables, context: operationContext, limits: configuration.operations.executionLimits,
                    workExecutor: configuration.operations.workExecutor, memo: memo)
                {
                case .complete(let complete): result = complete
                case .incremental(var initial, let execution):
                    if type == .mutation, let routing { initial.addReadAfter(await routing.mutationEnded(cutShort: initial.wasCutShort)) }
                    return .incremental(initial, execution)
                }
            } else {
                result = await execute(
                    schema: schema, document: document, source: source, operationName: request.operationName,
                    variables: request.variables, context: operationContext,
                    limits: configuration.operations.executionLimits, workExecutor: configuration.operations.workExecutor, memo: memo
                )
            }
            if let fallback = (operationContext as? OperationRouting)?.fallback(after: result) {
                // The standby failed the query: the primary answers it.
                result = await execute(
                    schema: schema, document: document, source: source, operationName: request.operationName,
                    variables: request.variables, context: fallback, limits: configuration.operations.executionLimits,
                    workExecutor: configuration.operations.workExecutor, memo: memo)
            }
            if type == .mutation, let routing { result.addReadAfter(await routing.mutationEnded(cutShort: result.wasCutShort)) }
            return result.hasData ? .single(result) : .failed(result.errors.map { $0.coded(ifUncoded: "BAD_USER_INPUT") })
        } result: { start in
            switch start {
            case .single(let result), .incremental(let result, _): result
            case .failed, .feed: nil
            }
        }
    }

    /// The queue a socket's subscriptions are pushed on: its loop, whose
    /// subscriptions share one wait per shared run.
    static func queue(of socket: WebSocket) -> SubscriberQueue {
        let loop = socket.loop
        return SubscriberQueue(executor: loop, waits: loop.attachment { SharedRunWaits() }) { loop.enqueue($0) }
    }

    /// What an event of a pushed subscription runs in: the task-local
    /// values of the operation that started it (its request id, its
    /// trace), as the operation's own task would have given it.
    private static func operationScope() -> SubscriptionFeed.EventScope {
        let requestID = RequestID.current
        let context = InstrumentationContext.current
        return { run in
            await RequestID.$current.withValue(requestID) {
                await InstrumentationContext.$current.withValue(context) { await run() }
            }
        }
    }

    // MARK: Messages

    /// `{"id":…,"type":…,"payload":…}`, the shape both protocols use.
    static func message(id: String?, type: StaticString, payload: [UInt8]?) -> String {
        var writer = JSONWriter()
        writer.raw("{")
        if let id {
            writer.raw("\"id\":")
            writer.string(id)
            writer.raw(",")
        }
        writer.raw("\"type\":\"")
        writer.raw(type)
        writer.raw("\"")
        if let payload {
            writer.raw(",\"payload\":")
            writer.append(payload)
        }
        writer.raw("}")
        return writer.text
    }

    /// What a message's payload follows: `{"id":…,"type":…,"payload":`,
    /// the same for every event of one subscription.
    static func messagePrefix(id: String, type: StaticString) -> [UInt8] {
        var writer = JSONWriter(capacity: 64)
        writer.raw("{\"id\":")
        writer.string(id)
        writer.raw(",\"type\":\"")
        writer.raw(type)
        writer.raw("\",\"payload\":")
        return writer.bytes
    }

    static func json(_ result: ExecutionResult) -> [UInt8] {
        // A shared event's response, written once for every subscriber it goes to.
        if let encoded = result.encoded, result.errors.isEmpty { return encoded }
        var writer = JSONWriter()
        GraphQLOverHTTP.namingTheRequest(result).write(to: &writer)
        return writer.bytes
    }

    /// A response sent outside its operation's task: its errors name `requestID`.
    static func json(_ result: ExecutionResult, naming requestID: String?) -> [UInt8] {
        if let encoded = result.encoded, result.errors.isEmpty { return encoded }
        return RequestID.$current.withValue(requestID) { json(result) }
    }

    static func json(_ result: SubsequentResult) -> [UInt8] {
        var writer = JSONWriter()
        result.write(to: &writer)
        return writer.bytes
    }

    static func json(_ errors: [GraphQLError]) -> [UInt8] {
        var writer = JSONWriter()
        writer.errors(GraphQLOverHTTP.namingTheRequest(ExecutionResult(data: nil, errors: errors)).errors)
        return writer.bytes
    }
}

/// A context given for a whole websocket connection that makes a fresh
/// context for each operation (and each subscription event) it runs, so
/// per-operation state such as loader caches never outlives its operation.
public protocol OperationContextMaking: Sendable {
    func makeOperationContext() -> any Sendable
}

/// A connection's context whose sign-in can end while its socket stays open
/// (the token revoked or expired). The sessions close the socket (4403)
/// when it ends, and ask again before each operation they start.
public protocol ConnectionAuthority: Sendable {
    /// Calls `ended` (on any thread) when the sign-in ends, until the returned function is called.
    func watchEnd(_ ended: @escaping @Sendable () -> Void) -> @Sendable () -> Void
    /// Whether the sign-in still holds; throws when that cannot be told now.
    func isStillValid() async throws(ServiceUnavailable) -> Bool
}

extension GraphQLOverWebSocket {
    /// What asking a connection's authority again before an operation gave.
    enum AuthorityCheck {
        case valid, ended
        case unavailable(ServiceUnavailable)
    }

    static func check(_ context: any Sendable) async -> AuthorityCheck {
        guard let authority = context as? ConnectionAuthority else { return .valid }
        do {
            return try await authority.isStillValid() ? .valid : .ended
        } catch {
            return .unavailable(error)
        }
    }

    /// The message a socket closes with when its sign-in ends.
    static let signInEnded = "Forbidden: the connection's sign-in has ended"
}
