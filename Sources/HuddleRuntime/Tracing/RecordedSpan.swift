import Synchronization
import TraceContext
import Tracing

/// A span as it ended, for a `SpanProcessor` to export.
public struct FinishedSpan: Sendable {
    public var name: String
    public var kind: SpanKind
    public var context: TraceParent
    public var parentSpanID: SpanID?
    /// Whether the parent is another process's (a caller's `traceparent`).
    public var parentIsRemote: Bool
    /// Nanoseconds since 1970.
    public var start: UInt64
    public var end: UInt64
    public var attributes: SpanAttributes
    public var events: [SpanEvent]
    public var links: [TraceParent]
    public var status: SpanStatus?
    /// Attributes and events left out past the limits.
    public var droppedAttributes: Int
    public var droppedEvents: Int
    public var droppedLinks: Int

    public init(
        name: String, kind: SpanKind, context: TraceParent, parentSpanID: SpanID?, parentIsRemote: Bool, start: UInt64, end: UInt64,
        attributes: SpanAttributes, events: [SpanEvent], links: [TraceParent], status: SpanStatus?, droppedAttributes: Int,
        droppedEvents: Int, droppedLinks: Int = 0
    ) {
        self.name = name
        self.kind = kind
        self.context = context
        self.parentSpanID = parentSpanID
        self.parentIsRemote = parentIsRemote
        self.start = start
        self.end = end
        self.attributes = attributes
        self.events = events
        self.links = links
        self.status = status
        self.droppedAttributes = droppedAttributes
        self.droppedEvents = droppedEvents
        self.droppedLinks = droppedLinks
    }
}

/// Where ended spans go: an exporter's queue. Called on whatever thread
/// ends a span, so it must not block.
public protocol SpanProcessor: Sendable {
    func spanEnded(_ span: FinishedSpan)
    /// Exports what waits, and returns when it has gone or could not.
    func forceFlush()
}

/// A span of `HuddleTracer`'s: recording when its trace is sampled, else
/// only carrying its context so that calls it makes carry the decision on.
public struct HuddleSpan: Span {
    public let context: InstrumentationContext
    let recorder: SpanRecorder?

    public var isRecording: Bool { recorder != nil }

    public var operationName: String {
        get { recorder?.state.withLock { $0.name } ?? "" }
        nonmutating set { recorder?.state.withLock { $0.name = newValue } }
    }

    public var attributes: SpanAttributes {
        get { recorder?.state.withLock { $0.attributes } ?? [:] }
        nonmutating set {
            guard let recorder else { return }
            let limit = recorder.limits
            recorder.state.withLock { state in
                state.attributes =
                    newValue.count <= limit.maxAttributes
                    ? newValue : SpanLimits.clamped(newValue, limit, dropped: &state.droppedAttributes)
            }
        }
    }

    /// Changes the attributes in place: the API's own `updateAttributes`
    /// copies them out and back, which copies the whole dictionary.
    public func updateAttributes(_ update: (inout SpanAttributes) -> Void) {
        guard let recorder else { return }
        let limit = recorder.limits
        recorder.state.withLock { state in
            update(&state.attributes)
            if state.attributes.count > limit.maxAttributes {
                state.attributes = SpanLimits.clamped(state.attributes, limit, dropped: &state.droppedAttributes)
            }
        }
    }

    public func setStatus(_ status: SpanStatus) {
        recorder?.state.withLock { state in
            // OpenTelemetry: Ok is final, and an error's message is kept only with it.
            if state.status?.code == .ok { return }
            state.status = status
        }
    }

    public func addEvent(_ event: SpanEvent) {
        guard let recorder else { return }
        recorder.state.withLock { state in
            guard state.events.count < recorder.limits.maxEvents else { return state.droppedEvents += 1 }
            state.events.append(event)
        }
    }

