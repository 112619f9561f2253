/// Limits and switches for parsing. The defaults are the ones a server
/// applies to documents that arrive from clients; `trusted` lifts the limits
/// that only matter against hostile input (for SDL files the project owns).
public struct ParseOptions: Sendable, Hashable {
    /// The most tokens a document may have, or nil for no limit. graphql-js
    /// calls this `maxTokens`; it has no default, we choose 15,000.
    public var maxTokens: Int?
    /// How deeply selection sets, list and object values, and list types may
    /// each nest. This also bounds the parser's recursion, so no document can
    /// overflow the stack.
    public var maxNestingDepth: Int
    /// The largest document, in UTF-8 bytes, or nil for no limit.
    public var maxSourceBytes: Int?
    /// Whether nodes record their locations; off, every location is `.none`,
    /// which lets two parses of differently laid-out text compare equal.
    public var recordsLocations: Bool

    public init(
        maxTokens: Int? = 15_000,
        maxNestingDepth: Int = 256,
        maxSourceBytes: Int? = 1 << 20,
        recordsLocations: Bool = true
    ) {
        self.maxTokens = maxTokens
        self.maxNestingDepth = maxNestingDepth
        self.maxSourceBytes = maxSourceBytes
        self.recordsLocations = recordsLocations
    }

    /// The limits for documents sent by clients.
    public static let `default` = ParseOptions()

    /// For documents the operator controls (schema files, `huddle format`):
    /// no token or size limit, the nesting limit kept to protect the stack.
    public static let trusted = ParseOptions(maxTokens: nil, maxSourceBytes: nil)
}
