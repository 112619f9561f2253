import Foundation

/// Messages written to a folder, one `.eml` file each, for a developer to
/// open: what `huddle serve` does when no SMTP server is set.
public struct MailFolder: MailTransport {
    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    public var destination: String { url.path }

    public func send(_ mail: OutgoingMail) async throws(MailError) {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            let stamp = Int64(Date().timeIntervalSince1970 * 1000)
            let name = "\(stamp)-\(UUID().uuidString.prefix(8).lowercased())-\(Self.fileSafe(mail.recipient.address)).eml"
            // Written whole under another name, then renamed: a reader never sees half a message.
            let partial = url.appendingPathComponent("." + name + ".partial")
            try Data(mail.bytes).write(to: partial)
            try FileManager.default.moveItem(at: partial, to: url.appendingPathComponent(name))
        } catch {
            throw MailError(permanent: false, "cannot write to \(url.path): \(error.localizedDescription)")
        }
    }

    private static func fileSafe(_ address: String) -> String {
        String(
            address.unicodeScalars.map {
                $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "@" || $0 == "." ? Character($0) : "_"
            })
    }
}
