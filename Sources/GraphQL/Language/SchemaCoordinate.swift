/// A schema coordinate (spec §3.16): a name for one element of a schema,
/// such as `User`, `User.email`, `Query.user(id:)`, `@deprecated` or
/// `@deprecated(reason:)`.
public enum SchemaCoordinate: Sendable, Hashable, CustomStringConvertible {
    /// TypeCoordinate: `Name`
    case type(name: String)
    /// MemberCoordinate: `Name.Name`, a field, input field or enum value.
    case member(type: String, member: String)
    /// ArgumentCoordinate: `Name.Name(Name:)`
    case argument(type: String, field: String, argument: String)
    /// DirectiveCoordinate: `@Name`
    case directive(name: String)
    /// DirectiveArgumentCoordinate: `@Name(Name:)`
    case directiveArgument(name: String, argument: String)

    /// The coordinate's canonical text.
    public var description: String {
        switch self {
        case .type(let name): name
        case .member(let type, let member): "\(type).\(member)"
        case .argument(let type, let field, let argument): "\(type).\(field)(\(argument):)"
        case .directive(let name): "@\(name)"
        case .directiveArgument(let name, let argument): "@\(name)(\(argument):)"
        }
    }
}

/// Parses a schema coordinate. Unlike documents, coordinates allow no
/// white space, commas or comments between their tokens.
public func parseSchemaCoordinate(_ text: String) throws(GraphQLError) -> SchemaCoordinate {
    try Parser.run(Source(body: text), .default, schemaCoordinate: true) { (parser) throws(GraphQLError) in
        try parser.parseSchemaCoordinate()
    }
}
