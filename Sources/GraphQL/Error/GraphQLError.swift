/// An error as the GraphQL spec reports it: a message and, when the error
/// can be tied to the document, the locations it points at.
public struct GraphQLError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var locations: [SourceLocation]
    /// The name of the source the first location is in, for messages such
    /// as `Schema/users.graphql:3:5: ...` (not part of a GraphQL response).
    public var sourceName: String?
    /// The response path of the field the error happened in, for field errors.
    public var path: [PathComponent]?
    /// Extra information for clients, such as `code`.
    public var extensions: [GraphQLValue.Member] = []

    public init(
        message: String, locations: [SourceLocation] = [], path: [PathComponent]? = nil,
        extensions: [GraphQLValue.Member] = []
    ) {
        self.message = message
        self.locations = locations
        self.path = path
        self.extensions = extensions
    }

    /// An error with a client-facing code in `extensions.code`, as resolvers raise them.
    public static func coded(_ message: String, code: String) -> GraphQLError {
        GraphQLError(message: message, extensions: [.init("code", .string(code))])
    }

    /// `extensions.code`, if it has one.
    public var code: String? {
        if case .string(let code)? = extensions.first(where: { $0.name == "code" })?.value { return code }
        return nil
    }

    /// The error with `extensions.code` set to `code` unless it has one already.
    public func coded(ifUncoded code: String) -> GraphQLError {
        guard self.code == nil else { return self }
        var coded = self
        coded.extensions.insert(.init("code", .string(code)), at: 0)
        return coded
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
