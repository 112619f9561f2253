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
        var magnitude = value.magnitude
        // At most 20 digits and a sign, written backwards into scratch space on the stack.
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)
        return withUnsafeMutableBytes(of: &scratch) { digits in
            var position = digits.count
            repeat {
                position -= 1
                digits[position] = UInt8(truncatingIfNeeded: 0x30 + magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                position -= 1
                digits[position] = UInt8(ascii: "-")
            }
            return body(UnsafeRawBufferPointer(rebasing: digits[position...]))
        }
    }
}
