import TraceContext
import Tracing

/// The engine's spans (OpenTelemetry's, through Swift's tracing API):
/// parsing and validating a document the cache did not hold, each resolver
/// that waits (its own statement or call), each resolver that took longer
/// than `slowResolver` without waiting, and each DataLoader batch; fields
/// read from a loaded row, and scalars, get none. Opened only in a task whose
/// trace is recorded, so any other operation pays one task-local read each.
enum ExecutionSpans {
    static var areOn: Bool { RecordedTrace.tracer != nil }

    /// `body` in a span of `name`, when the task is traced.
    static func spanning<T, Failure: Error>(_ name: String, _ body: () throws(Failure) -> T) throws(Failure) -> T {
        guard let tracer = RecordedTrace.tracer else { return try body() }
        let span = tracer.startSpan(name)
        defer { span.end() }
        do {
            return try body()
        } catch {
            span.setStatus(SpanStatus(code: .error))
            throw error
        }
    }

    /// A resolver that ran this long without waiting gets a span of its own.
    static let slowResolver = Duration.milliseconds(1)

    /// When a resolver started: the wall clock, which spans carry, and
    /// the monotonic one, which measures it (the wall clock can step).
    struct Start {
        let wall = DefaultTracerClock.now
        let monotonic = ContinuousClock.now
    }

    /// After a resolver that did not wait: a span from `started` for as
    /// long as it ran, when that was `slowResolver` or longer.
    static func resolved(since started: Start, parentType: String, field: String, path: () -> [PathComponent]) {
        let elapsed = ContinuousClock.now - started.monotonic
        guard elapsed >= slowResolver, let tracer = RecordedTrace.tracer else { return }
        let (seconds, attoseconds) = elapsed.components
        let nanoseconds = UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
        let span = tracer.startSpan("resolve \(parentType).\(field)", at: started.wall)
        span.attributes = attributes(parentType: parentType, field: field, path: path())
        span.end(at: DefaultTracerClock.Timestamp(nanosecondsSinceEpoch: started.wall.nanosecondsSinceEpoch + nanoseconds))
    }

    static func attributes(parentType: String, field: String, path: [PathComponent]) -> SpanAttributes {
        [
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
    }

    /// A waiting resolver's work, in a span named by its field
    /// (`resolve User.friends`), with OpenTelemetry's GraphQL field attributes.
    static func resolving(
        _ work: @escaping @Sendable () async throws -> Resolved, parentType: String, field: String, path: [PathComponent]
    ) -> @Sendable () async throws -> Resolved {
        let attributes = attributes(parentType: parentType, field: field, path: path)
        return {
            guard let tracer = RecordedTrace.tracer else { return try await work() }
            return try await tracer.withSpan("resolve \(parentType).\(field)") { span in
                span.attributes = attributes
                return try await work()
            }
        }
    }
}
