import GraphQL

/// The `Date` scalar: a day of the calendar as RFC 3339 full-date text,
/// `YYYY-MM-DD` (a birthday), from 0001-01-01 (PostgreSQL has no year 0). Inputs that are not such a day are refused
/// where they are written (a validation error for a literal, a variable
/// error for a variable), before any resolver runs.
package enum DateScalar {
    package static let coercion = ScalarCoercion(
        serialize: { value in
            guard case .string(let text) = value, parse(text) != nil else {
                return .failure(.init("Date cannot represent value: \(value.inspected)"))
            }
            return .success(value)
        },
        parseValue: parseValue,
        parseLiteral: { literal in
            guard case .string(let string) = literal else {
                return .failure(.init("Date cannot represent a non string value: \(Printer.print(literal))"))
            }
            return parseValue(.string(string.value))
        }
    )

    static func parseValue(_ value: GraphQLValue) -> Result<GraphQLValue, ScalarCoercion.Invalid> {
        guard case .string(let text) = value else {
            return .failure(.init("Date cannot represent a non string value: \(value.inspected)"))
        }
        guard parse(text) != nil else {
            return .failure(.init("Date cannot represent an invalid date string: \(value.inspected)."))
        }
        return .success(value)
    }

    /// The day `YYYY-MM-DD` names, or nil when the text is not one.
    package static func parse(_ text: String) -> (year: Int, month: Int, day: Int)? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            year >= 1, (1...12).contains(month), day >= 1, day <= DateTimeScalar.daysInMonth(year, month)
        else { return nil }
        return (year, month, day)
    }
}
