/// The bounds of one execution. A document within the parser's limits can
/// still ask for a response of any size (each level of nested lists
/// multiplies the one above), so a server bounds what it will write.
public struct ExecutionLimits: Sendable, Hashable {
    /// The most bytes of response data, or nil for no limit. Past it the
    /// execution stops, starts no more waiting work, and the response is
    /// `data: null` with only the error that says so.
    public var maxResponseBytes: Int?

    public init(maxResponseBytes: Int? = 16 << 20) {
        self.maxResponseBytes = maxResponseBytes
    }

    /// What a server applies to clients' operations.
    public static let `default` = ExecutionLimits()

    /// No bounds: for trusted documents over local data (`huddle execute`, benchmarks).
    public static let unlimited = ExecutionLimits(maxResponseBytes: nil)

    /// The error a response over `maxResponseBytes` ends with.
    static func responseTooLarge(_ limit: Int) -> GraphQLError {
        .coded("The response is larger than the limit of \(limit) bytes; execution stopped.", code: "RESPONSE_TOO_LARGE")
    }
}
