/// What a request ran, as its log line tells it: filled by the handler
/// (GraphQL over HTTP names the operation it selected), written by the
/// connection with the request's id, status and duration.
public struct LoggedOperation: Sendable {
    /// `query`, `mutation` or `subscription`, once one was selected.
    public var type: String?
    /// The operation's name: the request's `operationName`, or the
    /// document's when it has one operation and the request names none.
    public var name: String?
    /// Its measured cost, when it got as far as being measured.
    public var cost: Int?
    /// The `extensions.code` of each of its errors, in order, repeats once.
    public var errorCodes: [String] = []
    /// The signed-in user's id, when there is one.
    public var userID: String?
    /// The document's text, kept (shared, not copied) to name it by its
    /// hash only on the lines that need to (a slow operation's).
    public var document: String?

    public init(type: String? = nil, name: String? = nil) {
        self.type = type
        self.name = name.map(Self.clamped)
    }

    /// The most characters of a client's text (an operation's name as sent,
    /// an operation id) a log line or a metric carries.
    public static let maxLoggedLength = 128

    /// `text` cut to `maxLoggedLength` characters, an ellipsis marking the cut.
    public static func clamped(_ text: String) -> String {
        text.count <= maxLoggedLength ? text : String(text.prefix(maxLoggedLength)) + "…"
    }
}
