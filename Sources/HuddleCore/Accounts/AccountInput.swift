import Foundation

/// The rules for account fields, checked before anything is stored (the
/// table's constraints repeat them).
package enum AccountInput {
    package static let passwordLength = 8...256

    package static func username(_ text: String) throws -> String {
        let valid = (3...30).contains(text.count) && text.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "."
        }
        guard valid else {
            throw APIError.badInput("A username is 3 to 30 letters, digits, \"_\" or \".\".")
        }
        return text
    }

    package static func email(_ text: String) throws -> String {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        let valid = text.utf8.count <= 254 && parts.count == 2 && !parts[0].isEmpty
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

    package static func url(_ text: String, _ name: String) throws -> String {
        guard text.utf8.count <= 2048, let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
              url.host != nil, text.lowercased().hasPrefix("http")
        else { throw APIError.badInput("\"\(name)\" must be an http or https URL of at most 2048 characters.") }
        return text
    }

    /// A past calendar date, `YYYY-MM-DD`, from 1900 on.
    package static func birthday(_ text: String) throws -> String {
        let parts = text.split(separator: "-")
        guard text.count == 10, parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1900...9999).contains(year), (1...12).contains(month), (1...31).contains(day)
        else { throw APIError.badInput("\"birthday\" must be a date written YYYY-MM-DD: \(text.debugDescription).") }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let date = calendar.date(from: DateComponents(year: year, month: month, day: day)),
              calendar.component(.day, from: date) == day
        else { throw APIError.badInput("\"birthday\" is not a day of the calendar: \(text.debugDescription).") }
        guard date < Date() else { throw APIError.badInput("\"birthday\" must be in the past.") }
        return text
    }

    package static func coordinates(latitude: Double, longitude: Double) throws -> (Double, Double) {
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            throw APIError.badInput("Latitude is between -90 and 90 and longitude between -180 and 180.")
        }
        return (latitude, longitude)
    }
}
