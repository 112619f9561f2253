import ArgumentParser
import Foundation
import HuddleCore
import HuddleMail

/// Where `huddle serve` sends the outbox's mail: an SMTP server when one is
/// set, else a folder of `.eml` files under `.huddle/` for a developer to open.
struct MailOptions: ParsableArguments {
    @Option(
        name: .customLong("smtp-url"),
        help: "The SMTP server: smtp://[user:password@]host[:port] (STARTTLS) or smtps://… (TLS throughout) (HUDDLE_SMTP_URL).")
    var smtpURLOption: String?

    var smtpURL: String? { smtpURLOption ?? ProcessInfo.processInfo.environment["HUDDLE_SMTP_URL"].flatMap { $0.isEmpty ? nil : $0 } }

    @Option(
        help:
            "starttls (smtp:// goes no further without it) or none (plain text, for a relay on this machine) (HUDDLE_SMTP_SECURITY).")
    var smtpSecurity: String = ProcessInfo.processInfo.environment["HUDDLE_SMTP_SECURITY"] ?? "starttls"

    @Option(
        name: .customLong("smtp-ca-file"),
        help: "Certificates to trust for the SMTP server's, in PEM (HUDDLE_SMTP_CA_FILE; default: the system's).")
    var smtpCAFileOption: String?

    var smtpCAFile: String? { smtpCAFileOption ?? ProcessInfo.processInfo.environment["HUDDLE_SMTP_CA_FILE"] }

    @Option(help: "The From of the mail sent: an address, or Name <address> (HUDDLE_MAIL_FROM).")
    var mailFrom: String = ProcessInfo.processInfo.environment["HUDDLE_MAIL_FROM"] ?? "Huddle <huddle@localhost>"

    @Option(
        name: .customLong("mail-folder"),
        help: "Where mail goes without --smtp-url, one .eml file each (HUDDLE_MAIL_FOLDER; default: .huddle/mail).")
    var mailFolderOption: String?

    var mailFolder: String? { mailFolderOption ?? ProcessInfo.processInfo.environment["HUDDLE_MAIL_FOLDER"] }

    @Option(parsing: .unconditional, help: "Sends of a message before it is given up as dead, 1 to 100 (HUDDLE_MAIL_ATTEMPTS).")
    var mailAttempts: Int = ProcessInfo.processInfo.environment["HUDDLE_MAIL_ATTEMPTS"].flatMap { Int($0) } ?? 8

    @Option(
        help:
            "The server's address as users reach it, which mail's links open (HUDDLE_PUBLIC_URL; default: http://localhost:PORT).")
    var publicURL: String = ProcessInfo.processInfo.environment["HUDDLE_PUBLIC_URL"] ?? ""

    func validate() throws {
        _ = try settings()
    }

    /// The settings the options make, checked.
    func settings() throws -> MailDelivery.Settings {
        guard let from = MailAddress(parsing: mailFrom) else {
            throw ValidationError("--mail-from must be an address (name@example.com) or Name <name@example.com>")
        }
        guard (1...100).contains(mailAttempts) else { throw ValidationError("--mail-attempts must be between 1 and 100") }
        guard publicURL.isEmpty || publicURL.hasPrefix("https://") || publicURL.hasPrefix("http://") else {
            throw ValidationError("--public-url must be an http:// or https:// URL")
        }
        let transport: any MailTransport
        if let smtpURL {
            guard let security = SMTPTransport.Security(rawValue: smtpSecurity) else {
                throw ValidationError("--smtp-security must be starttls or none")
            }
            var smtp = SMTPTransport.Settings(url: smtpURL)
            smtp.security = security
            smtp.certificateAuthorities = smtpCAFile
            do {
                transport = try SMTPTransport(smtp)
            } catch {
                throw ValidationError("--smtp-url: \(error)")
            }
        } else {
            let root =
                SchemaDirectory.locate()?.deletingLastPathComponent() ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            transport = MailFolder(url: mailFolder.map { URL(fileURLWithPath: $0) } ?? root.appendingPathComponent(".huddle/mail"))
        }
        var settings = MailDelivery.Settings(transport: transport, from: from, publicURL: publicURL)
        settings.maxAttempts = mailAttempts
        return settings
    }
}
