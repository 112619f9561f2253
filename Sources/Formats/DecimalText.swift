/// Integers as decimal text, written straight into a byte buffer: response
/// JSON and database parameters write many of them, and going through a
/// `String` for each costs more than the digits.
public enum DecimalText {
    @inlinable
    public static func append(_ value: Int64, to bytes: inout [UInt8]) {
        withText(value) { bytes.append(contentsOf: $0) }
    }

    /// Lends the digits of `value` (with a leading `-` when negative).
    @inlinable
    public static func withText<Result>(_ value: Int64, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        // At most 20 digits and a sign, written backwards into scratch space on the stack.
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)
        return withUnsafeMutableBytes(of: &scratch) { text in
            var position = prependDigits(of: value.magnitude, to: text, before: text.count)
            if value < 0 {
                position -= 1
                text[position] = UInt8(ascii: "-")
            }
            return body(UnsafeRawBufferPointer(rebasing: text[position...]))
        }
    }

    /// Writes the decimal digits of `magnitude`, at least `minimumCount` of
    /// them (zero-padded), to end just before `end`; returns where they start.
    @inlinable
    public static func prependDigits(
        of magnitude: UInt64, minimumCount: Int = 1, to text: UnsafeMutableRawBufferPointer, before end: Int
    ) -> Int {
        var remaining = magnitude
        var position = end
        repeat {
            position -= 1
            text[position] = UInt8(truncatingIfNeeded: 0x30 + remaining % 10)
            remaining /= 10
        } while remaining > 0 || end - position < minimumCount
        return position
    }
}
