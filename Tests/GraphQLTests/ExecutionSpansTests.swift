import Foundation
import GraphQL
import InMemoryTracing
import Testing
import TraceContext
import Tracing

/// The engine's spans, recorded by swift-distributed-tracing's own
/// in-memory tracer: parsing and validating a document the cache did not
/// hold, a resolver that waits, one that is slow without waiting, and a
/// DataLoader batch, each under the span that was current; none for a
/// field read from its parent, and none at all when the trace is not
/// recorded.
@Suite struct ExecutionSpansTests {
    static let schema: GraphQLSchema = try! buildSchema(
        """
        type Query { slow: String! later: String! quick: String! users(ids: [Int!]!): [User!]! }
        type User { id: Int! }
        """)

    struct User: Sendable { var id: Int }

    static let executable: ExecutableSchema = {
        var builder = ExecutableSchema.Builder(schema: schema)
        builder.resolve("Query", "slow") { _ in
            // Synchronous work past ExecutionSpans' threshold of a millisecond.
            Thread.sleep(forTimeInterval: 0.005)
            return .value(.string("slow"))
        }
        builder.resolve("Query", "later") { _ in .async { .value(.string("later")) } }
        builder.resolve("Query", "quick") { _ in .value(.string("quick")) }
        builder.resolve("Query", "users") { input in
            guard case .list(let ids)? = input.argument("ids") else { return .null }
            let loader = input.context as! DataLoader<Int, User>
            return .list(
                ids.map { id in
                    guard case .int(let id) = id else { return .null }
                    return loader.load(id) { .object($0) }
                })
        }
        builder.resolve("User", "id") { input in
            guard case .object(let user as User) = input.parent else { return .null }
            return .value(.int(user.id))
        }
        return try! builder.build()
    }()

    /// Runs `query` through a fresh document cache, in a trace whose root
    /// span `tracer` recorded (sampled when `recorded`).
    func run(_ query: String, tracer: InMemoryTracer, recorded: Bool = true) async throws -> (ExecutionResult, root: String) {
        let root = tracer.startSpan("request", context: .topLevel, ofKind: .server)
        var context = root.context
        context.traceParent = TraceParent(traceID: TraceID(high: 1, low: 2), spanID: SpanID(3), flags: recorded ? 1 : 0)
        context[ContextTracerKey.self] = ContextTracer(tracer)
        let loader = DataLoader<Int, User> { ids in ids.map { .success(User(id: $0)) } }
        let result = await InstrumentationContext.$current.withValue(context) { () async -> ExecutionResult in
            let cache = DocumentCache(schema: Self.schema)
            guard case .valid(let document, let source, let memo) = cache.entry(for: query) else {
                return ExecutionResult(data: nil, errors: [GraphQLError(message: "invalid")])
            }
            return await execute(schema: Self.executable, document: document, source: source, context: loader, memo: memo)
        }
        root.end()
        return (result, root.context.inMemorySpanContext!.spanID)
    }

    @Test func spansNestAsTheWorkDid() async throws {
        let tracer = InMemoryTracer()
        let (result, root) = try await run("{ slow later quick users(ids: [1, 2]) { id } }", tracer: tracer)
        #expect(result.errors.isEmpty, "\(result.errors)")
        let spans = tracer.finishedSpans
        let names = spans.map(\.operationName)
        for name in ["graphql.parse", "graphql.validate", "resolve Query.slow", "resolve Query.later", "DataLoader User"] {
            #expect(names.filter { $0 == name }.count == 1, "\(name) in \(names)")
        }
        // A resolver that neither waits nor takes long, and fields read from their parent, get none.
        #expect(!names.contains("resolve Query.quick") && !names.contains { $0.hasPrefix("resolve User") }, "\(names)")
        for span in spans where span.operationName != "request" {
            #expect(span.parentSpanID == root, "\(span.operationName)")
        }
        let slow = try #require(spans.first { $0.operationName == "resolve Query.slow" })
        #expect(slow.endInstant.nanosecondsSinceEpoch - slow.startInstant.nanosecondsSinceEpoch >= 5_000_000)
        #expect(slow.attributes.get("graphql.field.path") == .string("slow"))
        #expect(slow.attributes.get("graphql.field.parent_type") == .string("Query"))
        let batch = try #require(spans.first { $0.operationName == "DataLoader User" })
        #expect(batch.attributes.get("huddle.dataloader.keys") == .int64(2))
    }

    /// A trace that is not recorded opens no span in the engine: the
    /// request's own span decided, and nothing under it asks again.
    @Test func anUnrecordedTraceOpensNone() async throws {
        let tracer = InMemoryTracer()
        let (result, _) = try await run("{ slow later users(ids: [1]) { id } }", tracer: tracer, recorded: false)
        #expect(result.errors.isEmpty)
        #expect(tracer.finishedSpans.map(\.operationName) == ["request"])
    }
}
