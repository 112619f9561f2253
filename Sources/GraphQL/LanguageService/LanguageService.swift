/// What an editor asks of a GraphQL document as it is written: completions
/// at the cursor, diagnostics, the document printed, and its operations.
/// Diagnostics come from the same parser and validation rules that run
/// requests, so an editor built on this never disagrees with the server.
public struct LanguageService: Sendable {
    public let schema: GraphQLSchema
    /// Validation stops after this many errors, as it does for requests.
    public var maxErrors: Int
    /// Whether messages leave out "Did you mean" suggestions, as the server's do.
    public var hidesSuggestions: Bool

    public init(schema: GraphQLSchema, maxErrors: Int = 100, hidesSuggestions: Bool = false) {
        self.schema = schema
        self.maxErrors = maxErrors
        self.hidesSuggestions = hidesSuggestions
    }

    /// One problem in a document, where an editor marks it.
    public struct Diagnostic: Sendable, Hashable {
        public enum Severity: String, Sendable {
            case error, warning
        }

        public var message: String
        public var severity: Severity
        /// Where each node the problem concerns starts (the error's locations).
        public var positions: [TextPosition]
    }

    /// The syntax error, or else every validation error, then a warning for
    /// each deprecated field, argument or enum value the document uses.
    public func diagnostics(in text: String) -> [Diagnostic] {
        let source = Source(body: text)
        let document: Document
        do {
            document = try parse(source)
        } catch {
            return [Diagnostic(message: error.message, severity: .error, positions: error.locations.map(TextPosition.init))]
        }
        let errors = Suggestions.$areHidden.withValue(hidesSuggestions) {
            validate(schema: schema, document: document, source: source, maxErrors: maxErrors)
        }
        let deprecations = validate(
            schema: schema, document: document, source: source, rules: [NoDeprecatedUsageRule.self], maxErrors: maxErrors
        )
        return errors.map { Diagnostic(message: $0.message, severity: .error, positions: $0.locations.map(TextPosition.init)) }
            + deprecations.map {
                Diagnostic(message: $0.message, severity: .warning, positions: $0.locations.map(TextPosition.init))
            }
    }

    /// The document as the engine's printer writes it (graphql-js's
    /// `print`; comments are not kept), or the syntax error.
    public func format(_ text: String) throws(GraphQLError) -> String {
        Printer.print(try parse(Source(body: text)))
    }

    /// An operation of a document, for an editor's operation picker.
    public struct Operation: Sendable, Hashable {
        public var name: String?
        public var type: OperationType
        public var position: TextPosition
    }

    /// The document's operations in order (none when it does not parse).
    public func operations(in text: String) -> [Operation] {
        let source = Source(body: text)
        guard let document = try? parse(source) else { return [] }
        return document.definitions.compactMap {
            guard case .operation(let operation) = $0 else { return nil }
            let position = TextPosition(source.location(at: operation.location.start))
            return Operation(name: operation.name?.value, type: operation.operation, position: position)
        }
    }
}
