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

    /// The largest document `format` writes, in UTF-8 bytes, as its tree measures it.
    public var maxFormattedBytes: Int
    /// The most bytes `format`'s printer may copy while indenting, as the tree measures it.
    public var maxFormattingCopies: Int

    public init(
        schema: GraphQLSchema, maxErrors: Int = 100, hidesSuggestions: Bool = false, maxFormattedBytes: Int = 1 << 20,
        maxFormattingCopies: Int = 16 << 20
    ) {
        self.schema = schema
        self.maxErrors = maxErrors
        self.hidesSuggestions = hidesSuggestions
        self.maxFormattedBytes = maxFormattedBytes
        self.maxFormattingCopies = maxFormattingCopies
    }

    /// Why `format` did not print a document.
    public enum FormatFailure: Error, Sendable {
        /// The document does not parse.
        case syntax(GraphQLError)
        /// Printing it would write or copy more than the service's limits.
        case tooLarge(FormattingCost)
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

    /// What an editor shows of a whole document: its problems and its operations.
    public struct Analysis: Sendable, Hashable {
        /// The syntax error, or else every validation error, then a warning
        /// for each deprecated field, argument, input field or enum value used.
        public var diagnostics: [Diagnostic]
        /// The operations in order (none when the document does not parse).
        public var operations: [Operation]
    }

    /// The document's diagnostics and operations, from one parse.
    public func analyze(_ text: String) -> Analysis {
        let source = Source(body: text)
        let document: Document
        do {
            document = try parse(source)
        } catch {
            let syntax = Diagnostic(message: error.message, severity: .error, positions: error.locations.map(TextPosition.init))
            return Analysis(diagnostics: [syntax], operations: [])
        }
        let errors = Suggestions.$areHidden.withValue(hidesSuggestions) {
            validate(schema: schema, document: document, source: source, maxErrors: maxErrors)
        }
        let deprecations = validate(
            schema: schema, document: document, source: source, rules: [NoDeprecatedUsageRule.self], maxErrors: maxErrors
        )
        let diagnostics =
            errors.map { Diagnostic(message: $0.message, severity: .error, positions: $0.locations.map(TextPosition.init)) }
            + deprecations.map {
                Diagnostic(message: $0.message, severity: .warning, positions: $0.locations.map(TextPosition.init))
            }
        let operations = document.definitions.compactMap { definition -> Operation? in
            guard case .operation(let operation) = definition else { return nil }
            let position = TextPosition(source.location(at: operation.location.start))
            return Operation(name: operation.name?.value, type: operation.operation, position: position)
        }
        return Analysis(diagnostics: diagnostics, operations: operations)
    }

    /// The document as the engine's printer writes it (graphql-js's
    /// `print`; comments are not kept); refused, before any printing, when
    /// its tree says it would be too large to write.
    public func format(_ text: String) throws(FormatFailure) -> String {
        let document: Document
        do {
            document = try parse(Source(body: text))
        } catch {
            throw .syntax(error)
        }
        let cost = FormattingCost(of: document)
        guard cost.bytes <= maxFormattedBytes, cost.copied <= maxFormattingCopies else { throw .tooLarge(cost) }
        return Printer.print(document)
    }

    /// An operation of a document, for an editor's operation picker.
    public struct Operation: Sendable, Hashable {
        public var name: String?
        public var type: OperationType
        public var position: TextPosition
    }

}
