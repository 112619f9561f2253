import GraphQL
import HuddleRuntime

/// A request that cannot be served now, through no fault of its own: what
/// it needs (the database, to check its token) is away. Answered as a whole
/// with 503 and `Retry-After` over HTTP, with close code 1013 (try again
/// later) over WebSocket, and never as if the client were anonymous.
public struct ServiceUnavailable: Error, Sendable {
    public var message: String
    /// Seconds after which trying again makes sense.
    public var retryAfter: Int

    public init(_ message: String, retryAfter: Int = 5) {
        self.message = message
        self.retryAfter = retryAfter
    }

    /// The GraphQL error a client reads: `extensions.code` SERVICE_UNAVAILABLE.
    public var graphQLError: GraphQLError {
        GraphQLError(message: message, extensions: [.init("code", .string("SERVICE_UNAVAILABLE")), .init("retryAfter", .int(retryAfter))])
    }
}
