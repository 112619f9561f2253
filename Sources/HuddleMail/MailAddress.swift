import Foundation

/// An address mail goes to or comes from, with the name shown beside it.
/// Only what SMTP can carry as it is: an ASCII `local@domain` of at most
/// 254 characters with no spaces, angle brackets or control characters.
public struct MailAddress: Sendable, Hashable, CustomStringConvertible {
    /// `local@domain`, as the envelope carries it.
    public let address: String
    /// The name shown (any text; encoded in the header when not ASCII).
    public let displayName: String?

    public init?(_ address: String, displayName: String? = nil) {
        let bytes = Array(address.utf8)
        guard (3...254).contains(bytes.count), let at = bytes.lastIndex(of: UInt8(ascii: "@")), at > 0, at < bytes.count - 1,
            bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F && !"<>()[]\\,;:\"".utf8.contains($0) }),
            bytes.filter({ $0 == UInt8(ascii: "@") }).count == 1
        else { return nil }
        self.address = address
        self.displayName = displayName.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The part after the `@`.
    public var domain: Substring { address[address.index(after: address.lastIndex(of: "@")!)...] }

    /// `Name <local@domain>`, or the bare address.
    public var description: String {
        guard let displayName else { return address }
        return "\(displayName) <\(address)>"
    }

    /// What surrounds a name or an address that is not part of it.
    private static let blanks = CharacterSet(charactersIn: " \t")

    /// `from` as text: `Name <local@domain>` or `local@domain`.
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: Self.blanks)
        if let open = trimmed.lastIndex(of: "<"), trimmed.hasSuffix(">") {
            let name = String(trimmed[..<open]).trimmingCharacters(in: Self.blanks)
            let unquoted = name.count >= 2 && name.hasPrefix("\"") && name.hasSuffix("\"") ? String(name.dropFirst().dropLast()) : name
            self.init(String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]), displayName: unquoted)
        } else {
            self.init(trimmed)
        }
    }
}
