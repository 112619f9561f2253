/// A message on its way: the envelope (who sends, who receives) and the
/// bytes of the message itself.
public struct OutgoingMail: Sendable {
    public var sender: MailAddress
    public var recipient: MailAddress
    public var bytes: [UInt8]

    public init(_ message: MailMessage) {
        sender = message.from
        recipient = message.to
        bytes = message.rendered()
    }
}

/// Why a message was not sent.
public struct MailError: Error, Sendable, CustomStringConvertible {
    /// Whether trying again cannot help (the server refused the recipient
    /// or the message with a 5xx reply).
    public var isPermanent: Bool
    public var description: String

    public init(permanent: Bool, _ description: String) {
        isPermanent = permanent
        self.description = description
    }
}

/// Where messages go: an SMTP server, or a folder a developer reads.
public protocol MailTransport: Sendable {
    /// Hands the message on; returns once it is taken (an SMTP server's 250
    /// after the data, a file in place).
    func send(_ mail: OutgoingMail) async throws(MailError)
    /// Where messages go, for the log (with no password in it).
    var destination: String { get }
}
