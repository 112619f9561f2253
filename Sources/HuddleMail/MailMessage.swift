import Foundation

/// An email as RFC 5322 and MIME (RFC 2045-2047) want it: plain text, and
/// HTML beside it as `multipart/alternative` when there is one, each part
/// UTF-8 in quoted-printable, ending in a line break; header text that is
/// not ASCII as encoded words; lines ending CRLF.
public struct MailMessage: Sendable {
    public var from: MailAddress
    public var to: MailAddress
    public var subject: String
    public var text: String
    public var html: String?
    /// Where a notice's recipient stops such notices (RFC 2369's
    /// `List-Unsubscribe`, with RFC 8058's one-click `List-Unsubscribe-Post`
    /// when it is an https URL); nil for mail a person asked for.
    public var unsubscribe: String?
    /// `<…@domain>`: stable across retries, so a receiver that sees one
    /// message twice (a sender killed after the server took it) can tell.
    public var messageID: String
    public var date: Date

    public init(
        from: MailAddress, to: MailAddress, subject: String, text: String, html: String? = nil, unsubscribe: String? = nil,
        messageID: String, date: Date
    ) {
        self.from = from
        self.to = to
        self.subject = subject
        self.text = text
        self.html = html
        self.unsubscribe = unsubscribe
        self.messageID = messageID
        self.date = date
    }

    /// A Message-ID for a message numbered `id` in a sender's outbox: the
    /// number and random letters at the sender's domain.
    public static func messageID(for id: Int64, from: MailAddress, random: String) -> String {
        "<huddle.\(id).\(random)@\(from.domain)>"
    }

    /// The message as it goes on the wire.
    public func rendered() -> [UInt8] {
        var fields = [
            HeaderText.field("Date", Self.dateText(date)),
            HeaderText.field("From", Self.mailbox(from)),
            HeaderText.field("To", Self.mailbox(to)),
            HeaderText.field("Subject", HeaderText.encode(subject)),
            HeaderText.field("Message-ID", messageID),
            "MIME-Version: 1.0",
        ]
        if let unsubscribe {
            fields.append(HeaderText.field("List-Unsubscribe", "<\(unsubscribe)>"))
            if unsubscribe.hasPrefix("https://") { fields.append("List-Unsubscribe-Post: List-Unsubscribe=One-Click") }
        }
        fields.append("Auto-Submitted: auto-generated")
        var message = fields.joined(separator: "\r\n") + "\r\n"
        let plain = Self.part(type: "text/plain", QuotedPrintable.encode(Self.endingInALineBreak(text)))
        if let html {
            let boundary = "=_huddle_" + Self.boundaryText(for: messageID)
            message += HeaderText.field("Content-Type", "multipart/alternative; boundary=\"\(boundary)\"") + "\r\n\r\n"
            // The CRLF before each delimiter is the delimiter's, not the part's.
            message += "--\(boundary)\r\n\(plain)\r\n"
            message += "--\(boundary)\r\n\(Self.part(type: "text/html", QuotedPrintable.encode(Self.endingInALineBreak(html))))\r\n"
            message += "--\(boundary)--\r\n"
        } else {
            message += plain
        }
        return Array(message.utf8)
    }

    /// Every body ends with a line break: a message's last line must (SMTP
    /// ends the data with CRLF "." CRLF), and so each part reads the same
    /// whether it is alone or one of two.
    private static func endingInALineBreak(_ text: String) -> String {
        text.hasSuffix("\n") || text.hasSuffix("\r") ? text : text + "\n"
    }

    private static func part(type: String, _ encoded: String) -> String {
        "Content-Type: \(type); charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n\(encoded)"
    }

    private static func mailbox(_ address: MailAddress) -> String {
        guard let name = address.displayName else { return address.address }
        return "\(HeaderText.phrase(name)) <\(address.address)>"
    }

    /// A boundary no quoted-printable body can hold (it has "=_", which
    /// quoted-printable never writes), unique to the message.
    private static func boundaryText(for messageID: String) -> String {
        String(messageID.unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) }.prefix(40).map(Character.init))
    }

    /// `Thu, 26 Nov 2026 08:04:31 +0000` (RFC 5322, section 3.3).
    static func dateText(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }
}
