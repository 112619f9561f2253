/// Protocol Buffers' wire format, the little of it OTLP needs: varints,
/// fixed 64- and 32-bit fields, doubles, and length-delimited bytes,
/// strings and messages. A message is written into a writer of its own
/// and appended with its length.
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

    mutating func bytes(_ field: Int, _ value: [UInt8]) {
        guard !value.isEmpty else { return }
        tag(field, 2)
        varint(UInt64(value.count))
        bytes += value
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

    /// A field that is a message, written by `body`; written even when
    /// empty where `always` (a oneof's member must be present to be chosen).
    mutating func message(_ field: Int, always: Bool = false, _ body: (inout ProtobufWriter) -> Void) {
        var inner = ProtobufWriter()
        body(&inner)
        guard always || !inner.bytes.isEmpty else { return }
        tag(field, 2)
        varint(UInt64(inner.bytes.count))
        bytes += inner.bytes
    }
}
