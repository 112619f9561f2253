import Foundation

/// A real SMTP server for a test: Python's aiosmtpd (Tests/clients/smtp_server.py)
/// on a port of its own, keeping each message it accepts in a folder.
package final class SMTPServer: Sendable {
    /// A message as the server received it.
    package struct Received: Sendable {
        package var sender: String
        package var recipients: [String]
        /// Whether it came over TLS, and whom the client signed in as ("-": no one).
        package var overTLS: Bool
        package var login: String
        /// The message's bytes, as sent.
        package var message: String
    }

    package let port: Int
    /// A certificate for localhost the server presents (with `tls`), to trust.
    package let certificate: String?
    private let folder: ScratchDirectory
    private let process: Subprocess
    private let input: Pipe
    private let scheme: String

    package enum TLS: Sendable {
        case none
        /// Plain first, STARTTLS required before anything is sent.
        case startTLS
        /// TLS from the first byte.
        case implicit
    }

    /// Starts a server, on `port` if given; `login` is "user:password" to
    /// require; mail to a `refused` address gets 550, to a `deferred` one
    /// 451; with `gather`, no message is taken until that many wait at once.
    package init(
        port: Int? = nil, tls: TLS = .none, login: String? = nil, refused: [String] = [], deferred: [String] = [], gather: Int = 0
    ) throws {
        folder = try ScratchDirectory("huddle-smtp")
        scheme = tls == .implicit ? "smtps" : "smtp"
        var arguments = [folder.url.path]
        if tls != .none {
            let (cert, key) = try localhostCertificate(in: folder)
            arguments += [tls == .startTLS ? "--starttls" : "--smtps", cert, key]
            certificate = cert
        } else {
            certificate = nil
        }
        if let login { arguments += ["--auth", login] }
        if let port { arguments += ["--port", "\(port)"] }
        for address in refused { arguments += ["--refuse", address] }
        for address in deferred { arguments += ["--defer", address] }
        if gather > 1 { arguments += ["--gather", "\(gather)"] }
        input = Pipe()
        let started = try startPythonService("smtp_server.py", arguments, input: input)
        process = started.process
        guard let port = Int(started.firstLine) else {
            process.killAndWait()
            throw CocoaError(.fileReadCorruptFile)
        }
        self.port = port
    }

    deinit {
        process.killAndWait()
    }

    /// `smtp://127.0.0.1:PORT` (`smtps://localhost:PORT` for TLS from the start, whose certificate names localhost).
    package func url(user: String? = nil) -> String {
        let credentials = user.map { "\($0)@" } ?? ""
        return certificate == nil ? "smtp://\(credentials)127.0.0.1:\(port)" : "\(scheme)://\(credentials)localhost:\(port)"
    }

    /// Whether a message's data is being held, waiting for others to gather.
    package var isHoldingData: Bool { FileManager.default.fileExists(atPath: folder.path("holding")) }

    /// The messages received so far, oldest first.
    package func received() -> [Received] {
        let files =
            ((try? FileManager.default.contentsOfDirectory(at: folder.url, includingPropertiesForKeys: [.contentModificationDateKey])) ?? [])
            .filter { $0.pathExtension == "msg" }
            .sorted {
                let first = (try? $0.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast
                let second = (try? $1.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast
                return first < second
            }
        return files.compactMap { file in
            guard let text = try? String(contentsOf: file, encoding: .utf8), let split = text.range(of: "\n\n") else { return nil }
            var received = Received(sender: "", recipients: [], overTLS: false, login: "-", message: String(text[split.upperBound...]))
            for line in text[..<split.lowerBound].split(separator: "\n") {
                if line.hasPrefix("MAIL FROM ") { received.sender = String(line.dropFirst(10)) }
                if line.hasPrefix("RCPT TO ") { received.recipients.append(String(line.dropFirst(8))) }
                if line.hasPrefix("TLS ") { received.overTLS = line.hasSuffix("yes") }
                if line.hasPrefix("AUTH ") { received.login = String(line.dropFirst(5)) }
            }
            return received
        }
    }

    /// Waits (up to a minute) until `count` messages have come; all of them.
    package func waitForMessages(_ count: Int) async throws -> [Received] {
        for _ in 0..<1200 {
            let messages = received()
            if messages.count >= count { return messages }
            try await Task.sleep(for: .milliseconds(50))
        }
        return received()
    }
}
