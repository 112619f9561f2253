import Formats
import Foundation
import HuddleRuntime

/// A Swift value bound as a statement parameter, in PostgreSQL's text format.
/// Parameters are always bound, never spliced into SQL; the server infers
/// each one's type from the statement.
public protocol PostgresEncodable: Sendable {
    /// Appends the value's text form.
    func encodePostgresText(into buffer: inout [UInt8])
    /// Whether this value is SQL NULL.
    var isPostgresNull: Bool { get }
}

extension PostgresEncodable {
    public var isPostgresNull: Bool { false }
}

extension Optional: PostgresEncodable where Wrapped: PostgresEncodable {
    public func encodePostgresText(into buffer: inout [UInt8]) {
        self?.encodePostgresText(into: &buffer)
    }

    public var isPostgresNull: Bool { self?.isPostgresNull ?? true }
}

extension Bool: PostgresEncodable {
    public func encodePostgresText(into buffer: inout [UInt8]) { buffer.append(self ? UInt8(ascii: "t") : UInt8(ascii: "f")) }
}

extension BinaryInteger where Self: PostgresEncodable {
    public func encodePostgresText(into buffer: inout [UInt8]) {
        // Digits written straight into the buffer: id lists have hundreds.
        guard let value = Int64(exactly: self) else { return buffer.append(contentsOf: String(self).utf8) }
        DecimalText.append(value, to: &buffer)
    }
}

extension Int: PostgresEncodable {}
extension Int64: PostgresEncodable {}
extension Int32: PostgresEncodable {}
extension Int16: PostgresEncodable {}

extension Double: PostgresEncodable {
    public func encodePostgresText(into buffer: inout [UInt8]) {
        let text = isNaN ? "NaN" : isInfinite ? (self < 0 ? "-Infinity" : "Infinity") : String(self)
        buffer.append(contentsOf: text.utf8)
    }
}

extension Float: PostgresEncodable {
    public func encodePostgresText(into buffer: inout [UInt8]) { Double(self).encodePostgresText(into: &buffer) }
}

extension String: PostgresEncodable {
    public func encodePostgresText(into buffer: inout [UInt8]) { buffer.append(contentsOf: utf8) }
}

extension Substring: PostgresEncodable {
    public func encodePostgresText(into buffer: inout [UInt8]) { buffer.append(contentsOf: utf8) }
}

extension UUID: PostgresEncodable {
    public func encodePostgresText(into buffer: inout [UInt8]) { buffer.append(contentsOf: uuidString.utf8) }
}

/// Binary data for a `bytea` parameter, in the hex format.
public struct PostgresBytea: PostgresEncodable, Hashable {
    public var bytes: [UInt8]
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public func encodePostgresText(into buffer: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        buffer.append(UInt8(ascii: "\\"))
        buffer.append(UInt8(ascii: "x"))
        for byte in bytes {
            buffer.append(hex[Int(byte >> 4)])
            buffer.append(hex[Int(byte & 0xF)])
        }
    }
}

/// An array parameter: `{1,2,3}`, with every element quoted so that commas,
/// braces, quotes and the word NULL inside text survive.
extension Array: PostgresEncodable where Element: PostgresEncodable {
    public func encodePostgresText(into buffer: inout [UInt8]) {
        // This runs unspecialised (through `any PostgresEncodable`): a list
        // of ids, the common parameter, is written by code for it; and the
        // loop below walks a plain range, as every generic wrapper type
        // (`indices`', `enumerated()`'s) costs a metadata lookup per use.
        if Element.self == Int64.self {
            return PostgresArrayText.encode(integers: unsafeBitCast(self, to: [Int64].self), into: &buffer)
        }
        buffer.append(UInt8(ascii: "{"))
        var element: [UInt8] = []
        for index in 0..<count {
            let value = self[index]
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            if value.isPostgresNull {
                buffer.append(contentsOf: "NULL".utf8)
                continue
            }
            element.removeAll(keepingCapacity: true)
            value.encodePostgresText(into: &element)
            buffer.append(UInt8(ascii: "\""))
            for byte in element {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { buffer.append(UInt8(ascii: "\\")) }
                buffer.append(byte)
            }
            buffer.append(UInt8(ascii: "\""))
        }
        buffer.append(UInt8(ascii: "}"))
    }
}

extension PostgresArrayText {
    /// `{1,2,3}`: integers need no quotes.
    static func encode(integers: [Int64], into buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "{"))
        for (index, value) in integers.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            DecimalText.append(value, to: &buffer)
        }
        buffer.append(UInt8(ascii: "}"))
    }
}
