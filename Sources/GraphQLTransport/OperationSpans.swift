import GraphQL
import TraceContext
import Tracing

/// The span of an operation's execution, as OpenTelemetry's GraphQL
/// conventions name it (`query Profile`, with `graphql.operation.type`
/// and `graphql.operation.name`); its resolvers', batches' and
/// statements' spans are its children. Opened only in a traced task.
enum OperationSpans {
    // Inlined, so an untraced operation runs its body as the caller's own
    // code, without a closure's frame or a generic tuple in between.
    @inline(__always)
    static func executing<T>(
        _ type: String, _ name: String?, _ body: () async -> T, result: (T) -> ExecutionResult?
    ) async -> T {
        guard let tracer = RecordedTrace.tracer else { return await body() }
        return await tracer.withSpan(name.map { "\(type) \($0)" } ?? type) { span in
            var attributes: SpanAttributes = ["graphql.operation.type": .string(type)]
            if let name { attributes.set("graphql.operation.name", value: .string(name)) }
            let value = await body()
            if let result = result(value) {
                if let cost = result.cost?.cost { attributes.set("huddle.graphql.cost", value: .int64(Int64(cost))) }
                let codes = GraphQLOverHTTP.codes(of: result.errors)
                if !codes.isEmpty { attributes.set("huddle.graphql.error_codes", value: .stringArray(codes)) }
                if !result.hasData { span.setStatus(SpanStatus(code: .error)) }
            }
            span.attributes = attributes
            return value
        }
    }
}
