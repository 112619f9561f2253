import Formats
import Foundation
import HuddleRuntime

/// A calendar date (`date`), without a time zone.
public struct PostgresDate: Hashable, Sendable, CustomStringConvertible, PostgresDecodable, PostgresEncodable {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Days since 1970-01-01 (proleptic Gregorian).
    public var daysSinceEpoch: Int {
        GregorianCalendar.daysSinceEpoch(year: year, month: month, day: day)
    }

    public var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    public static func decode(postgresText bytes: UnsafeBufferPointer<UInt8>, type: PostgresType) throws -> PostgresDate {
        var scanner = ByteScanner(bytes)
        guard let year = scanner.number(), scanner.skip("-"), let month = scanner.number(), scanner.skip("-"),
            let day = scanner.number(), scanner.atEnd
        else { throw mismatch(bytes, type) }
        return PostgresDate(year: year, month: month, day: day)
    }

    public func encodePostgresText(into buffer: inout [UInt8]) { buffer.append(contentsOf: description.utf8) }
}

/// `timestamptz` (and `timestamp`, read as UTC) as Foundation's `Date`;
/// `infinity` and `-infinity` become `distantFuture` and `distantPast`.
extension Date: PostgresDecodable, PostgresEncodable {
    public static func decode(postgresText bytes: UnsafeBufferPointer<UInt8>, type: PostgresType) throws -> Date {
        if bytes.elementsEqual("infinity".utf8) { return .distantFuture }
        if bytes.elementsEqual("-infinity".utf8) { return .distantPast }
        // 2026-11-22 02:05:03.123456+00, or with +05:30 / +05:30:15 offsets.
        var scanner = ByteScanner(bytes)
        guard let year = scanner.number(), scanner.skip("-"), let month = scanner.number(), scanner.skip("-"),
            let day = scanner.number(), scanner.skip(" ") || scanner.skip("T"),
            let hour = scanner.number(), scanner.skip(":"), let minute = scanner.number(), scanner.skip(":"),
            let second = scanner.number()
        else { throw mismatch(bytes, type) }
        var fraction = 0.0
        if scanner.skip(".") {
            var scale = 0.1
            while let digit = scanner.digit() {
                fraction += Double(digit) * scale
                scale /= 10
            }
        }
        var offset = 0
        if let sign = scanner.peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            scanner.advance()
            guard let hours = scanner.number() else { throw mismatch(bytes, type) }
            offset = hours * 3600
            if scanner.skip(":"), let minutes = scanner.number() { offset += minutes * 60 }
            if scanner.skip(":"), let seconds = scanner.number() { offset += seconds }
            if sign == UInt8(ascii: "-") { offset = -offset }
        }
        if scanner.skip(" BC") { throw PostgresError(.decoding, "timestamps before the common era are not supported") }
        guard scanner.atEnd else { throw mismatch(bytes, type) }
        let days = PostgresDate(year: year, month: month, day: day).daysSinceEpoch
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// RFC 3339 in UTC with microseconds, which PostgreSQL reads exactly.
    public func encodePostgresText(into buffer: inout [UInt8]) {
        if self == .distantFuture { return buffer.append(contentsOf: "infinity".utf8) }
        if self == .distantPast { return buffer.append(contentsOf: "-infinity".utf8) }
        let micros = (timeIntervalSince1970 * 1_000_000).rounded()
        let totalSeconds = Int((micros / 1_000_000).rounded(.down))
        let microseconds = Int(micros - Double(totalSeconds) * 1_000_000)
        var days = totalSeconds / 86_400
        var secondOfDay = totalSeconds % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let date = PostgresDate(daysSinceEpoch: days)
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let text =
            "\(date)T\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)).\(pad(microseconds, 6))Z"
        buffer.append(contentsOf: text.utf8)
    }
}

extension PostgresDate {
    /// The date `days` after 1970-01-01.
    public init(daysSinceEpoch days: Int) {
        let date = GregorianCalendar.date(daysSinceEpoch: days)
        self.init(year: date.year, month: date.month, day: date.day)
    }
}

/// An `interval`: months, days and microseconds, kept apart as PostgreSQL
/// keeps them (a month is not a fixed number of days).
public struct PostgresInterval: Hashable, Sendable, CustomStringConvertible, PostgresDecodable, PostgresEncodable {
    public var months: Int
    public var days: Int
    public var microseconds: Int64

    public init(months: Int = 0, days: Int = 0, microseconds: Int64 = 0) {
        self.months = months
        self.days = days
        self.microseconds = microseconds
    }

