import Formats
import GraphQL

/// The `DateTime` scalar Huddle's schema declares: an instant as RFC 3339
/// text with an offset, such as `2026-11-21T18:30:00+01:00`. Inputs are
/// checked and kept as the instant; outputs are written in UTC with
/// millisecond precision, `2026-11-21T17:30:00.000Z`. Resolvers may return
/// the text or the milliseconds since 1970 as an Int.
package enum DateTimeScalar {
    package static let name = "DateTime"

    /// Milliseconds since 1970-01-01T00:00:00Z, or nil for text that is not an RFC 3339 date-time.
    package static func parse(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for offset in 0..<digits {
                let byte = bytes[index + offset]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += digits
            return value
        }
        func expect(_ characters: [UInt8]) -> Bool {
            guard index < bytes.count, characters.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect([0x2D]), let month = number(2), expect([0x2D]), let day = number(2),
            expect([0x54, 0x74, 0x20]), let hour = number(2), expect([0x3A]), let minute = number(2),
            expect([0x3A]), let second = number(2)
        else { return nil }
        var milliseconds = 0
        if index < bytes.count, bytes[index] == 0x2E {
            index += 1
            var digits = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                if digits < 3 { milliseconds = milliseconds * 10 + Int(bytes[index] - 0x30) }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            if digits < 3 {
                for _ in digits..<3 { milliseconds *= 10 }
            }
        }
        var offsetMinutes = 0
        guard index < bytes.count else { return nil }
        if bytes[index] == 0x5A || bytes[index] == 0x7A {
            index += 1
        } else {
            let sign = bytes[index] == 0x2B ? 1 : bytes[index] == 0x2D ? -1 : 0
            guard sign != 0 else { return nil }
            index += 1
            guard let offsetHour = number(2), expect([0x3A]), let offsetMinute = number(2),
                offsetHour < 24, offsetMinute < 60
            else { return nil }
            offsetMinutes = sign * (offsetHour * 60 + offsetMinute)
        }
        guard index == bytes.count, (1...12).contains(month), day >= 1, day <= daysInMonth(year, month),
            hour < 24, minute < 60, second < 61
        else { return nil }
        let days = daysFromCivil(year, month, day)
        let seconds = ((days * 24 + hour) * 60 + minute) * 60 + min(second, 59) - offsetMinutes * 60
        return seconds * 1000 + milliseconds
    }

    /// `YYYY-MM-DDTHH:MM:SS.sssZ`
    /// RFC 3339 in UTC with milliseconds, as `DateTime` values are written.
    package static func format(milliseconds: Int) -> String {
        let totalSeconds = Int((Double(milliseconds) / 1000).rounded(.down))
        let millis = milliseconds - totalSeconds * 1000
        var days = totalSeconds / 86_400
        var secondsOfDay = totalSeconds % 86_400
        if secondsOfDay < 0 {
            secondsOfDay += 86_400
            days -= 1
        }
        let (year, month, day) = civilFromDays(days)
        if (0...9999).contains(year) {
            // The common case, written into one small string without the
            // intermediate strings of the general path below.
            return String(unsafeUninitializedCapacity: 24) { buffer in
                func put(_ value: Int, _ width: Int, at offset: Int) {
                    var value = value
                    for position in stride(from: offset + width - 1, through: offset, by: -1) {
                        buffer[position] = UInt8(truncatingIfNeeded: 48 + value % 10)
                        value /= 10
                    }
                }
                put(year, 4, at: 0)
                buffer[4] = UInt8(ascii: "-")
                put(month, 2, at: 5)
                buffer[7] = UInt8(ascii: "-")
                put(day, 2, at: 8)
                buffer[10] = UInt8(ascii: "T")
                put(secondsOfDay / 3600, 2, at: 11)
                buffer[13] = UInt8(ascii: ":")
                put(secondsOfDay / 60 % 60, 2, at: 14)
                buffer[16] = UInt8(ascii: ":")
                put(secondsOfDay % 60, 2, at: 17)
                buffer[19] = UInt8(ascii: ".")
                put(millis, 3, at: 20)
                buffer[23] = UInt8(ascii: "Z")
                return 24
            }
        }
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return
            "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondsOfDay / 3600, 2)):\(pad(secondsOfDay / 60 % 60, 2)):\(pad(secondsOfDay % 60, 2)).\(pad(millis, 3))Z"
    }

    static func daysInMonth(_ year: Int, _ month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        GregorianCalendar.daysSinceEpoch(year: year, month: month, day: day)
    }

    static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        GregorianCalendar.date(daysSinceEpoch: days)
    }

    // MARK: Coercion

    /// The scalar's coercion, as the executable schema registers it.
    package static let coercion = ScalarCoercion(
        serialize: serialize,
        parseValue: parseValue,
        parseLiteral: { literal in
            guard case .string(let string) = literal else {
                return .failure(.init("DateTime cannot represent a non string value: \(Printer.print(literal))"))
            }
            return parseValue(.string(string.value))
        }
    )

    /// The instants the scalar represents, in milliseconds since 1970:
    /// 0001-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z, those whose UTC
    /// text has the four-digit year RFC 3339 writes (and PostgreSQL stores;
    /// it has no year 0). An input whose offset moves it past either end is
    /// refused, so that every value read back is one the scalar accepts.
    package static let representable = daysFromCivil(1, 1, 1) * 86_400_000...(daysFromCivil(10_000, 1, 1) * 86_400_000 - 1)

    /// An input (a variable's value or a string literal's) as the canonical UTC text.
    static func parseValue(_ value: GraphQLValue) -> Result<GraphQLValue, ScalarCoercion.Invalid> {
        guard case .string(let text) = value else {
            return .failure(.init("DateTime cannot represent a non string value: \(value.inspected)"))
        }
        guard let instant = parse(text) else {
            return .failure(.init("DateTime cannot represent an invalid date-time string: \(GraphQLValue.string(text).inspected)."))
        }
        guard representable.contains(instant) else {
            return .failure(
                .init(
                    "DateTime cannot represent an instant outside 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z: \(GraphQLValue.string(text).inspected)."
                ))
        }
        return .success(.string(format(milliseconds: instant)))
    }

    /// A resolver's value: RFC 3339 text or milliseconds since 1970.
    static func serialize(_ value: GraphQLValue) -> Result<GraphQLValue, ScalarCoercion.Invalid> {
        switch value {
        case .int(let milliseconds):
            guard representable.contains(milliseconds) else {
                return .failure(.init("DateTime cannot represent value: \(value.inspected)"))
            }
            return .success(.string(format(milliseconds: milliseconds)))
        case .string: return parseValue(value)
        default: return .failure(.init("DateTime cannot represent value: \(value.inspected)"))
        }
    }
}
