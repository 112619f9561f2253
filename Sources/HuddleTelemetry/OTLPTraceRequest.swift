import HuddleRuntime
import TraceContext
import Tracing

/// OTLP's `ExportTraceServiceRequest` (opentelemetry-proto,
/// `collector/trace/v1` and `trace/v1`), as protobuf: one resource (this
/// process), one instrumentation scope (Huddle), the spans.
public enum OTLPTraceRequest {
    public static func encode(_ spans: [FinishedSpan], resource: [(key: String, value: OTLPSettings.ResourceValue)], scopeVersion: String)
        -> [UInt8]
    {
        var request = ProtobufWriter()
        // ExportTraceServiceRequest.resource_spans = 1
        request.message(1) { resourceSpans in
            // ResourceSpans.resource = 1: Resource.attributes = 1
            resourceSpans.message(1) { resourceMessage in
                for (key, value) in resource {
                    switch value {
                    case .string(let text): keyValue(&resourceMessage, 1, key, .string(text))
                    case .int(let number): keyValue(&resourceMessage, 1, key, .int64(Int64(number)))
                    }
                }
            }
            // ResourceSpans.scope_spans = 2
            resourceSpans.message(2) { scopeSpans in
                // ScopeSpans.scope = 1: InstrumentationScope.name = 1, version = 2
                scopeSpans.message(1) { scope in
                    scope.string(1, "huddle")
                    scope.string(2, scopeVersion)
                }
                // ScopeSpans.spans = 2
                for span in spans { scopeSpans.message(2) { encode(span, into: &$0) } }
            }
        }
        return request.bytes
    }

    /// `trace.v1.Span`.
    private static func encode(_ span: FinishedSpan, into message: inout ProtobufWriter) {
        message.id(1, span.context.traceID.high, span.context.traceID.low)
        message.id(2, span.context.spanID.value)
        message.string(3, span.context.traceState ?? "")
        if let parent = span.parentSpanID { message.id(4, parent.value) }
        message.string(5, span.name)
        message.varint(6, kind(span.kind))
        message.fixed64(7, span.start)
        message.fixed64(8, span.end)
        span.attributes.forEach { key, value in keyValue(&message, 9, key, value) }
        message.varint(10, UInt64(span.droppedAttributes))
        for event in span.events {
            // Span.events = 11: time_unix_nano = 1, name = 2, attributes = 3
            message.message(11) { eventMessage in
                eventMessage.fixed64(1, event.nanosecondsSinceEpoch)
                eventMessage.string(2, event.name)
                event.attributes.forEach { key, value in keyValue(&eventMessage, 3, key, value) }
            }
        }
        message.varint(12, UInt64(span.droppedEvents))
        for link in span.links {
            // Span.links = 13: trace_id = 1, span_id = 2, trace_state = 3, flags = 6
            message.message(13) { linkMessage in
                linkMessage.id(1, link.traceID.high, link.traceID.low)
                linkMessage.id(2, link.spanID.value)
                linkMessage.string(3, link.traceState ?? "")
                linkMessage.fixed32(6, flags(link.flags, remote: link.isRemote))
            }
        }
        message.varint(14, UInt64(span.droppedLinks))
        if let status = span.status {
            // Span.status = 15: message = 2, code = 3 (OK 1, ERROR 2)
            message.message(15) { statusMessage in
                statusMessage.string(2, status.message ?? "")
                statusMessage.varint(3, status.code == .ok ? 1 : 2)
            }
        }
        message.fixed32(16, flags(span.context.flags, remote: span.parentIsRemote))
    }

    /// Span.flags and Link.flags: the W3C flags (bits 0-7), that whether
    /// the parent is remote is known (bit 8), and whether it is (bit 9).
    private static func flags(_ traceFlags: UInt8, remote: Bool) -> UInt32 {
        UInt32(traceFlags) | 0x100 | (remote ? 0x200 : 0)
    }

    /// OTLP's SpanKind: INTERNAL 1, SERVER 2, CLIENT 3, PRODUCER 4, CONSUMER 5.
    private static func kind(_ kind: SpanKind) -> UInt64 {
        switch kind {
        case .internal: 1
        case .server: 2
        case .client: 3
        case .producer: 4
        case .consumer: 5
        }
    }

    /// A `KeyValue` (key = 1, value = 2) as field `field` of `message`.
    private static func keyValue(_ message: inout ProtobufWriter, _ field: Int, _ key: String, _ value: SpanAttribute) {
        message.message(field) { pair in
            pair.string(1, key)
            pair.message(2, always: true) { anyValue(&$0, value) }
        }
    }

    /// `AnyValue`: string_value = 1, bool_value = 2, int_value = 3,
    /// double_value = 4, array_value = 5 (`ArrayValue.values` = 1).
    private static func anyValue(_ message: inout ProtobufWriter, _ value: SpanAttribute) {
        func array(_ values: [SpanAttribute]) {
            message.message(5, always: true) { list in
                for value in values { list.message(1, always: true) { anyValue(&$0, value) } }
            }
        }
        switch value {
        case .string(let text): stringValue(&message, text)
        case .bool(let flag): boolValue(&message, flag)
        case .int32(let number): intValue(&message, Int64(number))
        case .int64(let number): intValue(&message, number)
        case .double(let number): message.double(4, number)
        case .stringArray(let texts): array(texts.map { .string($0) })
        case .boolArray(let flags): array(flags.map { .bool($0) })
        case .int32Array(let numbers): array(numbers.map { .int64(Int64($0)) })
        case .int64Array(let numbers): array(numbers.map { .int64($0) })
        case .doubleArray(let numbers): array(numbers.map { .double($0) })
        case .stringConvertible(let convertible): stringValue(&message, convertible.description)
        case .stringConvertibleArray(let convertibles): array(convertibles.map { .string($0.description) })
        default: stringValue(&message, "\(value)")
        }
    }

    /// A oneof's member is written even at its default (an empty string,
    /// false, 0), so that the value's type is known.
    private static func stringValue(_ message: inout ProtobufWriter, _ text: String) {
        if text.isEmpty { message.message(1, always: true) { _ in } } else { message.string(1, text) }
    }

    private static func boolValue(_ message: inout ProtobufWriter, _ flag: Bool) {
        if flag { message.bool(2, true) } else { message.emptyVarint(2) }
    }

    private static func intValue(_ message: inout ProtobufWriter, _ number: Int64) {
        if number != 0 { message.int64(3, number) } else { message.emptyVarint(3) }
    }
}
