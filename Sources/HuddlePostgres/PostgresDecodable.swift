import Foundation

#if canImport(Glibc)
    import Glibc
    import HuddleRuntime
#endif

/// A Swift type that can be read from PostgreSQL's text format.
///
/// Connections set `DateStyle=ISO`, `TimeZone=UTC` and
/// `IntervalStyle=iso_8601`, so dates, timestamps and intervals arrive in one
/// known shape each.
public protocol PostgresDecodable: Sendable {
    static func decode(postgresText bytes: UnsafeBufferPointer<UInt8>, type: PostgresType) throws -> Self
    /// The value for SQL NULL; non-optional types throw.
    static func decodeNull() throws -> Self
}

extension PostgresDecodable {
    public static func decodeNull() throws -> Self {
        throw PostgresError(.decoding, "NULL where \(Self.self) was expected")
    }

    static func mismatch(_ bytes: UnsafeBufferPointer<UInt8>, _ type: PostgresType) -> PostgresError {
        PostgresError(.decoding, "cannot read \(String(decoding: bytes, as: UTF8.self).debugDescription) (\(type)) as \(Self.self)")
    }
}

extension Optional: PostgresDecodable where Wrapped: PostgresDecodable {
    public static func decode(postgresText bytes: UnsafeBufferPointer<UInt8>, type: PostgresType) throws -> Self {
        try Wrapped.decode(postgresText: bytes, type: type)
    }

    public static func decodeNull() throws -> Self { nil }
}

extension Bool: PostgresDecodable {
    public static func decode(postgresText bytes: UnsafeBufferPointer<UInt8>, type: PostgresType) throws -> Bool {
        guard bytes.count == 1 else { throw mismatch(bytes, type) }
        switch bytes[0] {
        case UInt8(ascii: "t"): return true
        case UInt8(ascii: "f"): return false
        default: throw mismatch(bytes, type)
        }
    }
}

/// Parses a decimal integer without going through String.
@inline(__always)
private func parseInteger(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
    var index = 0
    var negative = false
    if bytes.count > 0, bytes[0] == UInt8(ascii: "-") {
        negative = true
        index = 1
    }
    guard index < bytes.count else { return nil }
    var value: Int64 = 0
    while index < bytes.count {
        let digit = bytes[index] &- UInt8(ascii: "0")
        guard digit < 10 else { return nil }
        let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
        let (sum, overflow2) = negative ? times.subtractingReportingOverflow(Int64(digit)) : times.addingReportingOverflow(Int64(digit))
        guard !overflow1, !overflow2 else { return nil }
        value = sum
        index += 1
    }
    return value
}

extension Int: PostgresDecodable {
    public static func decode(postgresText bytes: UnsafeBufferPointer<UInt8>, type: PostgresType) throws -> Int {
        guard let value = parseInteger(bytes) else { throw mismatch(bytes, type) }
        return Int(value)
    }
}

extension Int64: PostgresDecodable {
    public static func decode(postgresText bytes: UnsafeBufferPointer<UInt8>, type: PostgresType) throws -> Int64 {
        guard let value = parseInteger(bytes) else { throw mismatch(bytes, type) }
        return value
    }
}

extension Int32: PostgresDecodable {
    public static func decode(postgresText bytes: UnsafeBufferPointer<UInt8>, type: PostgresType) throws -> Int32 {
        guard let value = parseInteger(bytes), let narrow = Int32(exactly: value) else { throw mismatch(bytes, type) }
        return narrow
    }
}

extension Int16: PostgresDecodable {
    public static func decode(postgresText bytes: UnsafeBufferPointer<UInt8>, type: PostgresType) throws -> Int16 {
        guard let value = parseInteger(bytes), let narrow = Int16(exactly: value) else { throw mismatch(bytes, type) }
        return narrow
    }
}

extension Double: PostgresDecodable {
    public static func decode(postgresText bytes: UnsafeBufferPointer<UInt8>, type: PostgresType) throws -> Double {
        // PostgreSQL writes "Infinity", "-Infinity" and "NaN", as strtod reads
        // them. Read in place from a stack copy: no String per value.
        guard !bytes.isEmpty, bytes.count < 64 else { throw mismatch(bytes, type) }
        if let exact = exactDecimal(bytes) { return exact }
        return try withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = CChar(bitPattern: byte) }
            buffer[bytes.count] = 0
            var end: UnsafeMutablePointer<CChar>?
            let value = strtod(buffer.baseAddress!, &end)
            guard end == buffer.baseAddress! + bytes.count,
                !bytes.contains(where: { $0 == 0x20 || $0 == 0x09 || $0 | 0x20 == UInt8(ascii: "x") })
            else {
                throw mismatch(bytes, type)
            }
            return value
        }
    }
}

