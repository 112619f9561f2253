import Synchronization
import TraceContext

/// Trace and span ids: random-looking and unique in the process without
/// a system call or a lock each (a counter mixed by SplitMix64, seeded
/// once from the system's generator). Not secret: ids name, they do not
/// guard.
final class SpanIDMaker: Sendable {
    private let counter: Atomic<UInt64>
    private let seed: UInt64

    init() {
        var system = SystemRandomNumberGenerator()
        counter = Atomic(system.next())
        seed = system.next()
    }

    private func next() -> UInt64 {
        var value = counter.wrappingAdd(0x9E37_79B9_7F4A_7C15, ordering: .relaxed).newValue ^ seed
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    func spanID() -> SpanID {
        while true {
            let value = next()
            if value != 0 { return SpanID(value) }
        }
    }

    func traceID() -> TraceID {
        TraceID(high: next(), low: next() | 1)
    }
}
