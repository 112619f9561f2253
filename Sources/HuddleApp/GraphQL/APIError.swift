import GraphQL

/// The errors the API reports, each with the `extensions.code` clients
/// switch on.
enum APIError {
    static func unauthenticated(_ message: String = "You must be signed in to do this.") -> GraphQLError {
        .coded(message, code: "UNAUTHENTICATED")
    }

    static func forbidden(_ message: String) -> GraphQLError {
        .coded(message, code: "FORBIDDEN")
    }

    static func badInput(_ message: String) -> GraphQLError {
        .coded(message, code: "BAD_USER_INPUT")
    }

    static func notFound(_ message: String) -> GraphQLError {
        .coded(message, code: "NOT_FOUND")
    }

    /// A fault of the server's own, not of the request.
    static func internalError(_ message: String) -> GraphQLError {
        .coded(message, code: "INTERNAL_SERVER_ERROR")
    }
}
