import Formats
import Foundation
import GraphQL

/// The rules for account fields, checked before anything is stored (the
/// table's constraints repeat them).
package enum AccountInput {
    package static let passwordLength = 8...256

    package static func username(_ text: String) throws -> String {
        let valid =
            (3...30).contains(text.count)
            && text.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "."
            }
        guard valid else {
            throw APIError.badInput("A username is 3 to 30 letters, digits, \"_\" or \".\".")
        }
        return text
    }

    package static func email(_ text: String) throws -> String {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        let valid =
            text.utf8.count <= 254 && parts.count == 2 && !parts[0].isEmpty
            && parts[1].contains(".") && !parts[1].hasPrefix(".") && !parts[1].hasSuffix(".")
            && !text.contains(where: \.isWhitespace)
        guard valid else { throw APIError.badInput("\(text.debugDescription) is not an email address.") }
        return text
    }

    package static func password(_ text: String) throws -> String {
        guard passwordLength.contains(text.count) else {
            throw APIError.badInput("A password is \(passwordLength.lowerBound) to \(passwordLength.upperBound) characters.")
        }
        return text
    }

    /// Text of at most `limit` characters for the field `name`.
    package static func text(_ text: String, _ name: String, limit: Int) throws -> String {
        guard text.count <= limit else { throw APIError.badInput("\"\(name)\" is at most \(limit) characters.") }
        return text
    }

    /// An absolute http or https URL as the tables' checks take it: the
    /// scheme in lower case, no white space or control character anywhere
    /// (Foundation's parser lets a space through; the database would not).
    package static func url(_ text: String, _ name: String) throws -> String {
        let isClean = text.unicodeScalars.allSatisfy { !$0.properties.isWhitespace && $0.properties.generalCategory != .control }
        guard text.utf8.count <= 2048, isClean, text.hasPrefix("http://") || text.hasPrefix("https://"),
            let url = URL(string: text), url.host.map({ !$0.isEmpty }) == true
        else {
            throw APIError.badInput(
                "\"\(name)\" must be an http:// or https:// URL of at most 2048 characters, with no spaces or control characters.")
        }
        return text
    }

    /// A past calendar date from 1900 on (the `Date` scalar has checked it is a day).
    package static func birthday(_ text: String) throws -> String {
        guard let (year, month, day) = DateScalar.parse(text) else {
            throw APIError.badInput("\"birthday\" must be a date written YYYY-MM-DD: \(text.debugDescription).")
        }
        guard year >= 1900 else { throw APIError.badInput("\"birthday\" must be in 1900 or later.") }
        let days = GregorianCalendar.daysSinceEpoch(year: year, month: month, day: day)
        guard Double(days) * 86_400 < Date().timeIntervalSince1970 else { throw APIError.badInput("\"birthday\" must be in the past.") }
        return text
    }

    package static func coordinates(latitude: Double, longitude: Double) throws -> (Double, Double) {
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            throw APIError.badInput("Latitude is between -90 and 90 and longitude between -180 and 180.")
        }
        return (latitude, longitude)
    }
}
