import Tracing

/// A span's place in a trace, as W3C Trace Context carries it between
/// services (`traceparent`, `tracestate`): the trace's id, the span's, and
/// whether the trace is sampled (recorded and exported).
public struct TraceParent: Sendable, Hashable {
    public var traceID: TraceID
    public var spanID: SpanID
    /// Bit 0: sampled. Other bits are kept as they came, for what comes after.
    public var flags: UInt8
    /// The vendors' `tracestate`, passed on as it came.
    public var traceState: String?

    public init(traceID: TraceID, spanID: SpanID, flags: UInt8, traceState: String? = nil) {
        self.traceID = traceID
        self.spanID = spanID
        self.flags = flags
        self.traceState = traceState
    }

    public var isSampled: Bool { flags & 1 == 1 }

    /// The most of a `tracestate` kept: the specification's 32 members of
    /// at most 256 characters each is more than a propagator must pass on,
    /// and 512 is what it must.
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
        self.flags = UInt8(flags)
        traceState = state.flatMap { Self.acceptingTraceState($0) }
    }

    /// The `traceparent` header for this span, version 00.
    public var header: String {
        "00-\(traceID.hex)-\(spanID.hex)-\(flags & 1 == 1 ? "01" : "00")"
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

    /// A `tracestate` passed on: printable ASCII within the length kept;
    /// anything else is dropped whole, as the specification allows.
    private static func acceptingTraceState(_ state: String) -> String? {
        let trimmed = state.trimmingSpaces()
        guard !trimmed.isEmpty, trimmed.utf8.count <= maxTraceStateLength, trimmed.utf8.allSatisfy({ (0x20...0x7E).contains($0) })
        else { return nil }
        return trimmed
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

    /// Big-endian, as OTLP carries it.
    public var bytes: [UInt8] { Hex.bigEndian(high) + Hex.bigEndian(low) }
}

/// A span's id: 8 bytes, written as 16 hex digits.
public struct SpanID: Sendable, Hashable {
    public var value: UInt64

    public init(_ value: UInt64) { self.value = value }

    public var hex: String { Hex.digits(value) }

    public var bytes: [UInt8] { Hex.bigEndian(value) }
}

enum Hex {
    static func digits(_ value: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            for index in 0..<16 {
                let nibble = UInt8(truncatingIfNeeded: value >> (60 - 4 * UInt64(index)) & 0xF)
                buffer[index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
            }
            return 16
        }
    }

    static func bigEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * UInt64($0))) }
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
