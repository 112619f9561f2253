/// Protocol Buffers' wire format, the little of it OTLP needs: varints,
/// fixed 64- and 32-bit fields, doubles, and length-delimited bytes,
/// strings and messages, all in one buffer.
struct ProtobufWriter {
    private(set) var bytes: [UInt8] = []

    private mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    private mutating func tag(_ field: Int, _ wireType: UInt64) {
        varint(UInt64(field) << 3 | wireType)
    }

    mutating func varint(_ field: Int, _ value: UInt64) {
        guard value != 0 else { return }
        tag(field, 0)
        varint(value)
    }

    /// A varint field written at 0, where a oneof must show which member it holds.
    mutating func emptyVarint(_ field: Int) {
        tag(field, 0)
        varint(0)
    }

    mutating func int64(_ field: Int, _ value: Int64) {
        varint(field, UInt64(bitPattern: value))
    }

    mutating func bool(_ field: Int, _ value: Bool) {
        varint(field, value ? 1 : 0)
    }

    mutating func fixed64(_ field: Int, _ value: UInt64) {
        guard value != 0 else { return }
        tag(field, 1)
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    mutating func fixed32(_ field: Int, _ value: UInt32) {
        guard value != 0 else { return }
        tag(field, 5)
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    mutating func double(_ field: Int, _ value: Double) {
        tag(field, 1)
        let bits = value.bitPattern
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
    }

    /// Ids, as OTLP's bytes fields carry them: each 64-bit word big-endian.
    mutating func id(_ field: Int, _ words: UInt64...) {
        tag(field, 2)
        varint(UInt64(8 * words.count))
        for word in words {
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
    }

    mutating func string(_ field: Int, _ value: String) {
        guard !value.isEmpty else { return }
        tag(field, 2)
        var value = value
        value.withUTF8 { utf8 in
            varint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// A field that is a message, written by `body` into this same buffer
    /// after a byte kept for its length (most of OTLP's messages are
    /// shorter than 128 bytes; a longer one's length is made room for);
    /// written even when empty where `always` (a oneof's member must be
    /// present to be chosen).
    mutating func message(_ field: Int, always: Bool = false, _ body: (inout ProtobufWriter) -> Void) {
        let mark = bytes.count
        tag(field, 2)
        let lengthAt = bytes.count
        bytes.append(0)
        let start = bytes.count
        body(&self)
        let length = bytes.count - start
        if length == 0 && !always {
            bytes.removeLast(bytes.count - mark)
        } else if length < 0x80 {
            bytes[lengthAt] = UInt8(length)
        } else {
            var prefix: [UInt8] = []
            var value = UInt64(length)
            while value >= 0x80 {
                prefix.append(UInt8(truncatingIfNeeded: value) | 0x80)
                value >>= 7
            }
            prefix.append(UInt8(value))
            bytes.replaceSubrange(lengthAt..<start, with: prefix)
        }
    }
}
