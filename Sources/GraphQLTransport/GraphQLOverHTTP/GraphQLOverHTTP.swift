import GraphQL
import HuddleRuntime
import Synchronization

/// Serves a schema by the GraphQL-over-HTTP specification: POST with a JSON
/// body, GET for queries, responses as application/graphql-response+json or
/// application/json with the statuses each calls for; batches, Apollo's
/// automatic persisted queries, CSRF prevention and CORS besides.
public final class GraphQLOverHTTP: Sendable {
    public struct Configuration: Sendable {
        /// The endpoint; the SDL is served at `path + "/schema.graphql"`.
        public var path = "/graphql"
        /// Operations in one batched (JSON array) request.
        public var maxBatchSize = 10
        /// Origins whose browsers may call the API; `"*"` allows any.
        public var allowedOrigins: [String] = []
        /// Query texts remembered for persisted-query hashes, when
        /// `persistedQueries` is not given one made for the process.
        public var maxPersistedQueries = 10_000
        /// The bytes those may take together.
        public var maxPersistedQueryBytes = 16 << 20
        /// The process's persisted queries, shared by its workers; nil
        /// makes one for this endpoint from the two settings above.
        public var persistedQueries: PersistedQueries?
        /// How often an idle subscription's event stream gets a comment, so
        /// that proxies keep it open.
        public var eventStreamKeepAlive = Duration.seconds(12)
        /// The document cache, the limits, introspection, suggestions, where waiting work runs.
        public var operations = GraphQLOperationSettings()
        /// Where the files of GraphQL multipart requests go; nil takes none
        /// (such a request is answered 415).
        public var uploads: (any GraphQLUploads)?

        public init() {}
    }

    /// Builds what resolvers get as their context, per operation; throws
    /// `ServiceUnavailable` when it cannot now (the request is then
    /// answered 503 as a whole).
    public typealias ContextBuilder = @Sendable (HTTPRequest, GraphQLRequest) async throws(ServiceUnavailable) -> any Sendable

    public let schema: ExecutableSchema
    public let configuration: Configuration
    private let documents: DocumentCache
    private let persistedQueries: PersistedQueries
    private let makeContext: ContextBuilder
    private let sdl: [UInt8]
    /// The endpoint's other paths, made once rather than for each request.
    private let schemaPath: String
    private let streamPath: String
    /// Where event-stream subscriptions are counted, beside the WebSocket's.
    private let metrics: Metrics?

    public init(
        schema: ExecutableSchema, configuration: Configuration = Configuration(), metrics: Metrics? = nil,
        context: @escaping ContextBuilder = { _, _ in () }
    ) {
        self.schema = schema
        self.configuration = configuration
        self.metrics = metrics
        documents = configuration.operations.makeDocumentCache(for: schema.schema)
        persistedQueries =
            configuration.persistedQueries
            ?? PersistedQueries(capacity: configuration.maxPersistedQueries, maxBytes: configuration.maxPersistedQueryBytes)
        makeContext = context
        sdl = Array(printSchemaForOlderTools(schema.schema).utf8) + [0x0A]
        schemaPath = configuration.path + "/schema.graphql"
        streamPath = configuration.path + "/stream"
    }

