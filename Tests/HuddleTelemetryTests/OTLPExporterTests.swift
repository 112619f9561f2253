import HuddleRuntime
import TestSupport
import Testing
import TraceContext
import Tracing

@testable import HuddleTelemetry

/// The exporter's queue against a real receiver (opentelemetry-proto
/// decoding): a flush returns once what was queued has gone, a full queue
/// drops rather than waits, and stopping with a collector that refuses
/// ends in the time given, counting what it could not send.
@Suite(.hangGuard)
struct OTLPExporterTests {
    static func span(_ index: Int, trace: TraceID) -> FinishedSpan {
        FinishedSpan(
            name: "span \(index)", kind: .internal, context: TraceParent(traceID: trace, spanID: SpanID(UInt64(index + 1)), flags: 1),
            parentSpanID: nil, parentIsRemote: false, start: 1_000, end: 2_000, attributes: ["index": .int64(Int64(index))], events: [],
            links: [], status: nil, droppedAttributes: 0, droppedEvents: 0)
    }

    @Test func aFlushReturnsOnceWhatWasQueuedHasGone() async throws {
        let receiver = try OTLPReceiver()
        var settings = OTLPSettings(endpoint: receiver.endpoint + "/v1/traces")
        // Long enough that only the flush sends them.
        settings.scheduleDelay = .seconds(60)
        settings.maxBatchSize = 4
        let exporter = OTLPExporter(settings: settings)
        exporter.start()
        defer { exporter.shutdown() }
        let trace = TraceID(high: 7, low: 7)
        for index in 0..<10 { exporter.spanEnded(Self.span(index, trace: trace)) }
        exporter.forceFlush()
        #expect(exporter.exportedSpans.load(ordering: .relaxed) == 10)
        let received = receiver.spans().filter { $0.traceID == trace.hex }
        #expect(Set(received.map(\.name)) == Set((0..<10).map { "span \($0)" }))
        #expect(received.allSatisfy { $0.int("index") != nil && $0.flags == 0x101 })
    }

    @Test func aFullQueueDropsAndStoppingEndsInTheTimeGiven() async throws {
        let receiver = try OTLPReceiver(status: 503)
        var settings = OTLPSettings(endpoint: receiver.endpoint + "/v1/traces")
        settings.maxQueueSize = 6
        settings.maxBatchSize = 6
        settings.scheduleDelay = .seconds(60)
        let exporter = OTLPExporter(settings: settings)
        exporter.start()
        let trace = TraceID(high: 8, low: 8)
        // The first six wait (the collector refuses them, retried for the
        // export's 30 s); the next four find the queue full.
        for index in 0..<6 { exporter.spanEnded(Self.span(index, trace: trace)) }
        while exporter.failedExports.load(ordering: .relaxed) == 0 && exporter.droppedSpans.load(ordering: .relaxed) == 0 {
            // The batch is in flight once the queue has room again.
            exporter.spanEnded(Self.span(100, trace: trace))
            if exporter.droppedSpans.load(ordering: .relaxed) > 0 { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        let started = ContinuousClock.now
        exporter.shutdown(within: .seconds(1))
        let took = ContinuousClock.now - started
        #expect(took < .seconds(5), "\(took)")
        #expect(exporter.exportedSpans.load(ordering: .relaxed) == 0)
        #expect(exporter.droppedSpans.load(ordering: .relaxed) >= 6, "\(exporter.droppedSpans.load(ordering: .relaxed))")
        // Stopped: a span ended now is dropped at once.
        let before = exporter.droppedSpans.load(ordering: .relaxed)
        exporter.spanEnded(Self.span(200, trace: trace))
        #expect(exporter.droppedSpans.load(ordering: .relaxed) == before + 1)
    }
}
