/// Writes JSON straight into a byte buffer, in the order values are given,
/// escaping strings as JavaScript's JSON.stringify does and writing numbers
/// as JavaScript writes them, so responses match graphql-js byte for byte.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// How many bytes are written.
    public var count: Int { bytes.count }

    /// Drops the bytes from `count` on (a value that turned out to fail).
    public mutating func truncate(to count: Int) {
        bytes.removeSubrange(count...)
    }

    @inline(__always)
    public mutating func raw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    public mutating func null() { raw("null") }

    /// Bytes that are already JSON.
    public mutating func append(_ json: [UInt8]) {
        bytes.append(contentsOf: json)
    }

    /// Bytes that are already JSON, from memory the caller keeps alive.
    @inline(__always)
    public mutating func append(_ json: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: json)
    }

    public mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// One byte of punctuation.
    @inline(__always)
    public mutating func byte(_ byte: UInt8) {
        bytes.append(byte)
    }

    public mutating func int(_ value: Int) {
        if value >= 0 && value < 10 {
            bytes.append(UInt8(0x30 + value))
            return
        }
        DecimalText.append(Int64(value), to: &bytes)
    }

    /// A double as JavaScript writes it; NaN and infinities, which JSON cannot
    /// hold, become null as in JSON.stringify.
    public mutating func double(_ value: Double) {
        guard value.isFinite else { return null() }
        if value == value.rounded(), value.magnitude < 9.0e15 {
            DecimalText.append(Int64(value), to: &bytes)
            return
        }
        if let (digits, places) = ShortDecimal.digits(of: value) {
            ShortDecimal.append(digits: digits, places: places, to: &bytes)
            return
        }
        bytes.append(contentsOf: JavaScriptNumber.format(value).utf8)
    }

    public mutating func string(_ value: String) {
        bytes.append(0x22)
        // Native strings lend their bytes without the copy `withUTF8` needs.
        if value.utf8.withContiguousStorageIfAvailable({ escaped($0) }) == nil {
            var text = value
            text.withUTF8 { escaped($0) }
        }
        bytes.append(0x22)
    }

    /// The characters of a string, escaped as JSON.stringify escapes them.
    @inline(__always)
    private mutating func escaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        do {
            var chunkStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[chunkStart..<index]))
                switch byte {
                case 0x22: raw("\\\"")
                case 0x5C: raw("\\\\")
                case 0x08: raw("\\b")
                case 0x0C: raw("\\f")
                case 0x0A: raw("\\n")
                case 0x0D: raw("\\r")
                case 0x09: raw("\\t")
                default:
                    raw("\\u00")
                    bytes.append(Self.hexDigits[Int(byte >> 4)])
                    bytes.append(Self.hexDigits[Int(byte & 0x0F)])
                }
                chunkStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[chunkStart...]))
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// A whole value, objects' members in their order.
    public mutating func value(_ value: GraphQLValue) {
        switch value {
        case .null: null()
        case .boolean(let boolean): bool(boolean)
        case .int(let int): self.int(int)
        case .float(let double): self.double(double)
        case .string(let string), .enum(let string): self.string(string)
        case .list(let items):
            bytes.append(0x5B)
            for (index, item) in items.enumerated() {
                if index > 0 { bytes.append(0x2C) }
                self.value(item)
            }
            bytes.append(0x5D)
        case .object(let members):
            bytes.append(0x7B)
            for (index, member) in members.enumerated() {
                if index > 0 { bytes.append(0x2C) }
                string(member.name)
                bytes.append(0x3A)
                self.value(member.value)
            }
            bytes.append(0x7D)
        }
    }
}

extension GraphQLValue {
    /// The value as compact JSON.
    public var json: String {
        var writer = JSONWriter(capacity: 64)
        writer.value(self)
        return writer.text
    }
}
