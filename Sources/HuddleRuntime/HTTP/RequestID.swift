/// A request's id, which its response echoes (`X-Request-Id`) and every
/// log line and error of the request carries: the one the client or its
/// proxy sent, when a log can carry it safely, else one made here.
public enum RequestID {
    /// The most characters of an id taken from a request.
    public static let maxLength = 128

    /// The id of the request being answered, where the server answers it
    /// (its handler, and what the handler runs): for the errors it returns.
    @TaskLocal public static var current: String?

    /// `header` as an id, when it is 1 to `maxLength` characters of letters,
    /// digits and `-_.:/+=@` (a UUID, a trace id, a load balancer's
    /// `Root=1-…`); nil for anything else, which is replaced, not cleaned.
    public static func accepting(_ header: String?) -> String? {
        guard let header, !header.isEmpty, header.utf8.count <= maxLength else { return nil }
        for byte in header.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "+"),
                UInt8(ascii: "="), UInt8(ascii: "@"):
                continue
            default: return nil
            }
        }
        return header
    }
}

/// Makes request ids, 32 hex digits each, for one loop: unique, not secret
/// (wyrand, seeded once from the system's generator), so making one costs
/// no system call.
final class RequestIDMaker {
    private var state: UInt64

    init() {
        var system = SystemRandomNumberGenerator()
        state = system.next()
    }

    private func next64() -> UInt64 {
        state &+= 0xa076_1d64_78bd_642f
        let product = state.multipliedFullWidth(by: state ^ 0xe703_7ed1_a0b4_28db)
        return product.high ^ product.low
    }

    func make() -> String {
        let first = next64(), second = next64()
        return String(unsafeUninitializedCapacity: 32) { buffer in
            for index in 0..<16 {
                buffer[index] = Self.hexDigit(first >> (60 - 4 * UInt64(index)))
                buffer[16 + index] = Self.hexDigit(second >> (60 - 4 * UInt64(index)))
            }
            return 32
        }
    }

    private static func hexDigit(_ value: UInt64) -> UInt8 {
        let nibble = UInt8(truncatingIfNeeded: value & 0xF)
        return nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
