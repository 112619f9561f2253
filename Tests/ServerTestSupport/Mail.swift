import Foundation
import HuddleCore
import HuddleMail
import HuddleServer
import TestSupport
import Testing

/// A server's mail sent to `smtp` (plain text: it is on this machine),
/// from Huddle's own address, with `change` made to the settings after.
package func mailing(
    to smtp: SMTPServer, _ change: @escaping @Sendable (inout MailDelivery.Settings) -> Void = { _ in }
) -> @Sendable (inout HuddleServer.Configuration) -> Void {
    let url = smtp.url()
    return { configuration in
        var transport = SMTPTransport.Settings(url: url)
        transport.security = .none
        var settings = MailDelivery.Settings(
            transport: try! SMTPTransport(transport), from: MailAddress("hello@huddle.example", displayName: "Huddle")!, publicURL: "")
        change(&settings)
        configuration.mail = settings
    }
}

/// A received message as Python's email parser reads it.
package struct ParsedMail: Sendable {
    package var to: String
    package var subject: String
    package var text: String
    package var html: String
    package var messageID: String

    package init(_ received: SMTPServer.Received) async throws {
        let scratch = try ScratchDirectory("huddle-received")
        let path = scratch.path("message.eml")
        try Data(received.message.utf8).write(to: URL(fileURLWithPath: path))
        let outcome = try await ClientProcess.python("parse_email.py", [path]).finished()
        let json = try #require(try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any], "\(outcome.errors)")
        let parts = json["parts"] as? [[String: Any]] ?? []
        to = json["to"] as? String ?? ""
        subject = json["subject"] as? String ?? ""
        text = (parts.first?["content"] as? String ?? "").replacingOccurrences(of: "\r\n", with: "\n")
        html = (parts.last?["content"] as? String ?? "").replacingOccurrences(of: "\r\n", with: "\n")
        messageID = json["messageID"] as? String ?? ""
    }

    /// The link in the text part.
    package var link: String? {
        guard let range = text.range(of: #"https?://[^\s]+/account/[a-z-]+\?token=[A-Za-z0-9_-]+"#, options: .regularExpression) else {
            return nil
        }
        return String(text[range])
    }

    /// The token the link carries.
    package var token: String? { link.flatMap { $0.components(separatedBy: "token=").last } }
}

/// Opens `link` as a browser would (GET, the form), then sends the form
/// (POST) with `fields` beside its token; the second response's status and body.
package func follow(_ link: String, fields: [String: String] = [:]) async throws -> (status: Int, page: String) {
    try await offThePool {
        let form = try curl([link])
        #expect(form.output.contains("<form method=\"post\""), "\(form)")
        let token = link.components(separatedBy: "token=").last ?? ""
        let action = String(link.prefix { $0 != "?" })
        var arguments = [action, "-w", "\n%{http_code}", "--data-urlencode", "token=\(token)"]
        for (name, value) in fields { arguments += ["--data-urlencode", "\(name)=\(value)"] }
        let posted = try curl(arguments).output
        let status = Int(posted.split(separator: "\n").last ?? "") ?? 0
        return (status, String(posted.dropLast(String(status).count)))
    }
}