    /// The response for a request to one of this endpoint's paths, nil for any other path.
    public func respond(to request: HTTPRequest) async -> HTTPResponse? {
        let path = request.head.path
        let cors = corsHeaders(for: request)
        if path == schemaPath {
            guard request.head.method == "GET" || request.head.method == "HEAD" else {
                return plain(405, "method not allowed", headers: [("Allow", "GET, HEAD")] + cors)
            }
            return HTTPResponse(status: 200, headers: [("Content-Type", "text/plain; charset=utf-8")] + cors, body: sdl)
        }
        // GraphQL over SSE: an `Accept: text/event-stream` request to the
        // endpoint, or any request to its /stream (graphql-sse's clients').
        let isStreamPath = path == streamPath
        guard path == configuration.path || isStreamPath else { return nil }
        if request.head.method == "OPTIONS" {
            guard request.head.header("origin") != nil else {
                return HTTPResponse(status: 204, headers: [("Allow", "GET, POST, OPTIONS")])
            }
            guard !cors.isEmpty else { return plain(403, "origin not allowed") }
            return HTTPResponse(
                status: 204,
                headers: cors + [
                    ("Access-Control-Allow-Methods", "GET, POST, OPTIONS"),
                    (
                        "Access-Control-Allow-Headers",
                        "Content-Type, Authorization, GraphQL-Require-Preflight, X-Apollo-Operation-Name, Apollo-Require-Preflight, Huddle-Read-After"
                    ),
                    ("Access-Control-Max-Age", "600"),
                ])
        }
        let accepted = AcceptedTypes(accept: request.head.header("accept"))
        let eventStream = isStreamPath || accepted.eventStream
        let mediaType: ResponseMediaType
        if eventStream {
            mediaType = .json
        } else if let negotiated = accepted.response {
            mediaType = negotiated
        } else {
            return plain(406, "Accept must allow application/graphql-response+json or application/json", headers: cors)
        }
        var response: HTTPResponse
        switch await answer(request, mediaType: mediaType, eventStream: eventStream, acceptsMultipart: accepted.multipart) {
        case .success(let answered): response = answered
        case .failure(let failure) where eventStream && failure.status != 405 && failure.status != 503:
            // The protocol's way: a request error is a `next` event an EventSource can read.
            response = HTTPResponse(status: 200, headers: EventStreamResults.headers + failure.headers)
            response.stream = EventStreamResults.single(
                Self.errorBody(failure.message, code: failure.code, extensions: failure.extensions))
            response.operation = LoggedOperation(failure)
        case .failure(let failure):
            response = HTTPResponse(
                status: failure.status,
                headers: [("Content-Type", mediaType.contentType)] + failure.headers,
                body: Self.errorBody(failure.message, code: failure.code, extensions: failure.extensions)
            )
            response.operation = LoggedOperation(failure)
        }
        response.headers += cors
        // The endpoint's paths are few and fixed: a trace may group by them.
        response.route = String(path)
        return response
    }

    private func answer(_ request: HTTPRequest, mediaType: ResponseMediaType, eventStream: Bool, acceptsMultipart: Bool) async
        -> Result<HTTPResponse, GraphQLOverHTTPFailure>
    {
        let reader = JSONReader()
        let delivery: Delivery =
            eventStream ? .eventStream : configuration.operations.incrementalDelivery && acceptsMultipart ? .multipart : .whole
        switch request.head.method {
        case "GET", "HEAD":
            // An EventSource cannot set a header; a GET runs no mutation, so
            // an event stream needs no preflight to be safe.
            if !eventStream, let refusal = csrfRefusal(request) { return .failure(refusal) }
            // A HEAD would start a subscription only to drop its events.
            if eventStream && request.head.method == "HEAD" {
                return .failure(
                    GraphQLOverHTTPFailure(
                        status: 405, message: "Ask for an event stream with GET or POST.", headers: [("Allow", "GET, POST")]))
            }
            let queryString = request.head.target.drop { $0 != "?" }.dropFirst()
            switch GraphQLRequest.from(queryString: queryString, reader: reader) {
            case .failure(let failure): return .failure(failure)
            case .success(let parameters):
                let answer: Answer
                switch await runOrRefuse(parameters, request: request, mediaType: mediaType, viaGet: true, delivery: delivery) {
                case .success(let answered): answer = answered
                case .failure(let refusal): return .failure(refusal)
                }
                return answer.status.map { .success(answer.response(status: $0, mediaType: mediaType, delivery: delivery)) }
                    ?? .failure(
                        GraphQLOverHTTPFailure(
                            status: 405, message: "Only queries may be sent with GET; use POST.", headers: [("Allow", "POST")]))
            }
        case "POST":
            let contentType = request.head.header("content-type") ?? ""
            if Self.mediaRange(of: contentType, is: "multipart/form-data"), let uploads = configuration.uploads {
                // A form any page may post: only with a header a form cannot set.
                if let refusal = csrfRefusal(request) { return .failure(refusal) }
                let received: (body: GraphQLValue, receiver: any GraphQLUploadReceiver)
                switch await multipartOperations(request, uploads: uploads) {
                case .success(let operations): received = operations
                case .failure(let failure): return .failure(failure)
                }
                let answered = await answer(
                    received.body, request: request, mediaType: mediaType, eventStream: eventStream, delivery: delivery)
                if case .failure = answered { await received.receiver.abandon() }
                return answered
            }
            guard Self.mediaRange(of: contentType, is: "application/json") else {
                if let refusal = csrfRefusal(request) { return .failure(refusal) }
                return .failure(GraphQLOverHTTPFailure(status: 415, message: "The request body must be application/json."))
            }
            // The JSON reader would replace bad bytes; a client's text is taken as sent or not at all.
            guard UTF8Validator.isValid(request.body) else {
                return .failure(.badRequest("The request body is not valid UTF-8."))
            }
            let body: GraphQLValue
            do {
                body = try request.body.withUnsafeBufferPointer { bytes throws(JSONReader.Error) in try reader.read(bytes) }
            } catch {
                return .failure(.badRequest("The request body is not valid JSON: \(error)."))
            }
            return await answer(body, request: request, mediaType: mediaType, eventStream: eventStream, delivery: delivery)
        default:
            return .failure(GraphQLOverHTTPFailure(status: 405, message: "Use GET or POST.", headers: [("Allow", "GET, POST")]))
        }
    }

