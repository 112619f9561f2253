import HuddleRuntime

/// The media types a GraphQL response can be sent as (graphql-over-http
/// § "Accept"), chosen from the request's Accept header.
public enum ResponseMediaType: Sendable, Equatable {
    /// `application/graphql-response+json`: statuses say whether the
    /// request was valid (400 for parse and validation errors).
    case graphQLResponseJSON
    /// `application/json`, the legacy type: 200 for any well-formed request.
    case json

    var contentType: String {
        switch self {
        case .graphQLResponseJSON: "application/graphql-response+json; charset=utf-8"
        case .json: "application/json; charset=utf-8"
        }
    }
}
