import HuddleRuntime
import TraceContext
import Tracing

/// The spans of work no request started: a scheduled job is a trace's
/// root (OpenTelemetry's consumer span: it takes a message, the job's
/// row, that something else queued), and each delivery it makes is a
/// child, named by its channel; the statements and HTTP calls within are
/// theirs.
enum JobSpans {
    /// `body`, a job's work, in a span of its own when the server traces.
    static func performing<T>(
        _ tracer: HuddleTracer?, kind: String, subject: Int64, lateness: Double, _ body: () async throws -> T
    ) async throws -> T {
        guard let tracer else { return try await body() }
        let result: Result<T, any Error> = await tracer.run(
            "job \(kind)", kind: .consumer,
            attributes: [
                "huddle.job.kind": .string(kind), "huddle.job.subject": .int64(subject), "huddle.job.lateness_seconds": .double(lateness),
            ]
        ) { span in
            do {
                return .success(try await body())
            } catch {
                span.recordError(error)
                span.setStatus(SpanStatus(code: .error))
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// `body`, one delivery (`EMAIL`, `WEB_PUSH`, `APNS`, `FCM`,
    /// `WEBHOOK`), in a child span when the task is traced; `outcome`
    /// names how it went.
    static func delivering<T>(_ channel: String, _ body: () async -> T, outcome: (T) -> String) async -> T {
        guard let tracer = RecordedTrace.tracer else { return await body() }
        return await tracer.withSpan("deliver \(channel)", ofKind: .client) { span in
            let result = await body()
            let named = outcome(result)
            span.attributes = ["huddle.delivery.channel": .string(channel), "huddle.delivery.outcome": .string(named)]
            if named != "delivered" && named != "sent" { span.setStatus(SpanStatus(code: .error, message: named)) }
            return result
        }
    }
}
