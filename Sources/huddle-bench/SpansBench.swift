import ArgumentParser
import HuddleRuntime
import HuddleTelemetry
import TraceContext
import Tracing

extension Bench {
    /// What one span costs, as the server's code opens them: a parent
    /// with a child inside, two attributes each, through Swift's tracing
    /// API (`withSpan`) with the tracer the trace's context names. Reported per span:
    /// tracing off (the gate alone), sampled out, recorded into a queue
    /// that keeps nothing, and OTLP's protobuf encoding of a batch of 512,
    /// which the exporter's thread does.
    struct Spans: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Report the time per span, traced and not.")

        @OptionGroup var timing: TimingOptions

        /// Takes spans and keeps none: what recording costs before export.
        final class Discarding: SpanProcessor {
            func spanEnded(_ span: FinishedSpan) {}
            func forceFlush() {}
        }

        func run() async {
            func pair() {
                guard let tracer = RecordedTrace.tracer else { return }
                tracer.withSpan("parent", ofKind: .server) { span in
                    span.attributes = ["graphql.operation.type": "query", "db.system": "postgresql"]
                    tracer.withSpan("child") { child in
                        child.attributes = ["graphql.operation.type": "query", "db.system": "postgresql"]
                    }
                }
            }
            let off = await Measurement.medianAsync(rounds: timing.rounds, roundSeconds: timing.roundSeconds) { pair() }
            Measurement.report(name: "spans: tracing off, per span", bytes: 0, nanoseconds: off / 2)
            for (name, ratio) in [("sampled out", 0.0), ("recorded, kept nowhere", 1.0)] {
                let tracer = HuddleTracer(sampler: TraceSampler(ratio: ratio, followsParent: false), processor: Discarding())
                // As a request runs: in its span's context, with the tracer the task's.
                let root = tracer.startSpan("request", context: .topLevel, ofKind: .server)
                let nanoseconds = await withTracer(tracer) {
                    await InstrumentationContext.$current.withValue(root.context) {
                        await Measurement.medianAsync(rounds: timing.rounds, roundSeconds: timing.roundSeconds) {
                            // Sampled out, a child is not opened at all: the request's own span decided.
                            guard ratio > 0 else { return _ = tracer.startSpan("request", context: .topLevel, ofKind: .server) }
                            pair()
                        }
                    }
                }
                Measurement.report(name: "spans: \(name), per span", bytes: 0, nanoseconds: ratio > 0 ? nanoseconds / 2 : nanoseconds)
            }
            let trace = TraceID(high: 1, low: 2)
            let batch = (0..<512).map { index in
                FinishedSpan(
                    name: "SELECT", kind: .client, context: TraceParent(traceID: trace, spanID: SpanID(UInt64(index + 1)), flags: 1),
                    parentSpanID: SpanID(1), parentIsRemote: false, start: 1_700_000_000_000_000_000, end: 1_700_000_000_000_100_000,
                    attributes: [
                        "db.system": "postgresql", "db.operation.name": "SELECT", "db.namespace": "huddle",
                        "db.query.text": "SELECT u.id, u.username FROM users u WHERE u.id = ANY($1::bigint[])",
                    ], events: [], links: [], status: nil, droppedAttributes: 0, droppedEvents: 0)
            }
            let settings = OTLPSettings(endpoint: "http://127.0.0.1:4318/v1/traces")
            var bytes = 0
            let encoding = Measurement.median(rounds: timing.rounds, roundSeconds: timing.roundSeconds) {
                bytes = OTLPTraceRequest.encode(batch, resource: settings.resource, scopeVersion: "0").count
            }
            Measurement.report(name: "spans: OTLP protobuf encoding, per span", bytes: bytes / 512, nanoseconds: encoding / 512)
        }
    }
}