    public func recordError<Instant: TracerInstant>(_ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant)
    {
        guard recorder != nil else { return }
        var attributes = attributes
        attributes["exception.type"] = String(describing: type(of: error))
        attributes["exception.message"] = String(describing: error)
        addEvent(SpanEvent(name: "exception", at: instant(), attributes: attributes))
    }

    public func addLink(_ link: SpanLink) {
        guard let recorder, let linked = link.context.traceParent else { return }
        recorder.state.withLock { state in
            guard state.links.count < recorder.limits.maxLinks else { return state.droppedLinks += 1 }
            state.links.append(linked)
        }
    }

    public func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
        guard let recorder else { return }
        let end = instant().nanosecondsSinceEpoch
        let finished: FinishedSpan? = recorder.state.withLock { state in
            guard !state.ended else { return nil }
            state.ended = true
            return FinishedSpan(
                name: state.name, kind: recorder.kind, context: recorder.traceParent, parentSpanID: recorder.parentSpanID,
                parentIsRemote: recorder.parentIsRemote,
                start: recorder.start, end: max(end, recorder.start),
                attributes: SpanLimits.shortened(state.attributes, recorder.limits),
                events: state.events.map { event in
                    var event = event
                    event.attributes = SpanLimits.shortened(event.attributes, recorder.limits)
                    return event
                },
                links: state.links, status: state.status, droppedAttributes: state.droppedAttributes, droppedEvents: state.droppedEvents,
                droppedLinks: state.droppedLinks)
        }
        if let finished { recorder.processor.spanEnded(finished) }
    }
}

/// What a recording span holds until it ends.
final class SpanRecorder: Sendable {
    struct State {
        var name: String
        var attributes: SpanAttributes = [:]
        var events: [SpanEvent] = []
        var links: [TraceParent] = []
        var status: SpanStatus?
        var droppedAttributes = 0
        var droppedEvents = 0
        var droppedLinks = 0
        var ended = false
    }

    let state: Mutex<State>
    let kind: SpanKind
    let traceParent: TraceParent
    let parentSpanID: SpanID?
    let parentIsRemote: Bool
    let start: UInt64
    let processor: any SpanProcessor
    let limits: SpanLimits

    init(
        name: String, kind: SpanKind, traceParent: TraceParent, parent: TraceParent?, start: UInt64, processor: any SpanProcessor,
        limits: SpanLimits
    ) {
        state = Mutex(State(name: name))
        self.kind = kind
        self.traceParent = traceParent
        parentSpanID = parent?.spanID
        parentIsRemote = parent?.isRemote ?? false
        self.start = start
        self.processor = processor
        self.limits = limits
    }
}

/// How much one span may hold (OpenTelemetry's span limits), so that no
/// span, and no queue of them, grows without bound.
public struct SpanLimits: Sendable {
    public var maxAttributes = 128
    public var maxEvents = 128
    public var maxLinks = 128
    /// Characters of a string attribute kept; longer ones are cut there.
    public var maxAttributeLength = 4096

    public init() {}

    /// The first `maxAttributes` of `attributes`, counting the rest as dropped.
    static func clamped(_ attributes: SpanAttributes, _ limits: SpanLimits, dropped: inout Int) -> SpanAttributes {
        var kept = SpanAttributes()
        attributes.forEach { name, value in
            guard kept.count < limits.maxAttributes else { return dropped += 1 }
            kept.set(name, value: value)
        }
        return kept
    }

    /// `attributes` with each string cut to `maxAttributeLength` characters: once, as the span ends.
    static func shortened(_ attributes: SpanAttributes, _ limits: SpanLimits) -> SpanAttributes {
        var shortened = attributes
        attributes.forEach { name, value in
            if case .string(let text) = value, text.utf8.count > limits.maxAttributeLength, text.count > limits.maxAttributeLength {
                shortened.set(name, value: .string(String(text.prefix(limits.maxAttributeLength))))
            }
        }
        return shortened
    }
}
