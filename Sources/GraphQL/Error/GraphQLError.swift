/// An error as the GraphQL spec reports it: a message and, when the error
/// can be tied to the document, the locations it points at.
public struct GraphQLError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var locations: [SourceLocation]
    /// The name of the source the first location is in, for messages such
    /// as `Schema/users.graphql:3:5: ...` (not part of a GraphQL response).
    public var sourceName: String?

    public init(message: String, locations: [SourceLocation] = []) {
        self.message = message
        self.locations = locations
    }

    /// A syntax error at a byte offset of `source`, worded as graphql-js words it.
    static func syntaxError(_ source: Source, at offset: Int, _ description: String) -> GraphQLError {
        GraphQLError(message: "Syntax Error: " + description, locations: [source.location(at: offset)])
    }

    public var description: String {
        guard let first = locations.first else { return message }
        return "\(first): \(message)"
    }
}
