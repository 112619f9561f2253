import TraceContext
import Tracing

/// Huddle's tracer, to OpenTelemetry's model: spans with W3C Trace Context
/// ids, sampled by `TraceSampler`, handed as they end to a
/// `SpanProcessor` (the OTLP exporter). It speaks swift-distributed-
/// tracing's `Tracer`, so that any library written against that API
/// traces into the same spans.
///
/// Huddle's own code opens spans only in a task that is being traced
/// (`InstrumentationContext.current` is set, which the server does for a
/// request when tracing is on): with tracing off a request pays one
/// task-local read per place a span would open.
public final class HuddleTracer: Tracer {
    public typealias Span = HuddleSpan

    public let sampler: TraceSampler
    public let limits: SpanLimits
    let processor: any SpanProcessor
    let ids = SpanIDMaker()

    public init(sampler: TraceSampler, limits: SpanLimits = SpanLimits(), processor: any SpanProcessor) {
        self.sampler = sampler
        self.limits = limits
        self.processor = processor
    }

    public func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> InstrumentationContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> HuddleSpan {
        start(operationName, context: context(), kind: kind, at: instant().nanosecondsSinceEpoch)
    }

    /// `startSpan`, with the trace's id when it was made (and the root
    /// sampled) before: `startServerSpan`'s way of deciding first.
    func start(_ operationName: String, context: InstrumentationContext, kind: SpanKind, at start: UInt64, traceID: TraceID? = nil)
        -> HuddleSpan
    {
        var context = context
        let parent = context.traceParent
        let traceID = parent?.traceID ?? traceID ?? ids.traceID()
        // The caller's flags are passed on but for the decision; a trace
        // that starts here says its id is random (Trace Context level 2).
        let flags = (parent?.flags ?? 0x02) & ~0x01
        guard sampler.samples(traceID, parent: parent) else {
            // Not recorded: a child keeps its parent's ids, and a root gets
            // its own, flagged unsampled, so that the calls it makes carry
            // the decision on.
            if parent == nil || parent!.isSampled {
                context.traceParent = TraceParent(traceID: traceID, spanID: ids.spanID(), flags: flags, traceState: parent?.traceState)
            }
            return HuddleSpan(context: context, recorder: nil)
        }
        let own = TraceParent(traceID: traceID, spanID: ids.spanID(), flags: flags | 0x01, traceState: parent?.traceState)
        context.traceParent = own
        // A trace's first recorded span here names the tracer its children open through.
        if context[ContextTracerKey.self] == nil { context[ContextTracerKey.self] = ContextTracer(self) }
        let recorder = SpanRecorder(
            name: operationName, kind: kind, traceParent: own, parent: parent, start: start,
            processor: processor, limits: limits)
        return HuddleSpan(context: context, recorder: recorder)
    }

    public func forceFlush() {
        processor.forceFlush()
    }

    // MARK: W3C Trace Context

    /// Reads `traceparent` and `tracestate`; an extractor that finds
    /// several `tracestate` fields gives them joined by commas, as one list.
    public func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout InstrumentationContext, using extractor: Extract
    ) where Extract.Carrier == Carrier {
        guard let header = extractor.extract(key: "traceparent", from: carrier),
            let parent = TraceParent(header: header, state: extractor.extract(key: "tracestate", from: carrier))
        else { return }
        context.traceParent = parent
    }

    public func inject<Carrier, Inject: Injector>(_ context: InstrumentationContext, into carrier: inout Carrier, using injector: Inject)
    where Inject.Carrier == Carrier {
        guard let parent = context.traceParent else { return }
        injector.inject(parent.header, forKey: "traceparent", into: &carrier)
        if let state = parent.traceState { injector.inject(state, forKey: "tracestate", into: &carrier) }
    }
}
