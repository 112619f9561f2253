import Foundation
import HuddleRuntime
import HuddleServer
import HuddleTelemetry
import PostgresTestSupport
import ServerTestSupport
import TestSupport
import Testing

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
            #expect(request.traceState == "vendor=opaque" && request.flags & 0xFF == 1, "\(request)")
            #expect(request.resource["service.name"] == .string("huddle") && request.scope == "huddle", "\(request.resource)")
            let operation = try #require(spans.first { $0.name == "query Traced" })
            #expect(operation.parentSpanID == request.spanID && operation.kind == 1)
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
}
