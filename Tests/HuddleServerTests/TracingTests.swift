import Foundation
import HuddleRuntime
import HuddleServer
import HuddleTelemetry
import PostgresTestSupport
import ServerTestSupport
import TestSupport
import Testing
import TraceContext

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Traces as an operator's collector gets them: a real server exports
/// over OTLP/HTTP to a receiver that decodes each request with the
/// official opentelemetry-proto package; a trace the client started
/// (W3C `traceparent`, on HTTP, SSE, or a WebSocket's connection_init)
/// is the parent of the server's spans, which nest as the work did.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct TracingTests {
    static func tracing(to receiver: OTLPReceiver, ratio: Double = 1) -> @Sendable (inout HuddleServer.Configuration) -> Void {
        let endpoint = receiver.endpoint
        return { configuration in
            var settings = OTLPSettings(endpoint: endpoint + "/v1/traces")
            settings.scheduleDelay = .milliseconds(20)
            settings.sampler = TraceSampler(ratio: ratio)
            configuration.tracing = settings
        }
    }

    /// A new trace id and a parent span id, as a client's tracer makes them.
    static func clientTrace() -> (traceID: String, spanID: String, header: String) {
        let hex = "0123456789abcdef"
        let traceID = String((0..<32).map { _ in hex.randomElement()! })
        let spanID = String((0..<16).map { _ in hex.randomElement()! })
        return (traceID, spanID, "00-\(traceID)-\(spanID)-01")
    }

    /// The span's ancestors within the trace, nearest first.
    static func ancestors(of span: OTLPReceiver.Span, in spans: [OTLPReceiver.Span]) -> [OTLPReceiver.Span] {
        var chain: [OTLPReceiver.Span] = []
        var current = span
        while let parent = spans.first(where: { $0.spanID == current.parentSpanID }), !chain.contains(where: { $0.spanID == parent.spanID })
        {
            chain.append(parent)
            current = parent
        }
        return chain
    }

    @Test func aRequestsTraceparentParentsTheServersSpans() async throws {
        let receiver = try OTLPReceiver()
        let lines = Log()
        let trace = Self.clientTrace()
        try await TestServer.with({ configuration in
            Self.tracing(to: receiver)(&configuration)
            configuration.http.logger = Logger(level: .info) { lines.append($0) }
        }) { server in
            let secret = "correct horse battery"
            let me = try await server.signUp("traced", password: secret)
            let reply = try await server.graphql(
                "query Traced { me { id username friends(first: 3) { totalCount } } }", token: me.token,
                headers: ["traceparent": trace.header, "tracestate": "vendor=opaque"])
            #expect(reply["errors"].isNull, "\(reply)")
            let spans = try await receiver.waitForSpans(of: trace.traceID) { spans in
                spans.contains { $0.kind == 2 } && spans.contains { $0.name == "query Traced" } && spans.contains { $0.kind == 3 }
            }
            let request = try #require(spans.first { $0.kind == 2 }, "\(spans.map(\.name))")
            #expect(request.parentSpanID == trace.spanID && request.name == "POST /graphql", "\(request)")
            #expect(request.string("http.request.method") == "POST" && request.string("http.route") == "/graphql")
            #expect(request.int("http.response.status_code") == 200 && request.string("url.path") == "/graphql")
            // The caller's span is another process's: bits 8 and 9 of OTLP's flags.
            #expect(request.traceState == "vendor=opaque" && request.flags == 0x301, "\(request)")
            #expect(request.resource["service.name"] == .string("huddle") && request.scope == "huddle", "\(request.resource)")
            let operation = try #require(spans.first { $0.name == "query Traced" })
            #expect(operation.parentSpanID == request.spanID && operation.kind == 1 && operation.flags == 0x101)
            #expect(operation.string("graphql.operation.type") == "query" && operation.string("graphql.operation.name") == "Traced")
            // Seen for the first time: parsed and validated, under the request.
            for name in ["graphql.parse", "graphql.validate"] {
                let stage = try #require(spans.first { $0.name == name }, "\(spans.map(\.name))")
                #expect(stage.parentSpanID == request.spanID)
            }
            // Every statement is a client span by the database conventions,
            // inside the operation's span, its text without the values.
            let statements = spans.filter { $0.attributes["db.system"] == .string("postgresql") }
            #expect(!statements.isEmpty, "\(spans.map(\.name))")
            for statement in statements {
                #expect(statement.kind == 3 && statement.string("db.system.name") == "postgresql", "\(statement)")
                #expect(statement.string("db.operation") == statement.name && statement.string("db.query.text")?.isEmpty == false)
                #expect(Self.ancestors(of: statement, in: spans).contains { $0.spanID == request.spanID }, "\(statement.name)")
                #expect(statement.start >= request.start && statement.end <= request.end)
            }
            // The friends' count waits for a batch: a DataLoader span, its statement under it.
            let batch = try #require(spans.first { $0.name.hasPrefix("DataLoader ") }, "\(spans.map(\.name))")
            #expect(batch.int("huddle.dataloader.keys") == 1)
            #expect(Self.ancestors(of: batch, in: spans).contains { $0.spanID == operation.spanID })
            #expect(statements.contains { $0.parentSpanID == batch.spanID }, "\(statements.map(\.parentSpanID)) \(batch.spanID)")
            // The token and the password appear in no span.
            let exported = receiver.spans().map { "\($0)" }.joined()
            #expect(!exported.contains(me.token) && !exported.contains(secret))
            // The request's log line leads to its trace.
            let logged = lines.all.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            let line = try #require(logged.first { $0["msg"] as? String == "request" && $0["trace_id"] as? String == trace.traceID })
            #expect(line["span_id"] as? String == request.spanID, "\(line)")
        }
    }

    /// A caller's decision holds (parent-based); a trace that starts here
    /// is recorded by the ratio, here none; an unrecorded trace leaves no
    /// span and no trace id in the log.
    @Test func samplingFollowsTheCallerAndTheRatioDecidesTheRest() async throws {
        let receiver = try OTLPReceiver()
        let lines = Log()
        try await TestServer.with({ configuration in
            Self.tracing(to: receiver, ratio: 0)(&configuration)
            configuration.http.logger = Logger(level: .info) { lines.append($0) }
        }) { server in
            let sampled = Self.clientTrace()
            let unsampled = Self.clientTrace()
            _ = try await server.graphql("{ __typename }", headers: ["traceparent": unsampled.header.dropLast(2) + "00"])
            _ = try await server.graphql("{ __typename }")
            // Not a traceparent (upper case): the trace starts here, and is not recorded.
            _ = try await server.graphql("{ __typename }", headers: ["traceparent": sampled.header.uppercased()])
            _ = try await server.graphql("query Last { __typename }", headers: ["traceparent": sampled.header])
            // Spans leave in the order they ended: once the last request's are in, all are.
            let spans = try await receiver.waitForSpans(of: sampled.traceID) { $0.contains { $0.kind == 2 } }
            #expect(spans.contains { $0.name == "query Last" }, "\(spans.map(\.name))")
            #expect(Set(receiver.spans().map(\.traceID)) == [sampled.traceID], "\(receiver.spans().map(\.name))")
            let logged = lines.all.filter { $0.contains(#""msg":"request""#) }
            #expect(logged.count == 4 && logged.filter { $0.contains("trace_id") }.count == 1, "\(logged)")
        }
    }

    /// A browser cannot set a WebSocket's headers: it names its trace in
    /// connection_init, and each operation on the socket is a server span
    /// under it, with the operation's span inside.
    @Test func aWebSocketTakesItsTraceFromConnectionInit() async throws {
        let receiver = try OTLPReceiver()
        let lines = Log()
        try await TestServer.with({ configuration in
            Self.tracing(to: receiver)(&configuration)
            configuration.http.logger = Logger(level: .info) { lines.append($0) }
        }) { server in
            let trace = Self.clientTrace()
            let client = try WebSocketClient(port: server.port)
            client.send(#"{"type":"connection_init","payload":{"traceparent":"\#(trace.header)","tracestate":"ws=1"}}"#)
            #expect(client.next()?.text == #"{"type":"connection_ack"}"#)
            client.send(#"{"id":"op1","type":"subscribe","payload":{"query":"query Ws { __typename }"}}"#)
            #expect(client.next()?.text.contains(#""__typename":"Query""#) == true)
            #expect(client.next()?.text == #"{"id":"op1","type":"complete"}"#)
            let spans = try await receiver.waitForSpans(of: trace.traceID) { spans in
                spans.contains { $0.kind == 2 } && spans.contains { $0.name == "query Ws" }
            }
            let socket = try #require(spans.first { $0.kind == 2 }, "\(spans.map(\.name))")
            #expect(socket.name == "GraphQL over WebSocket" && socket.parentSpanID == trace.spanID && socket.traceState == "ws=1")
            #expect(socket.string("graphql.operation.name") == "Ws" && socket.string("huddle.websocket.protocol") == "graphql-transport-ws")
            let operation = try #require(spans.first { $0.name == "query Ws" })
            #expect(operation.parentSpanID == socket.spanID)
            // The operation's log line leads to its span.
            let logged = lines.all.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            let line = try #require(logged.first { $0["msg"] as? String == "operation" })
            #expect(line["trace_id"] as? String == trace.traceID && line["span_id"] as? String == socket.spanID, "\(line)")
        }
    }

    /// GraphQL over SSE is an HTTP request: its `traceparent` parents the
    /// request's span, which lasts as long as its events do.
    @Test func anEventStreamIsTracedAsItsRequest() async throws {
        let receiver = try OTLPReceiver()
        try await TestServer.with(Self.tracing(to: receiver)) { server in
            let trace = Self.clientTrace()
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)/graphql/stream")!)
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
            request.setValue(trace.header, forHTTPHeaderField: "traceparent")
            request.httpBody = Data(#"{"query":"query Sse { __typename }"}"#.utf8)
            let (data, _) = try await URLSession.shared.data(for: request)
            #expect(String(decoding: data, as: UTF8.self).contains(#""__typename":"Query""#))
            let spans = try await receiver.waitForSpans(of: trace.traceID) { spans in
                spans.contains { $0.kind == 2 } && spans.contains { $0.name == "query Sse" }
            }
            let stream = try #require(spans.first { $0.kind == 2 })
            #expect(stream.name == "POST /graphql/stream" && stream.parentSpanID == trace.spanID, "\(stream)")
            let operation = try #require(spans.first { $0.name == "query Sse" })
            #expect(operation.parentSpanID == stream.spanID && operation.end <= stream.end)
        }
    }

    /// A collector that refuses (or is slow, or away) costs spans, never
    /// requests: each is answered, and what could not be sent is counted
    /// as dropped once the export's time is spent.
    @Test func aCollectorThatRefusesCostsSpansNotRequests() async throws {
        let receiver = try OTLPReceiver(status: 503)
        try await TestServer.with({ configuration in
            Self.tracing(to: receiver)(&configuration)
            configuration.tracing?.timeout = .milliseconds(300)
            configuration.tracing?.maxQueueSize = 8
            configuration.tracing?.maxBatchSize = 4
        }) { server in
            for index in 0..<20 {
                let reply = try await server.graphql("query Many\(index) { __typename }")
                #expect(reply["data"]["__typename"].string == "Query")
            }
            // The queue fills at once; the first batches are dropped when their retries run out.
            var (dropped, failed) = (0, 0)
            for _ in 0..<600 where dropped < 20 * 3 || failed == 0 {
                dropped = try await server.metric("huddle_trace_spans_dropped_total")
                failed = try await server.metric("huddle_trace_exports_failed_total")
                try await Task.sleep(for: .milliseconds(50))
            }
            // Each request has a server span, parse, validate and the operation's.
            #expect(dropped >= 20 * 3 && failed > 0, "\(dropped) \(failed)")
            #expect(try await server.metric("huddle_trace_spans_exported_total") == 0)
        }
    }

    /// A scheduled job is a trace of its own (a consumer span), each
    /// delivery it makes a client span under it, and its statements theirs.
    @Test func aScheduledJobAndItsDeliveryAreATrace() async throws {
        let receiver = try OTLPReceiver()
        let smtp = try SMTPServer()
        try await TestServer.with({ configuration in
            Self.tracing(to: receiver)(&configuration)
            mailing(to: smtp)(&configuration)
        }) { server in
            // Signing up with an address queues the address's check, sent by a job.
            _ = try await server.signUp("jobbed")
            _ = try await smtp.waitForMessages(1)
            var job: OTLPReceiver.Span?
            var delivery: OTLPReceiver.Span?
            for _ in 0..<1200 where job == nil || delivery == nil {
                let spans = receiver.spans()
                job = spans.first { $0.name == "job mail.send" }
                delivery = spans.first { $0.name == "deliver EMAIL" && $0.parentSpanID == job?.spanID }
                try await Task.sleep(for: .milliseconds(50))
            }
            let found = try #require(job, "\(receiver.spans().map(\.name))")
            #expect(found.kind == 5 && found.parentSpanID.isEmpty && found.string("huddle.job.kind") == "mail.send")
            let sent = try #require(delivery)
            #expect(sent.kind == 3 && sent.string("huddle.delivery.outcome") == "sent" && sent.statusCode == 0)
            let statements = receiver.spans().filter { $0.traceID == found.traceID && $0.attributes["db.system"] != nil }
            #expect(!statements.isEmpty)
        }
    }

    /// The webhook, the operator's own service, is called in the trace of
    /// the job that delivers: a recorded one's client span is its parent,
    /// and an unrecorded one still passes its decision on (flag 0).
    @Test(arguments: [1.0, 0.0])
    func theWebhookIsCalledInTheJobsTrace(ratio: Double) async throws {
        let receiver = try OTLPReceiver()
        let services = try PushServices()
        try await TestServer.with({ configuration in
            Self.tracing(to: receiver, ratio: ratio)(&configuration)
            pushing(to: services)(&configuration)
        }) { server in
            let ana = try await server.signUp("ana")
            let bob = try await server.signUp("bob")
            _ = try await server.graphql(TestServer.sendFriendRequest, ["id": bob.id], token: ana.token)
            let hook = try #require(try await services.waitFor(1, of: "webhook").first)
            let header = try #require(hook["traceparent"] as? String, "\(hook)")
            let parent = try #require(TraceParent(header: header), "\(header)")
            #expect(parent.isSampled == (ratio == 1), "\(header)")
            guard ratio == 1 else { return }
            let spans = try await receiver.waitForSpans(of: parent.traceID.hex) { spans in
                spans.contains { $0.spanID == parent.spanID.hex } && spans.contains { $0.name == "deliver WEBHOOK" }
            }
            let call = try #require(spans.first { $0.spanID == parent.spanID.hex }, "\(spans.map(\.name))")
            #expect(call.kind == 3 && call.name == "POST" && call.string("server.address") == "127.0.0.1")
            let delivery = try #require(spans.first { $0.name == "deliver WEBHOOK" })
            #expect(call.parentSpanID == delivery.spanID && delivery.string("huddle.delivery.outcome") == "delivered")
        }
    }
}
