import TraceContext
import Tracing

extension HuddleTracer {
    /// The span of a request the server answers (OpenTelemetry's HTTP
    /// server span): a child of the `traceparent` the client sent, else a
    /// trace's root. Named by `finish` once the route is known. Nil when
    /// the request is not recorded: decided first, so that an unrecorded
    /// request makes no context and runs in none (nothing in a request's
    /// work calls out with a trace to pass on: deliveries are jobs).
    func startServerSpan(_ head: HTTPRequestHead, id: String, client: String?) -> HuddleSpan? {
        var context = InstrumentationContext.topLevel
        var rootID: TraceID?
        if head.header("traceparent") != nil {
            extract(head, into: &context, using: HTTPHeadExtractor())
        }
        if context.traceParent == nil {
            let traceID = ids.traceID()
            guard sampler.samples(traceID, parent: nil) else { return nil }
            rootID = traceID
        } else if !sampler.samples(context.traceParent!.traceID, parent: context.traceParent) {
            return nil
        }
        // OpenTelemetry's HTTP conventions: a method outside the standard
        // ones is `_OTHER`, and the span is named `HTTP`, so that a client
        // inventing methods cannot multiply span names.
        let method = Self.knownMethods.contains(head.method) ? head.method : "_OTHER"
        let span = start(
            method == "_OTHER" ? "HTTP" : method, context: context, kind: .server, at: DefaultTracerClock.now.nanosecondsSinceEpoch,
            traceID: rootID)
        var attributes: SpanAttributes = [
            "http.request.method": .string(method),
            "url.path": .string(String(head.path)),
            "url.scheme": "http",
            "network.protocol.version": .string(head.version == .http11 ? "1.1" : "1.0"),
            "huddle.request_id": .string(id),
        ]
        if method == "_OTHER" { attributes.set("http.request.method_original", value: .string(head.method)) }
        if let client { attributes.set("client.address", value: .string(client)) }
        if let agent = head.header("user-agent") { attributes.set("user_agent.original", value: .string(agent)) }
        span.attributes = attributes
        return span
    }

    static let knownMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"]

    /// Runs `body` in `span`, with this tracer the one the task's spans use.
    public func run<T>(in span: HuddleSpan, _ body: () async -> T) async -> T {
        await withTracer(self) {
            await InstrumentationContext.$current.withValue(span.context) { await body() }
        }
    }

    /// Runs `body` in a span of its own, a child of `context` (a trace's
    /// root when it has none): for work no request started, such as a
    /// scheduled job, or an operation of a WebSocket.
    public func run<T>(
        _ name: String, kind: SpanKind = .internal, under context: InstrumentationContext = .topLevel,
        attributes: SpanAttributes = [:], _ body: (HuddleSpan) async -> T
    ) async -> T {
        let span = startSpan(name, context: context, ofKind: kind)
        // Unrecorded: nothing within opens a span, but a call it makes
        // (the webhook) still passes the trace and its decision on.
        guard span.isRecording else { return await InstrumentationContext.$current.withValue(span.context) { await body(span) } }
        if !attributes.isEmpty { span.attributes = attributes }
        defer { span.end() }
        return await run(in: span) { await body(span) }
    }
}

extension HuddleSpan {
    /// Names the request's span by its route (`GET /graphql`) and sets its
    /// status; then ends it.
    func finish(status: Int, route: String?) {
        guard isRecording else { return }
        if let route, operationName != "HTTP" { operationName = "\(operationName) \(route)" }
        updateAttributes { attributes in
            if let route { attributes.set("http.route", value: .string(route)) }
            attributes.set("http.response.status_code", value: .int64(Int64(status)))
        }
        // A server span is an error for the server's errors only, not the client's.
        if status >= 500 { setStatus(SpanStatus(code: .error)) }
        end()
    }
}

/// `traceparent` and `tracestate` from a request's head.
struct HTTPHeadExtractor: Extractor {
    /// `tracestate` may come in several fields, which make one list.
    func extract(key: String, from head: HTTPRequestHead) -> String? {
        guard key == "tracestate" else { return head.header(key) }
        let fields = head.headers.filter { $0.name == key }.map(\.value)
        return fields.isEmpty ? nil : fields.joined(separator: ",")
    }
}