extension Double {
    private static let powersOfTen: [Double] = (0...22).map { pow(10, Double($0)) }

    /// Clinger's fast path: a decimal of at most 15 significant digits whose
    /// exponent is within ±22 is one correctly rounded multiplication or
    /// division of two exact doubles. Most stored coordinates and amounts
    /// are; the rest (and anything unusual) goes to strtod.
    static func exactDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        let count = bytes.count
        var negative = false
        if bytes[0] == UInt8(ascii: "-") {
            negative = true
            index = 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var sawDigit = false
        while index < count, bytes[index] &- 48 < 10 {
            mantissa = mantissa &* 10 &+ UInt64(bytes[index] &- 48)
            if mantissa != 0 { digits += 1 }
            sawDigit = true
            index += 1
        }
        if index < count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < count, bytes[index] &- 48 < 10 {
                mantissa = mantissa &* 10 &+ UInt64(bytes[index] &- 48)
                if mantissa != 0 { digits += 1 }
                exponent -= 1
                sawDigit = true
                index += 1
            }
        }
        guard sawDigit, digits <= 15 else { return nil }
        if index < count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentNegative = false
            if index < count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            var written = 0
            var exponentDigits = 0
            while index < count, bytes[index] &- 48 < 10, exponentDigits < 4 {
                written = written * 10 + Int(bytes[index] &- 48)
                exponentDigits += 1
                index += 1
            }
            guard exponentDigits > 0 else { return nil }
            exponent += exponentNegative ? -written : written
        }
        guard index == count, abs(exponent) <= 22 else { return nil }
        var value = Double(mantissa)
        value = exponent < 0 ? value / powersOfTen[-exponent] : value * powersOfTen[exponent]
        return negative ? -value : value
    }
}

extension Float: PostgresDecodable {
    public static func decode(postgresText bytes: UnsafeBufferPointer<UInt8>, type: PostgresType) throws -> Float {
        guard let value = Float(String(decoding: bytes, as: UTF8.self)) else { throw mismatch(bytes, type) }
        return value
    }
}

extension String: PostgresDecodable {
    public static func decode(postgresText bytes: UnsafeBufferPointer<UInt8>, type: PostgresType) throws -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}

extension UUID: PostgresDecodable {
    public static func decode(postgresText bytes: UnsafeBufferPointer<UInt8>, type: PostgresType) throws -> UUID {
        guard let value = UUID(uuidString: String(decoding: bytes, as: UTF8.self)) else { throw mismatch(bytes, type) }
        return value
    }
}

/// bytea, from its hex output format (`\x0a1b...`).
extension Array: PostgresDecodable where Element: PostgresDecodable {
    public static func decode(postgresText bytes: UnsafeBufferPointer<UInt8>, type: PostgresType) throws -> [Element] {
        // This runs unspecialised (through the conformance), so the common
        // element types are checked for first and read by code written for
        // them, the arrays reinterpreted: `as!` from a generic context cast
        // them element by element, and the general path below costs a
        // metadata lookup or two per call, which is more than reading a
        // habit's list of days.
        if type == .bytea, Element.self == UInt8.self {
            return unsafeBitCast(try PostgresBytes.decodeHex(bytes), to: [Element].self)
        }
        guard let elementType = type.element else { throw mismatch(bytes, type) }
        if Element.self == Int64.self, let integers = PostgresArrayText.integers(of: bytes, as: Int64.self) {
            return unsafeBitCast(integers, to: [Element].self)
        }
        if Element.self == Int.self, let integers = PostgresArrayText.integers(of: bytes, as: Int.self) {
            return unsafeBitCast(integers, to: [Element].self)
        }
        if Element.self == Int32.self, let integers = PostgresArrayText.integers(of: bytes, as: Int32.self) {
            return unsafeBitCast(integers, to: [Element].self)
        }
        if Element.self == String.self {
            var strings: [String] = []
            try PostgresArrayText.forEachElement(of: bytes) { element in
                strings.append(try element.map { String(decoding: $0, as: UTF8.self) } ?? String.decodeNull())
            }
            return unsafeBitCast(strings, to: [Element].self)
        }
        var values: [Element] = []
        try PostgresArrayText.forEachElement(of: bytes) { element in
            values.append(try element.map { try Element.decode(postgresText: $0, type: elementType) } ?? Element.decodeNull())
        }
        return values
    }
}

