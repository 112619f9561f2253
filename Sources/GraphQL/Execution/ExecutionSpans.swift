import TraceContext
import Tracing

/// The engine's spans (OpenTelemetry's, through Swift's tracing API):
/// parsing and validating a document the cache did not hold, each resolver
/// that waits (its own statement or call; fields read from a loaded row
/// get none), and each DataLoader batch. Opened only in a task whose
/// trace is recorded, so any other operation pays one task-local read each.
enum ExecutionSpans {
    static var areOn: Bool { InstrumentationContext.isRecording }

    /// `body` in a span of `name`, when the task is traced.
    static func spanning<T, Failure: Error>(_ name: String, _ body: () throws(Failure) -> T) throws(Failure) -> T {
        guard areOn else { return try body() }
        let span = startSpan(name)
        defer { span.end() }
        do {
            return try body()
        } catch {
            span.setStatus(SpanStatus(code: .error))
            throw error
        }
    }

    /// A waiting resolver's work, in a span named by its field
    /// (`resolve User.friends`), with OpenTelemetry's GraphQL field attributes.
    static func resolving(
        _ work: @escaping @Sendable () async throws -> Resolved, parentType: String, field: String, path: [PathComponent]
    ) -> @Sendable () async throws -> Resolved {
        let attributes: SpanAttributes = [
            "graphql.field.name": .string(field),
            "graphql.field.parent_type": .string(parentType),
            "graphql.field.path": .string(
                path.map {
                    switch $0 {
                    case .key(let key): key
                    case .index(let index): String(index)
                    }
                }.joined(separator: ".")),
        ]
        return {
            try await withSpan("resolve \(parentType).\(field)") { span in
                span.attributes = attributes
                return try await work()
            }
        }
    }
}
