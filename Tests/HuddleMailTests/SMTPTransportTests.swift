import Foundation
import HuddleMail
import TestSupport
import Testing

/// Messages sent by libcurl to a real SMTP server (aiosmtpd): in plain text
/// to a local relay, with STARTTLS or TLS from the start and a password, and
/// each way it can fail, told apart as "try again" or "never".
@Suite(.hangGuard) struct SMTPTransportTests {
    static let from = MailAddress("hello@huddle.example", displayName: "Huddle")!

    func mail(to address: String = "ana@example.com", subject: String = "Hello") -> OutgoingMail {
        OutgoingMail(
            MailMessage(
                from: Self.from, to: MailAddress(address)!, subject: subject, text: "Line one\n.starts with a dot\n",
                messageID: "<t.1@huddle.example>", date: Date()))
    }

    func transport(_ url: String, security: SMTPTransport.Security = .startTLS, trusting certificate: String? = nil) throws
        -> SMTPTransport
    {
        var settings = SMTPTransport.Settings(url: url)
        settings.security = security
        settings.certificateAuthorities = certificate
        settings.timeout = .seconds(20)
        return try SMTPTransport(settings)
    }

    @Test func plainToALocalRelay() async throws {
        let server = try SMTPServer()
        try await transport(server.url(), security: .none).send(mail())
        let received = try await server.waitForMessages(1)
        #expect(received.count == 1)
        #expect(received.first?.sender == "hello@huddle.example")
        #expect(received.first?.recipients == ["ana@example.com"])
        #expect(received.first?.overTLS == false)
        // The line starting with a dot arrives whole (SMTP's dot-stuffing undone).
        #expect(received.first?.message.contains("\r\n.starts with a dot\r\n") == true, "\(received)")
        #expect(received.first?.message.contains("Subject: Hello\r\n") == true)
    }

    /// Messages sent at once travel at once: the server answers none until
    /// five wait together, which messages sent one after another never do.
    /// (libcurl's SMTP waits for the reply to a message's end by blocking,
    /// on its multi interface too: on a shared event loop one slow reply
    /// would hold up every other message, so each has a thread.)
    @Test func messagesSentAtOnceTravelSideBySide() async throws {
        let server = try SMTPServer(gather: 5)
        let transport = try transport(server.url(), security: .none)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<5 {
                group.addTask { try await transport.send(mail(to: "reader\(index)@example.com")) }
            }
            try await group.waitForAll()
        }
        let received = try await server.waitForMessages(5)
        #expect(Set(received.flatMap(\.recipients)) == Set((0..<5).map { "reader\($0)@example.com" }))
    }

    @Test func startTLSWithAPassword() async throws {
        let server = try SMTPServer(tls: .startTLS, login: "huddle:s3cret pass")
        let url = server.url(user: "huddle:s3cret%20pass")
        try await transport(url, trusting: server.certificate).send(mail())
        let received = try await server.waitForMessages(1)
        #expect(received.first?.overTLS == true)
        #expect(received.first?.login == "huddle")
        // The password never shows where the transport is named.
        #expect(try transport(url).destination == "smtp://localhost:\(server.port)")
    }

    @Test func tlsFromTheFirstByteWithAPassword() async throws {
        let server = try SMTPServer(tls: .implicit, login: "huddle:secret")
        try await transport(server.url(user: "huddle:secret"), trusting: server.certificate).send(mail())
        let received = try await server.waitForMessages(1)
        #expect(received.first?.overTLS == true)
        #expect(received.first?.login == "huddle")
    }

    /// What can be tried again (the server away or busy, a wrong password,
    /// a certificate not trusted, no STARTTLS where it is required) is told
    /// apart from what cannot (the server refusing the recipient).
    @Test func failuresSayWhetherTryingAgainCanHelp() async throws {
        let server = try SMTPServer(refused: ["nobody@example.com"], deferred: ["busy@example.com"])
        func failure(_ send: () async throws -> Void) async -> MailError? {
            do {
                try await send()
                return nil
            } catch {
                return error as? MailError
            }
        }
        let refused = await failure { try await transport(server.url(), security: .none).send(mail(to: "nobody@example.com")) }
        #expect(refused?.isPermanent == true, "\(String(describing: refused))")
        #expect(refused?.description.contains("550") == true, "\(String(describing: refused))")
        let deferred = await failure { try await transport(server.url(), security: .none).send(mail(to: "busy@example.com")) }
        #expect(deferred?.isPermanent == false, "\(String(describing: deferred))")
        // STARTTLS required, and this server offers none: nothing is sent in the clear.
        let noTLS = await failure { try await transport(server.url()).send(mail()) }
        #expect(noTLS?.isPermanent == false, "\(String(describing: noTLS))")
        let away = await failure { try await transport("smtp://127.0.0.1:\(freePort())", security: .none).send(mail()) }
        #expect(away?.isPermanent == false, "\(String(describing: away))")
        #expect(server.received().isEmpty)

        let secured = try SMTPServer(tls: .startTLS, login: "huddle:secret")
        let untrusted = await failure { try await transport(secured.url(user: "huddle:secret")).send(mail()) }
        #expect(untrusted?.isPermanent == false, "\(String(describing: untrusted))")
        let wrongPassword = await failure {
            try await transport(secured.url(user: "huddle:wrong"), trusting: secured.certificate).send(mail())
        }
        #expect(wrongPassword?.isPermanent == false, "\(String(describing: wrongPassword))")
        #expect(secured.received().isEmpty)
    }

    @Test func urlsThatAreNotSMTPAreRefusedAtOnce() {
        for bad in ["http://example.com", "smtp://", "mail.example.com:587", ""] {
            #expect(throws: SMTPTransport.SettingsError.self) { try SMTPTransport(.init(url: bad)) }
        }
    }

    @Test func aFolderGetsOneFilePerMessage() async throws {
        let scratch = try ScratchDirectory("huddle-mail-folder")
        let folder = MailFolder(url: scratch.url.appendingPathComponent("mail"))
        try await folder.send(mail(subject: "One"))
        try await folder.send(mail(subject: "Two"))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        #expect(files.count == 2 && files.allSatisfy { $0.hasSuffix("-ana@example.com.eml") }, "\(files)")
        let texts = try files.map { try String(contentsOfFile: folder.url.appendingPathComponent($0).path, encoding: .utf8) }
        #expect(
            Set(texts.compactMap { $0.split(separator: "\r\n").first { $0.hasPrefix("Subject: ") } }) == ["Subject: One", "Subject: Two"])
    }
}