extension UInt8: PostgresDecodable {
    public static func decode(postgresText bytes: UnsafeBufferPointer<UInt8>, type: PostgresType) throws -> UInt8 {
        guard let value = parseInteger(bytes), let narrow = UInt8(exactly: value) else { throw mismatch(bytes, type) }
        return narrow
    }
}

enum PostgresBytes {
    static func decodeHex(_ bytes: UnsafeBufferPointer<UInt8>) throws -> [UInt8] {
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "\\"), bytes[1] == UInt8(ascii: "x"), bytes.count % 2 == 0 else {
            throw PostgresError(.decoding, "bytea not in hex format")
        }
        func nibble(_ byte: UInt8) throws -> UInt8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
            default: throw PostgresError(.decoding, "bad hex digit in bytea")
            }
        }
        var output = [UInt8]()
        output.reserveCapacity((bytes.count - 2) / 2)
        var index = 2
        while index < bytes.count {
            output.append(try nibble(bytes[index]) << 4 | nibble(bytes[index + 1]))
            index += 2
        }
        return output
    }
}

/// PostgreSQL's text form of a one-dimensional array: `{a,"b c",NULL}`.
enum PostgresArrayText {
    /// The elements of `{1,-2,3}`, or nil for anything else (NULLs, bounds,
    /// quoting, numbers out of range), which the general path reads.
    static func integers<Integer: FixedWidthInteger>(of bytes: UnsafeBufferPointer<UInt8>, as _: Integer.Type) -> [Integer]? {
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "{"), bytes[bytes.count - 1] == UInt8(ascii: "}") else { return nil }
        let end = bytes.count - 1
        var values: [Integer] = []
        guard end > 1 else { return values }
        values.reserveCapacity(end / 2)
        var start = 1
        while start <= end {
            var stop = start
            while stop < end, bytes[stop] != UInt8(ascii: ",") { stop += 1 }
            guard let value = parseInteger(UnsafeBufferPointer(rebasing: bytes[start..<stop])),
                let narrow = Integer(exactly: value)
            else { return nil }
            values.append(narrow)
            start = stop + 1
        }
        return values
    }

    /// Calls `body` with each element's text, nil for NULL. An element
    /// without quotes or escapes is handed over where it lies; one with
    /// them is unescaped into a buffer reused for the next.
    static func forEachElement(
        of bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>?) throws -> Void
    ) throws {
        var index = 0
        // An explicit lower bound (`[0:2]={...}`) is dropped: Swift arrays start at 0.
        if bytes.first == UInt8(ascii: "[") {
            guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { throw bad() }
            index = equals + 1
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else { throw bad() }
        index += 1
        let end = bytes.count - 1
        if index == end { return }
        var unescaped: [UInt8] = []
        while true {
            guard index < end else { throw bad() }
            if bytes[index] == UInt8(ascii: "{") {
                throw PostgresError(.decoding, "multi-dimensional arrays are not supported")
            }
            if bytes[index] == UInt8(ascii: "\"") {
                index += 1
                let start = index
                var escaped = false
                while true {
                    guard index < end else { throw bad() }
                    let byte = bytes[index]
                    if byte == UInt8(ascii: "\"") { break }
                    if byte == UInt8(ascii: "\\") {
                        if !escaped {
                            escaped = true
                            unescaped.removeAll(keepingCapacity: true)
                            unescaped.append(contentsOf: bytes[start..<index])
                        }
                        index += 1
                        guard index < end else { throw bad() }
                    }
                    if escaped { unescaped.append(bytes[index]) }
                    index += 1
                }
                if escaped {
                    try unescaped.withUnsafeBufferPointer { try body($0) }
                } else {
                    try body(UnsafeBufferPointer(rebasing: bytes[start..<index]))
                }
                // Past the closing quote.
                index += 1
            } else {
                let start = index
                while index < end, bytes[index] != UInt8(ascii: ",") { index += 1 }
                let element = UnsafeBufferPointer(rebasing: bytes[start..<index])
                try body(element.elementsEqual("NULL".utf8) ? nil : element)
            }
            if index == end { return }
            guard bytes[index] == UInt8(ascii: ",") else { throw bad() }
            index += 1
        }
    }

    private static func bad() -> PostgresError { PostgresError(.decoding, "malformed array text") }
}
