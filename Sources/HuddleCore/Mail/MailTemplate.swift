/// A kind of message the outbox sends: its name (what an outbox row
/// records), the link it carries, if any, and how its text is made when
/// it is sent.
package struct MailTemplate: Sendable {
    /// What a message is made from.
    package struct Input: Sendable {
        /// The recipient's username ("" when the account is gone).
        package var username: String
        package var parameters: [String: String]
        /// The link to follow, when the template carries one.
        package var link: String?
    }

    /// A message's words: plain text, and HTML beside it.
    package struct Content: Sendable {
        package var subject: String
        package var text: String
        package var html: String
    }

    package let name: String
    /// The token its link carries, made as it is sent.
    package let link: AccountTokens.Purpose?
    package let render: @Sendable (Input) -> Content

    package init(_ name: String, link: AccountTokens.Purpose? = nil, render: @escaping @Sendable (Input) -> Content) {
        self.name = name
        self.link = link
        self.render = render
    }

    /// Every template, by name.
    package static let all: [String: MailTemplate] = Dictionary(
        uniqueKeysWithValues: [
            AccountMail.verifyEmail, AccountMail.resetPassword, AccountMail.confirmNewEmail, AccountMail.emailChanged,
            AccountMail.dataExport, NoticeDelivery.noticeMail,
        ]
        .map { ($0.name, $0) })
}

/// Text for HTML: the five characters that could open markup, escaped.
package func htmlEscaped(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for character in text {
        switch character {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&#39;"
        default: out.append(character)
        }
    }
    return out
}
