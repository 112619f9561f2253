import Formats

/// Writes JSON straight into a byte buffer, in the order values are given,
/// escaping strings as JavaScript's JSON.stringify does and writing numbers
/// as JavaScript writes them, so responses match graphql-js byte for byte.
///
/// A writer owns its buffer and is not copied (a response is written into one
/// place): writing a byte is a capacity check and a store, with none of the
/// uniqueness checks an array makes on every append, which were a fifth of
/// writing a large response.
public struct JSONWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    /// How many bytes are written.
    public private(set) var count = 0

    public init(capacity: Int = 1024) {
        self.capacity = Swift.max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// The bytes written, as an array of their own.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    public var text: String { String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self) }

    /// Lends the bytes written.
    public func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// Drops the bytes from `count` on (a value that turned out to fail).
    public mutating func truncate(to count: Int) {
        precondition(count >= 0 && count <= self.count)
        self.count = count
    }

    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(toHold: count + extra) }
    }

    @inline(never)
    private mutating func grow(toHold needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// `[`, each element as `write` writes it, commas between, `]`.
    public mutating func list<Element>(_ elements: [Element], _ write: (Element, inout JSONWriter) -> Void) {
        byte(0x5B)
        for (index, element) in elements.enumerated() {
            if index > 0 { byte(0x2C) }
            write(element, &self)
        }
        byte(0x5D)
    }

    @inline(__always)
    public mutating func raw(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    public mutating func null() { raw("null") }

    /// Bytes that are already JSON.
    public mutating func append(_ json: [UInt8]) {
        json.withUnsafeBufferPointer { append($0) }
    }

    /// Bytes that are already JSON, from memory the caller keeps alive.
    @inline(__always)
    public mutating func append(_ json: UnsafeBufferPointer<UInt8>) {
        let length = json.count
        guard length > 0 else { return }
        reserve(length)
        let target = base + count
        if length <= 16 {
            // Keys and short values: a loop beats a call to memmove.
            for index in 0..<length { target[index] = json[index] }
        } else {
            target.update(from: json.baseAddress.unsafelyUnwrapped, count: length)
        }
        count += length
    }

    @inline(__always)
    mutating func append(_ raw: UnsafeRawBufferPointer) {
        append(raw.assumingMemoryBound(to: UInt8.self))
    }

    public mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// One byte of punctuation.
    @inline(__always)
    public mutating func byte(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    public mutating func int(_ value: Int) {
        if value >= 0 && value < 10 {
            byte(UInt8(0x30 + value))
            return
        }
        DecimalText.withText(Int64(value)) { append($0) }
    }

    /// A double as JavaScript writes it; NaN and infinities, which JSON cannot
    /// hold, become null as in JSON.stringify.
    public mutating func double(_ value: Double) {
        guard value.isFinite else { return null() }
        if value == value.rounded(), value.magnitude < 9.0e15 {
            DecimalText.withText(Int64(value)) { append($0) }
            return
        }
        if let (digits, places) = ShortDecimal.digits(of: value) {
            ShortDecimal.withText(digits: digits, places: places) { append($0) }
            return
        }
        var text = JavaScriptNumber.format(value)
        text.withUTF8 { append($0) }
    }

    public mutating func string(_ value: String) {
        byte(0x22)
        // Native strings lend their bytes without the copy `withUTF8` needs.
        if value.utf8.withContiguousStorageIfAvailable({ escaped($0) }) == nil {
            var text = value
            text.withUTF8 { escaped($0) }
        }
        byte(0x22)
    }

    /// The characters of a string, escaped as JSON.stringify escapes them.
    @inline(__always)
    private mutating func escaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard let base = utf8.baseAddress else { return }
        let length = utf8.count
        var chunkStart = 0
        var index = 0
        while index < length {
            // Eight bytes at a time while none of them needs escaping.
            if index + 8 <= length,
                !Self.mayNeedEscaping(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            {
                index += 8
                continue
            }
            let byte = utf8[index]
            index += 1
            guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
            let escapeStart = index - 1
            append(UnsafeBufferPointer(rebasing: utf8[chunkStart..<escapeStart]))
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
                self.byte(Self.hexDigits[Int(byte >> 4)])
                self.byte(Self.hexDigits[Int(byte & 0x0F)])
            }
            chunkStart = index
        }
        append(UnsafeBufferPointer(rebasing: utf8[chunkStart...]))
    }

    /// Whether any of a word's bytes may be a control character, `"` or `\`
    /// (never false when one is).
    @inline(__always)
    private static func mayNeedEscaping(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- ones &* 0x20) & ~word & highs
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let quoteFound = (quote &- ones) & ~quote & highs
        let backslashFound = (backslash &- ones) & ~backslash & highs
        return (control | quoteFound | backslashFound) != 0
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
            byte(0x5B)
            for (index, item) in items.enumerated() {
                if index > 0 { byte(0x2C) }
                self.value(item)
            }
            byte(0x5D)
        case .object(let members):
            byte(0x7B)
            for (index, member) in members.enumerated() {
                if index > 0 { byte(0x2C) }
                string(member.name)
                byte(0x3A)
                self.value(member.value)
            }
            byte(0x7D)
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
