/// The messages of an account's life: confirming its address, a new
/// password, a change of address and the notice of one.
package enum AccountMail {
    package static let verifyEmail = MailTemplate("verify-email", link: .verifyEmail) { input in
        message(
            subject: "Confirm your email address", greeting: input.username,
            lines: ["Confirm that this is your address, so Huddle may send you mail:"], link: input.link,
            button: "Confirm my address", after: "If you did not make a Huddle account, ignore this message.")
    }

    package static let resetPassword = MailTemplate("reset-password", link: .resetPassword) { input in
        message(
            subject: "Choose a new password", greeting: input.username,
            lines: [
                "Someone, we hope you, asked to choose a new password for your Huddle account. The link works once, for a short while:"
            ],
            link: input.link, button: "Choose a new password",
            after: "If it was not you, ignore this message: your password stays as it is.")
    }

    package static let confirmNewEmail = MailTemplate("confirm-new-email", link: .changeEmail) { input in
        message(
            subject: "Confirm your new email address", greeting: input.username,
            lines: ["Confirm that this is the new address of your Huddle account:"], link: input.link, button: "Confirm this address",
            after: "Until you do, mail goes to the old one. If you did not ask for this, ignore this message.")
    }

    package static let dataExport = MailTemplate("data-export", link: .dataExport) { input in
        message(
            subject: "Your Huddle data is ready", greeting: input.username,
            lines: [
                "The copy of your data you asked for is ready: everything your account holds in the four apps, as one JSON file. The link downloads it once, within two days:"
            ], link: input.link, button: "Download my data",
            after: "If you did not ask for it, change your password: someone else may have it.")
    }

    package static let emailChanged = MailTemplate("email-changed") { input in
        message(
            subject: "Your email address was changed", greeting: input.username,
            lines: [
                "The address of your Huddle account is now \(input.parameters["newEmail"] ?? "another one"); mail no longer comes here.",
                "If you did not make this change, answer this message at once.",
            ], link: nil, button: nil, after: nil)
    }

    /// The plain text and its HTML twin, from one set of words.
    static func message(subject: String, greeting: String, lines: [String], link: String?, button: String?, after: String?)
        -> MailTemplate.Content
    {
        let hello = greeting.isEmpty ? "Hello," : "Hello \(greeting),"
        var text = hello + "\n\n" + lines.joined(separator: "\n\n") + "\n"
        var html = "<!doctype html><html><body style=\"font-family: sans-serif; line-height: 1.5\">\n"
        html += "<p>\(htmlEscaped(hello))</p>\n" + lines.map { "<p>\(htmlEscaped($0))</p>\n" }.joined()
        if let link {
            text += "\n\(link)\n"
            html += "<p><a href=\"\(htmlEscaped(link))\">\(htmlEscaped(button ?? link))</a></p>\n"
            html += "<p style=\"color: #666\">Or open this address: \(htmlEscaped(link))</p>\n"
        }
        if let after {
            text += "\n\(after)\n"
            html += "<p style=\"color: #666\">\(htmlEscaped(after))</p>\n"
        }
        text += "\n-- \nHuddle\n"
        html += "</body></html>\n"
        return MailTemplate.Content(subject: subject, text: text, html: html)
    }
}
