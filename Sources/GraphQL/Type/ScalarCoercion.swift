/// What a custom scalar does with its values: graphql-js's `serialize`,
/// `parseValue` and `parseLiteral` of a `GraphQLScalarType`. Registered on
/// an executable schema (`ExecutableSchema.Builder.scalar`); a custom scalar
/// without one passes values through unchanged, as graphql-js's default does.
public struct ScalarCoercion: Sendable {
    /// A value the scalar does not accept; `message` is the error's message.
    public struct Invalid: Error, Sendable {
        public var message: String
        public init(_ message: String) { self.message = message }
    }

    /// A resolver's value as the response carries it.
    public var serialize: @Sendable (GraphQLValue) -> Result<GraphQLValue, Invalid>
    /// A variable's value (from JSON) as resolvers receive it.
    public var parseValue: @Sendable (GraphQLValue) -> Result<GraphQLValue, Invalid>
    /// A literal in a document as resolvers receive it. Nil does as
    /// graphql-js's default: the literal as a plain value, then `parseValue`.
    public var parseLiteral: (@Sendable (Value) -> Result<GraphQLValue, Invalid>)?

    public init(
        serialize: @escaping @Sendable (GraphQLValue) -> Result<GraphQLValue, Invalid>,
        parseValue: @escaping @Sendable (GraphQLValue) -> Result<GraphQLValue, Invalid>,
        parseLiteral: (@Sendable (Value) -> Result<GraphQLValue, Invalid>)? = nil
    ) {
        self.serialize = serialize
        self.parseValue = parseValue
        self.parseLiteral = parseLiteral
    }

    /// A literal as resolvers receive it; `variables` fill in the ones
    /// inside a list or object literal for the default parseLiteral.
    func literal(_ literal: Value, variables: [String: GraphQLValue]?) -> Result<GraphQLValue, Invalid> {
        if let parseLiteral { return parseLiteral(literal) }
        guard let value = valueFromASTUntyped(literal, variables: variables) else {
            return .failure(Invalid("Expected a value, found \(Printer.print(literal))."))
        }
        return parseValue(value)
    }
}
