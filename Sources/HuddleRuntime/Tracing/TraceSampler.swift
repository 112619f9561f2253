import TraceContext

/// Which traces are recorded, as OpenTelemetry's samplers decide it: a
/// trace a caller started follows the caller's decision (parent-based),
/// and one that starts here is kept by the ratio of its id, so every
/// service deciding by the same ratio keeps the same traces.
public struct TraceSampler: Sendable, Equatable {
    /// The share of traces that start here that are recorded, 0 to 1.
    public var ratio: Double
    /// Whether a span with a parent follows the parent's decision (the
    /// `parentbased_` samplers); otherwise the ratio decides every span's trace.
    public var followsParent: Bool

    public init(ratio: Double = 1, followsParent: Bool = true) {
        self.ratio = min(max(ratio, 0), 1)
        self.followsParent = followsParent
    }

    /// OpenTelemetry's `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG`:
    /// `always_on`, `always_off`, `traceidratio` and their `parentbased_`
    /// forms. Nil, with the reason, for a name or ratio it does not know.
    public static func named(_ name: String, argument: String?) -> Result<TraceSampler, SamplerError> {
        let ratio: Double
        if let argument, !argument.isEmpty {
            guard let parsed = Double(argument), (0...1).contains(parsed) else {
                return .failure(SamplerError(description: "OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1, not \(argument)"))
            }
            ratio = parsed
        } else {
            ratio = 1
        }
        switch name {
        case "always_on": return .success(TraceSampler(ratio: 1, followsParent: false))
        case "always_off": return .success(TraceSampler(ratio: 0, followsParent: false))
        case "traceidratio": return .success(TraceSampler(ratio: ratio, followsParent: false))
        case "parentbased_always_on": return .success(TraceSampler(ratio: 1))
        case "parentbased_always_off": return .success(TraceSampler(ratio: 0))
        case "parentbased_traceidratio": return .success(TraceSampler(ratio: ratio))
        default:
            return .failure(
                SamplerError(
                    description:
                        "OTEL_TRACES_SAMPLER must be always_on, always_off, traceidratio or one of them with parentbased_, not \(name)"))
        }
    }

    public struct SamplerError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Whether a span of `traceID` is recorded, under `parent` when it has one.
    public func samples(_ traceID: TraceID, parent: TraceParent?) -> Bool {
        if followsParent, let parent { return parent.isSampled }
        if ratio >= 1 { return true }
        if ratio <= 0 { return false }
        // OpenTelemetry's TraceIdRatioBased: the id's last 56 bits (which
        // W3C Trace Context level 2 asks to be random) at or above the
        // threshold that rejects 1 - ratio of them.
        // In integers: a Double cannot hold every 56-bit value.
        let random = traceID.low & 0x00FF_FFFF_FFFF_FFFF
        let threshold = UInt64(min(((1 - ratio) * 0x1p56).rounded(.up), 0x1p56))
        return random >= threshold
    }
}