    /// ISO 8601 (`P1Y2M3DT4H5M6.5S`), as IntervalStyle=iso_8601 writes it.
    public var description: String {
        var text = "P"
        if months / 12 != 0 { text += "\(months / 12)Y" }
        if months % 12 != 0 { text += "\(months % 12)M" }
        if days != 0 { text += "\(days)D" }
        if microseconds != 0 {
            text += "T"
            let negative = microseconds < 0
            let magnitude = microseconds.magnitude
            let hours = magnitude / 3_600_000_000, minutes = magnitude / 60_000_000 % 60
            let seconds = magnitude / 1_000_000 % 60, fraction = magnitude % 1_000_000
            let sign = negative ? "-" : ""
            if hours != 0 { text += "\(sign)\(hours)H" }
            if minutes != 0 { text += "\(sign)\(minutes)M" }
            if seconds != 0 || fraction != 0 {
                text += "\(sign)\(seconds)"
                if fraction != 0 {
                    var digits = String(fraction)
                    digits = String(repeating: "0", count: 6 - digits.count) + digits
                    while digits.last == "0" { digits.removeLast() }
                    text += ".\(digits)"
                }
                text += "S"
            }
        }
        return text == "P" ? "PT0S" : text
    }

    public static func decode(postgresText bytes: UnsafeBufferPointer<UInt8>, type: PostgresType) throws -> PostgresInterval {
        var scanner = ByteScanner(bytes)
        guard scanner.skip("P") else { throw mismatch(bytes, type) }
        var interval = PostgresInterval()
        var inTime = false
        while !scanner.atEnd {
            if scanner.skip("T") {
                inTime = true
                continue
            }
            let negative = scanner.skip("-")
            guard let whole = scanner.number() else { throw mismatch(bytes, type) }
            var micros: Int64 = 0
            if scanner.skip(".") {
                var scale: Int64 = 100_000
                while let digit = scanner.digit() {
                    micros += Int64(digit) * scale
                    scale /= 10
                }
            }
            let sign = negative ? -1 : 1
            guard let unit = scanner.peek() else { throw mismatch(bytes, type) }
            scanner.advance()
            switch (inTime, unit) {
            case (false, UInt8(ascii: "Y")): interval.months += sign * whole * 12
            case (false, UInt8(ascii: "M")): interval.months += sign * whole
            case (false, UInt8(ascii: "W")): interval.days += sign * whole * 7
            case (false, UInt8(ascii: "D")): interval.days += sign * whole
            case (true, UInt8(ascii: "H")): interval.microseconds += Int64(sign * whole) * 3_600_000_000
            case (true, UInt8(ascii: "M")): interval.microseconds += Int64(sign * whole) * 60_000_000
            case (true, UInt8(ascii: "S")): interval.microseconds += Int64(sign) * (Int64(whole) * 1_000_000 + micros)
            default: throw mismatch(bytes, type)
            }
        }
        return interval
    }

    public func encodePostgresText(into buffer: inout [UInt8]) { buffer.append(contentsOf: description.utf8) }
}

/// A `numeric`, kept as its exact decimal text (Double would round it).
public struct PostgresNumeric: Hashable, Sendable, CustomStringConvertible, PostgresDecodable, PostgresEncodable {
    public var text: String
    public init(_ text: String) { self.text = text }
    public var description: String { text }
    public var doubleValue: Double? { Double(text) }
    public var decimalValue: Decimal? { Decimal(string: text) }

    public static func decode(postgresText bytes: UnsafeBufferPointer<UInt8>, type: PostgresType) throws -> PostgresNumeric {
        PostgresNumeric(String(decoding: bytes, as: UTF8.self))
    }

    public func encodePostgresText(into buffer: inout [UInt8]) { buffer.append(contentsOf: text.utf8) }
}

/// A `json` or `jsonb` value as its text.
public struct PostgresJSON: Hashable, Sendable, CustomStringConvertible, PostgresDecodable, PostgresEncodable {
    public var text: String
    public init(_ text: String) { self.text = text }
    public var description: String { text }

    public static func decode(postgresText bytes: UnsafeBufferPointer<UInt8>, type: PostgresType) throws -> PostgresJSON {
        PostgresJSON(String(decoding: bytes, as: UTF8.self))
    }

    public func encodePostgresText(into buffer: inout [UInt8]) { buffer.append(contentsOf: text.utf8) }
}

/// Reads ASCII fields out of a value's text.
struct ByteScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }
    func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }
    mutating func advance() { index += 1 }

    mutating func skip(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] { return false }
        index += count
        return true
    }

    mutating func digit() -> Int? {
        guard let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        index += 1
        return Int(byte - UInt8(ascii: "0"))
    }

    mutating func number() -> Int? {
        guard var value = digit() else { return nil }
        while let next = digit() { value = value * 10 + next }
        return value
    }
}
