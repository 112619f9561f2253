import Foundation
import GraphQL

/// Typed reads of coerced arguments and input-object fields. Validation and
/// coercion have already checked the types, so a mismatch here is a
/// schema/resolver disagreement, reported as an ordinary field error.
extension GraphQLValue {
    package var stringValue: String? { if case .string(let value) = self { value } else { nil } }
    package var intValue: Int? { if case .int(let value) = self { value } else { nil } }
    package var doubleValue: Double? {
        switch self {
        case .float(let value): value
        case .int(let value): Double(value)
        default: nil
        }
    }
    package var boolValue: Bool? { if case .boolean(let value) = self { value } else { nil } }
    package var enumValue: String? {
        switch self {
        case .enum(let value), .string(let value): value
        default: nil
        }
    }
    package var listValue: [GraphQLValue]? { if case .list(let value) = self { value } else { nil } }
    package var isNull: Bool { self == .null }
}

extension ResolverInput {
    package func string(_ name: String) -> String? { argument(name)?.stringValue }
    package func int(_ name: String) -> Int? { argument(name)?.intValue }

    /// The row id in the global id argument `name`, of type `type`.
    package func id(_ name: String, of type: String) throws -> Int64 {
        try GlobalID.id(of: type, string(name) ?? "", argument: name)
    }

    /// The request's context.
    package var request: RequestContext { context as! RequestContext }
}

/// Instants: DateTime values arrive as RFC 3339 text (the engine has
/// checked and normalised them) and leave as milliseconds.
package enum Instant {
    package static func parse(_ text: String) -> Date? {
        DateTimeScalar.parse(text).map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }

    /// RFC 3339 in UTC, as the API writes instants.
    package static func text(_ date: Date) -> String {
        DateTimeScalar.format(milliseconds: milliseconds(date))
    }

    package static func value(_ date: Date) -> Resolved {
        .scalar(.int(milliseconds(date)))
    }

    /// Whole milliseconds since 1970, cut as PostgreSQL's `to_char(…, 'MS')`
    /// cuts them, so an instant is never written later than it is (a
    /// session's end rounded up into the next second, say); counted from
    /// the date's microseconds, PostgreSQL's precision, so that a binary
    /// fraction just under a millisecond does not lose it.
    package static func milliseconds(_ date: Date) -> Int {
        let microseconds = Int((date.timeIntervalSince1970 * 1_000_000).rounded())
        return microseconds >= 0 ? microseconds / 1000 : -((999 - microseconds) / 1000)
    }
}