    /// Answers a POST's JSON body: one operation, or a batch.
    private func answer(
        _ body: GraphQLValue, request: HTTPRequest, mediaType: ResponseMediaType, eventStream: Bool, delivery: Delivery
    ) async -> Result<HTTPResponse, GraphQLOverHTTPFailure> {
        if case .list(let items) = body {
            if eventStream { return .failure(.badRequest("An event stream runs one operation; send a batch as application/json.")) }
            guard !items.isEmpty else { return .failure(.badRequest("A batch must hold at least one operation.")) }
            guard items.count <= configuration.maxBatchSize else {
                return .failure(
                    .badRequest("A batch may hold at most \(configuration.maxBatchSize) operations; this one holds \(items.count)."))
            }
            var parts: [[UInt8]] = []
            for item in items {
                switch GraphQLRequest.from(json: item) {
                case .failure(let failure): parts.append(Self.errorBody(failure.message, code: failure.code))
                case .success(let parameters):
                    switch await runOrRefuse(parameters, request: request, mediaType: mediaType, viaGet: false, delivery: .whole) {
                    case .success(let answer): parts.append(answer.body)
                    case .failure(let refusal): return .failure(refusal)
                    }
                }
            }
            var bytes: [UInt8] = [UInt8(ascii: "[")]
            for (index, part) in parts.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes += part
            }
            bytes.append(UInt8(ascii: "]"))
            return .success(HTTPResponse(status: 200, headers: [("Content-Type", mediaType.contentType)], body: bytes))
        }
        switch GraphQLRequest.from(json: body) {
        case .failure(let failure): return .failure(failure)
        case .success(let parameters):
            let answer: Answer
            switch await runOrRefuse(parameters, request: request, mediaType: mediaType, viaGet: false, delivery: delivery) {
            case .success(let answered): answer = answered
            case .failure(let refusal): return .failure(refusal)
            }
            return .success(answer.response(status: answer.status ?? 200, mediaType: mediaType, delivery: delivery))
        }
    }

    /// Whether a Content-Type's media type, its parameters and the spaces
    /// around it left out, is `expected` (lower case), in any ASCII case;
    /// compared in place, as the value's copies, lowered and trimmed, cost
    /// two allocations a request.
    static func mediaRange(of contentType: String, is expected: StaticString) -> Bool {
        var contentType = contentType
        return contentType.withUTF8 { bytes in
            bytes[...].prefix { $0 != UInt8(ascii: ";") }.trimmingSpaces().equalsIgnoringASCIICase(expected)
        }
    }

    /// Runs one operation: its status (nil for a mutation over GET, which
    /// must be refused), its JSON response, and its operation type when it
    /// got as far as selecting one; or the refusal of the whole request
    /// (503) when a service it needs is unavailable.
    private func runOrRefuse(
        _ parameters: GraphQLRequest, request: HTTPRequest, mediaType: ResponseMediaType, viaGet: Bool, delivery: Delivery
    ) async -> Result<Answer, GraphQLOverHTTPFailure> {
        let hides = configuration.operations.hidesSuggestions
        // A task-local's binding costs an allocation and a frame a
        // request; binding it to what it already holds changes nothing.
        guard hides != Suggestions.areHidden else {
            return await runOperation(parameters, request: request, mediaType: mediaType, viaGet: viaGet, delivery: delivery)
                .mapError(GraphQLOverHTTPFailure.unavailable)
        }
        return await Suggestions.$areHidden.withValue(hides) {
            await runOperation(parameters, request: request, mediaType: mediaType, viaGet: viaGet, delivery: delivery)
        }.mapError(GraphQLOverHTTPFailure.unavailable)
    }

    /// How a response goes: one JSON body; multipart/mixed, for a client
    /// that reads incremental results that way (a batch's parts never do);
    /// or an event stream (GraphQL over SSE), where a subscription runs too.
    enum Delivery {
        case whole, multipart, eventStream
    }

    /// What running one operation gave: its status (nil for a mutation
    /// over GET, which must be refused), its JSON response or the stream of
    /// its incremental results, and its operation type when it got as far
    /// as selecting one.
    struct Answer {
        var status: Int?
        var body: [UInt8]
        var operationType: String?
        var stream: HTTPBodyStream?
        /// What the request log says of it.
        var logged: LoggedOperation

        init(
            _ status: Int?, _ body: [UInt8], _ operationType: String?, stream: HTTPBodyStream? = nil,
            logged: LoggedOperation = LoggedOperation()
        ) {
            self.status = status
            self.body = body
            self.operationType = operationType
            self.stream = stream
            self.logged = logged
            self.logged.type = operationType
        }

        func response(status: Int, mediaType: ResponseMediaType, delivery: Delivery) -> HTTPResponse {
            var response: HTTPResponse
            if delivery == .eventStream {
                response = HTTPResponse(status: 200, headers: EventStreamResults.headers)
                response.stream = stream ?? EventStreamResults.single(body)
            } else if let stream {
                response = HTTPResponse(status: status, headers: [("Content-Type", MultipartResults.contentType)])
                response.stream = stream
            } else {
                response = HTTPResponse(status: status, headers: [("Content-Type", mediaType.contentType)], body: body)
            }
            response.countedAs = operationType
            response.operation = logged
            return response
        }
    }

    /// Every request error carries a code: Apollo's `GRAPHQL_PARSE_FAILED`
    /// and `GRAPHQL_VALIDATION_FAILED` (from the document cache),
    /// `OPERATION_RESOLUTION_FAILURE`, `BAD_USER_INPUT` for variables, the
    /// limits' own, `BAD_REQUEST` for what is not a GraphQL request at all.
    private func runOperation(
        _ parameters: GraphQLRequest, request: HTTPRequest, mediaType: ResponseMediaType, viaGet: Bool, delivery: Delivery
    ) async -> Result<Answer, ServiceUnavailable> {
        // Under application/json, any well-formed request gets 200.
        let requestErrorStatus = mediaType == .json ? 200 : 400
        var parameters = parameters
        var logged = LoggedOperation(name: parameters.operationName)
        func refused(_ status: Int?, _ errors: [GraphQLError], _ operationType: String?) -> Answer {
            var logged = logged
            logged.errorCodes = Self.codes(of: errors)
            return Answer(status, Self.body(ExecutionResult(data: nil, errors: errors)), operationType, logged: logged)
        }
        if case .failure(let refusal) = configuration.operations.trustedDocuments?.resolve(&parameters) {
            return .success(refused(requestErrorStatus, [.coded(refusal.message, code: refusal.code)], nil))
        }
        switch resolvePersistedQuery(&parameters) {
        case .failure(let failure):
            let error = failure.code.map { GraphQLError.coded(failure.message, code: $0) } ?? GraphQLError(message: failure.message)
            return .success(refused(failure.status, [error], nil))
        case .success: break
        }
        guard let query = parameters.query else {
            return .success(refused(requestErrorStatus, [.coded("Must provide query string.", code: "BAD_REQUEST")], nil))
        }
        logged.document = query
        let document: Document
        let source: Source
        let memo: OperationMemo
        switch documents.entry(for: query) {
        case .invalid(let errors):
            return .success(refused(requestErrorStatus, errors, nil))
        case .valid(let validDocument, let validSource, let validMemo):
            (document, source, memo) = (validDocument, validSource, validMemo)
        }
        let operationType: String
        let type: OperationType
        switch selectOperation(document, parameters.operationName) {
        case .failure(let error):
            return .success(refused(requestErrorStatus, [error.coded(ifUncoded: "OPERATION_RESOLUTION_FAILURE")], nil))
        case .success(let operation):
            type = operation.operation
            operationType = operation.operation.rawValue
            logged.name = logged.name ?? operation.name.map { LoggedOperation.clamped($0.value) }
            // A subscription changes nothing, so an event stream may be asked
            // for with GET (what a browser's EventSource sends); a mutation may not.
            let readsOnly = operation.operation == .query || (operation.operation == .subscription && delivery == .eventStream)
            if viaGet && !readsOnly { return .success(Answer(nil, [], operationType, logged: logged)) }
            if operation.operation == .subscription && delivery != .eventStream {
                return .success(refused(requestErrorStatus, [.coded(Self.subscriptionNeedsAStream, code: "BAD_REQUEST")], operationType))
            }
        }
        var context: any Sendable
        do {
            context = try await makeContext(request, parameters)
        } catch {
            return .failure(error)
        }
        let routing = context as? OperationRouting
        if let routing { context = await routing.routed(for: type, readAfter: request.head.header("huddle-read-after")) }
        logged.userID = (context as? LoggedViewer)?.loggedUserID
        let workExecutor = LoopLane.current ?? configuration.operations.workExecutor
        if delivery == .eventStream && operationType == "subscription" {
            var answer = await subscribe(document, source, memo, parameters, context: context, requestErrorStatus: requestErrorStatus)
            answer.logged = logged
            return .success(answer)
        }
        var (result, execution) = await OperationSpans.executing(operationType, logged.name) {
            () async -> (ExecutionResult, IncrementalExecution?) in
            if delivery != .whole && configuration.operations.incrementalDelivery {
                switch await executeIncrementally(
                    schema: schema, document: document, source: source,
                    operationName: parameters.operationName, variables: parameters.variables, context: context,
                    limits: configuration.operations.executionLimits, workExecutor: workExecutor, memo: memo)
                {
                case .complete(let complete): return (complete, nil)
                case .incremental(let initial, let incremental): return (initial, incremental)
                }
            }
            let result = await execute(
                schema: schema, document: document, source: source,
                operationName: parameters.operationName, variables: parameters.variables, context: context,
                limits: configuration.operations.executionLimits, workExecutor: workExecutor, memo: memo
            )
            return (result, nil)
        } result: {
            $0.0
        }
        if execution == nil, let fallback = routing == nil ? nil : (context as? OperationRouting)?.fallback(after: result) {
            // The standby failed the query: the primary answers it.
            result = await execute(
                schema: schema, document: document, source: source, operationName: parameters.operationName,
                variables: parameters.variables, context: fallback, limits: configuration.operations.executionLimits,
                workExecutor: workExecutor, memo: memo)
        }
        if !result.hasData { result.errors = result.errors.map { $0.coded(ifUncoded: "BAD_USER_INPUT") } }
        if type == .mutation, let routing { result.addReadAfter(await routing.mutationEnded(cutShort: result.wasCutShort)) }
        if let cost = result.cost, Self.asksForCost(parameters) {
            result.extensions += [
                .init(
                    "cost",
                    .object([
                        .init("requested", .int(cost.cost)),
                        .init("limit", configuration.operations.executionLimits.maxCost.map(GraphQLValue.int) ?? .null),
                        .init("depth", .int(cost.depth)),
                    ]))
            ]
        }
        logged.cost = result.cost?.cost
        logged.errorCodes = Self.codes(of: result.errors)
        if let execution {
            let stream =
                delivery == .eventStream
                ? EventStreamResults.stream(initial: result, execution) : MultipartResults.stream(initial: result, execution)
            return .success(Answer(200, [], operationType, stream: stream, logged: logged))
        }
        let body = responseBody(result)
        // What a large execution freed goes back to the system, not to the allocator's arenas.
        MemoryTrim.afterResponse(
            bytes: body.count, stoppedByLimit: result.errors.first.map { Self.stopCodes.contains($0.code ?? "") } ?? false)
        return .success(Answer(result.hasData ? 200 : requestErrorStatus, body, operationType, logged: logged))
    }

    /// A subscription over an event stream: each event's result, run with a
    /// context of its own when the request's context makes them.
    private func subscribe(
        _ document: Document, _ source: Source, _ memo: OperationMemo, _ parameters: GraphQLRequest, context: any Sendable,
        requestErrorStatus: Int
    ) async -> Answer {
        let makeContext: @Sendable () -> any Sendable
        if let maker = context as? OperationContextMaking {
            makeContext = { maker.makeOperationContext() }
        } else {
            makeContext = { context }
        }
        switch await GraphQL.subscribe(
            schema: schema, document: document, source: source, operationName: parameters.operationName,
            variables: parameters.variables, context: makeContext, limits: configuration.operations.executionLimits,
            workExecutor: configuration.operations.workExecutor, memo: memo, sharedEvents: configuration.operations.sharedEvents)
        {
        case .stream(let events):
            return Answer(
                200, [], "subscription",
                stream: EventStreamResults.stream(
                    subscription: events, keepAliveInterval: configuration.eventStreamKeepAlive, metrics: metrics))
        case .failure(var result):
            result.errors = result.errors.map { $0.coded(ifUncoded: "BAD_USER_INPUT") }
            return Answer(requestErrorStatus, Self.body(result), "subscription")
        }
    }

    /// A subscription answers event after event; a request that reads one response cannot carry it.
    static let subscriptionNeedsAStream =
        "A subscription's events need a stream: send it over WebSocket (graphql-transport-ws or graphql-ws), "
        + "or ask for an event stream (Accept: text/event-stream)."

    /// The codes of executions a limit stopped after they had grown large.
    private static var stopCodes: Set<String> { ExecutionResult.stopCodes }

    /// Whether the request's `extensions` ask for the operation's measured
    /// cost (`"cost": true`), returned in the response's `extensions.cost`.
    private static func asksForCost(_ parameters: GraphQLRequest) -> Bool {
        parameters.extensions.contains { $0.name == "cost" && $0.value == .boolean(true) }
    }

    /// Fills in the query from `extensions.persistedQuery`, or stores it.
    private func resolvePersistedQuery(_ parameters: inout GraphQLRequest) -> Result<Void, GraphQLOverHTTPFailure> {
        guard let persisted = parameters.persistedQuery else {
            return .success(())
        }
        guard case .string(let hash)? = persisted["sha256Hash"], persisted["version"] == .int(1) else {
            return .failure(.badRequest("Unsupported persisted query: extensions.persistedQuery needs version 1 and a sha256Hash."))
        }
        if let query = parameters.query {
            guard Digest.sha256Hex(Array(query.utf8)) == hash.lowercased() else {
                return .failure(.badRequest("provided sha does not match query"))
            }
            // Kept, and run, without its ignored tokens; a text that does
            // not lex is left for the document cache to report.
            guard let compact = try? compactDocument(query) else { return .success(()) }
            persistedQueries.store(compact, hash: hash.lowercased())
            parameters.query = compact
            return .success(())
        }
        guard let query = persistedQueries.query(forHash: hash.lowercased()) else {
            // 200 whatever the media type: Apollo clients read this body to resend with the query.
            return .failure(GraphQLOverHTTPFailure(status: 200, message: "PersistedQueryNotFound", code: "PERSISTED_QUERY_NOT_FOUND"))
        }
        parameters.query = query
        return .success(())
    }

    /// A GET, or a POST a browser could send cross-site without a preflight,
    /// runs only with a header no such form or link can set.
    private func csrfRefusal(_ request: HTTPRequest) -> GraphQLOverHTTPFailure? {
        for name in ["graphql-require-preflight", "x-apollo-operation-name", "apollo-require-preflight"] {
            if let value = request.head.header(name), !value.isEmpty { return nil }
        }
        return .badRequest(
            "This request has been blocked as a potential Cross-Site Request Forgery (CSRF). "
                + "Send it as a POST with Content-Type: application/json, or with a non-empty "
                + "GraphQL-Require-Preflight or X-Apollo-Operation-Name header."
        )
    }

    private func corsHeaders(for request: HTTPRequest) -> [(name: String, value: String)] {
        guard let origin = request.head.header("origin"),
            configuration.allowedOrigins.contains("*") || configuration.allowedOrigins.contains(origin)
        else { return [] }
        return [("Access-Control-Allow-Origin", origin), ("Vary", "Origin")]
    }

    private func plain(_ status: Int, _ message: String, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + headers, body: Array((message + "\n").utf8))
    }

    /// The size of the last response, as the next one's starting capacity:
    /// growing a buffer of tens of kilobytes by doubling copies it and churns
    /// the allocator several times per response.
    private let lastResponseSize = Atomic<Int>(1_024)

    private func responseBody(_ result: ExecutionResult) -> [UInt8] {
        var writer = JSONWriter(capacity: min(lastResponseSize.load(ordering: .relaxed) + 256, 1 << 20))
        Self.namingTheRequest(result).write(to: &writer)
        lastResponseSize.store(writer.count, ordering: .relaxed)
        return writer.bytes
    }

    private static func body(_ result: ExecutionResult) -> [UInt8] {
        var writer = JSONWriter()
        namingTheRequest(result).write(to: &writer)
        return writer.bytes
    }

    /// `result` with the request's id in each error's `extensions`
    /// (`requestId`), so that an error a user reports leads to its log line.
    static func namingTheRequest(_ result: ExecutionResult) -> ExecutionResult {
        guard !result.errors.isEmpty, let id = RequestID.current else { return result }
        var named = result
        named.errors = result.errors.map { error in
            var error = error
            if !error.extensions.contains(where: { $0.name == "requestId" }) { error.extensions.append(.init("requestId", .string(id))) }
            return error
        }
        return named
    }

    /// The `extensions.code` of `errors`, each once, in order.
    static func codes(of errors: [GraphQLError]) -> [String] {
        var codes: [String] = []
        for error in errors {
            if let code = error.code, !codes.contains(code) { codes.append(code) }
        }
        return codes
    }

    static func errorBody(_ message: String, code: String?, extensions: [GraphQLValue.Member] = []) -> [UInt8] {
        var error = GraphQLError(message: message)
        if let code { error.extensions = [.init("code", .string(code))] + extensions }
        return body(ExecutionResult(data: nil, errors: [error]))
    }
}

extension LoggedOperation {
    /// A request refused before any operation ran: its error's code.
    init(_ failure: GraphQLOverHTTPFailure) {
        self.init()
        if let code = failure.code { errorCodes = [code] }
    }
}

/// A request's context that can say who is signed in, for the request log.
public protocol LoggedViewer: Sendable {
    /// The signed-in user's id, nil for an anonymous request.
    var loggedUserID: String? { get }
}
