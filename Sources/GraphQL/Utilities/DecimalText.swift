/// Integers as decimal text, written straight into a byte buffer: response
/// JSON and database parameters write many of them, and going through a
/// `String` for each costs more than the digits.
public enum DecimalText {
    @inlinable
    public static func append(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        // At most 20 digits, written backwards into scratch space on the stack.
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &scratch) { digits in
            var position = digits.count
            repeat {
                position -= 1
                digits[position] = UInt8(truncatingIfNeeded: 0x30 + magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: digits[position...]))
        }
    }
}
