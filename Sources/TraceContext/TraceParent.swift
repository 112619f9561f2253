import Synchronization
import Tracing

/// A span's place in a trace, as W3C Trace Context carries it between
/// services (`traceparent`, `tracestate`): the trace's id, the span's, and
/// its flags, of which bit 0 says the trace is sampled (recorded and
/// exported) and bit 1 that the trace id is random (level 2).
public struct TraceParent: Sendable, Hashable {
    public var traceID: TraceID
    public var spanID: SpanID
    public var flags: UInt8
    /// The vendors' `tracestate`, passed on as it came.
    public var traceState: String?
    /// Whether the span is another process's: a caller's, read from a header.
    public var isRemote: Bool

    public init(traceID: TraceID, spanID: SpanID, flags: UInt8, traceState: String? = nil, isRemote: Bool = false) {
        self.traceID = traceID
        self.spanID = spanID
        self.flags = flags
        self.traceState = traceState
        self.isRemote = isRemote
    }

    public var isSampled: Bool { flags & 1 == 1 }

    /// The most of a `tracestate` kept, which is what the specification
    /// asks a propagator to pass on at least; past it, whole members go
    /// from the end.
    public static let maxTraceStateLength = 512

    /// A `traceparent` header: version 00's layout,
    /// `00-<32 hex trace id>-<16 hex span id>-<2 hex flags>`, or a later
    /// version read by that layout as the specification asks. Nil for
    /// anything else, or an all-zero id: the trace then starts here.
    public init?(header: String, state: String? = nil) {
        let bytes = Array(header.utf8)
        guard bytes.count >= 55, let version = Self.hex(bytes[0..<2]), version != 0xFF, bytes[2] == UInt8(ascii: "-"),
            bytes[35] == UInt8(ascii: "-"), bytes[52] == UInt8(ascii: "-")
        else { return nil }
        // Version 00 is exactly 55 characters; a later one may add fields after a dash.
        guard bytes.count == 55 ? true : version != 0 && bytes[55] == UInt8(ascii: "-") else { return nil }
        guard let high = Self.hex(bytes[3..<19]), let low = Self.hex(bytes[19..<35]), high != 0 || low != 0,
            let span = Self.hex(bytes[36..<52]), span != 0, let flags = Self.hex(bytes[53..<55])
        else { return nil }
        traceID = TraceID(high: high, low: low)
        spanID = SpanID(span)
        // Only the flags Trace Context defines (sampled, and level 2's
        // random id) are kept: the rest must be zero when passed on.
        self.flags = UInt8(flags) & 0x03
        traceState = state.flatMap { Self.acceptingTraceState($0) }
        isRemote = true
    }

    /// The `traceparent` header for this span, version 00.
    public var header: String {
        "00-\(traceID.hex)-\(spanID.hex)-\(Hex.digits(UInt64(flags), count: 2))"
    }

    /// Lower-case hexadecimal only: the specification refuses upper case.
    private static func hex(_ digits: ArraySlice<UInt8>) -> UInt64? {
        var value: UInt64 = 0
        for digit in digits {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt64(digit - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt64(digit - UInt8(ascii: "a") + 10)
            default: return nil
            }
        }
        return value
    }

    /// A `tracestate` passed on: its members of printable ASCII with a key
    /// and a value, empty ones dropped, within the length kept (whole
    /// members from the end go first); nil when none is left.
    private static func acceptingTraceState(_ state: String) -> String? {
        var members: [Substring] = []
        for member in state.split(separator: ",") {
            let trimmed = member.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
            let text = Substring(String(trimmed))
            guard !text.isEmpty else { continue }
            guard text.utf8.allSatisfy({ (0x20...0x7E).contains($0) }), let equals = text.firstIndex(of: "="), equals != text.startIndex
            else { return nil }
            members.append(text)
        }
        while !members.isEmpty && members.reduce(members.count - 1, { $0 + $1.utf8.count }) > maxTraceStateLength {
            members.removeLast()
        }
        return members.isEmpty ? nil : members.joined(separator: ",")
    }
}

/// A trace's id: 16 bytes, written as 32 hex digits.
public struct TraceID: Sendable, Hashable {
    public var high: UInt64
    public var low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    public var hex: String { Hex.digits(high) + Hex.digits(low) }
}

/// A span's id: 8 bytes, written as 16 hex digits.
public struct SpanID: Sendable, Hashable {
    public var value: UInt64

    public init(_ value: UInt64) { self.value = value }

    public var hex: String { Hex.digits(value) }
}

enum Hex {
    static func digits(_ value: UInt64, count: Int = 16) -> String {
        String(unsafeUninitializedCapacity: count) { buffer in
            for index in 0..<count {
                let nibble = UInt8(truncatingIfNeeded: value >> UInt64(4 * (count - 1 - index)) & 0xF)
                buffer[index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
            }
            return count
        }
    }
}

/// Where a context keeps its span's `TraceParent`.
public enum TraceParentKey: InstrumentationContextKey {
    public typealias Value = TraceParent
    public static var nameOverride: String? { "traceparent" }
}

extension InstrumentationContext {
    /// The span this context is in, when it is in a trace.
    public var traceParent: TraceParent? {
        get { self[TraceParentKey.self] }
        set { self[TraceParentKey.self] = newValue }
    }
}

/// The tracer a trace's spans open through, kept in the trace's context
/// by the span that started it: found by one lookup, where the API's
/// `InstrumentationSystem.tracer` searches and casts on every span.
public final class ContextTracer: Sendable {
    public let tracer: any Tracer

    public init(_ tracer: any Tracer) {
        self.tracer = tracer
        RecordedTrace.mayExist.store(true, ordering: .relaxed)
    }
}

/// Where a context keeps its `ContextTracer`.
public enum ContextTracerKey: InstrumentationContextKey {
    public typealias Value = ContextTracer
}

/// Where Huddle's code opens its spans: only in a task whose trace is
/// recorded, through the tracer that trace started with.
public enum RecordedTrace {
    /// The current task's tracer when its trace is recorded; nil otherwise
    /// (tracing off, or this trace not sampled).
    public static var tracer: (any Tracer)? {
        guard mayExist.load(ordering: .relaxed), let context = InstrumentationContext.current,
            context.traceParent?.isSampled == true
        else { return nil }
        return context[ContextTracerKey.self]?.tracer
    }

    /// Whether any `ContextTracer` was made in this process: until one is,
    /// no context can carry one, and `tracer` answers without reading the
    /// task-local context (a lookup through every value the task's callers
    /// bound, which a request pays at each span point when tracing is off).
    static let mayExist = Atomic(false)
}
