import Formats

/// The shortest decimal that reads back as a double, found cheaply for the
/// doubles responses carry most (prices, ratings, coordinates: a few decimal
/// places), written as JavaScript writes them.
///
/// Formatting through `description` builds a `String` and runs a general
/// shortest-digits search for every value. Here, for k = 1, 2, ... decimal
/// places, the integers next to `value × 10^k` are tried: `n / 10^k` is
/// exact arithmetic on exact operands, correctly rounded, so it equals
/// `value` exactly when the decimal n·10^-k reads back as `value`. The first
/// k with one such n gives the fewest digits, so the same digits JavaScript
/// and Swift print. Where two candidates read back, or none does within
/// eight places, the caller formats the general way.
public enum ShortDecimal {
    /// The digits and decimal places of `value`, or nil to take the general path.
    /// Only for finite values with 1e-4 ≤ |value| < 1e15 that are not integers.
    @inlinable
    public static func digits(of value: Double) -> (digits: Int64, places: Int)? {
        let magnitude = value.magnitude
        guard magnitude >= 1e-4, magnitude < 1e15 else { return nil }
        var scale = 10.0
        for places in 1...8 {
            let scaled = value * scale
            guard scaled.magnitude < 9.0e15 else { return nil }
            let nearest = scaled.rounded()
            let below = (nearest - 1) / scale == value
            let at = nearest / scale == value
            let above = (nearest + 1) / scale == value
            switch (below, at, above) {
            case (false, true, false): return (Int64(nearest), places)
            case (true, false, false): return (Int64(nearest - 1), places)
            case (false, false, true): return (Int64(nearest + 1), places)
            case (false, false, false): break
            // Two decimals of this length read back: which JavaScript picks needs the general path.
            default: return nil
            }
            scale *= 10
        }
        return nil
    }

    /// Lends `digits · 10^-places` in plain decimal notation.
    @inlinable
    public static func withText<Result>(digits: Int64, places: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        var unit: UInt64 = 1
        for _ in 0..<places { unit *= 10 }
        let magnitude = digits.magnitude
        // At most 16 digits, a point, a leading zero and a sign, written backwards on the stack.
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)
        return withUnsafeMutableBytes(of: &scratch) { text in
            var position = DecimalText.prependDigits(of: magnitude % unit, minimumCount: places, to: text, before: text.count)
            position -= 1
            text[position] = UInt8(ascii: ".")
            position = DecimalText.prependDigits(of: magnitude / unit, to: text, before: position)
            if digits < 0 {
                position -= 1
                text[position] = UInt8(ascii: "-")
            }
            return body(UnsafeRawBufferPointer(rebasing: text[position...]))
        }
    }
}
