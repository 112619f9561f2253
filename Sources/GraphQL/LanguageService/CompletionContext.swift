/// What may be written at a cursor in an executable document, found by
/// reading the document's tokens up to the cursor with the grammar of
/// spec §2 and following the schema's types along the way (the field a
/// selection set belongs to, the argument a value is for). The text after
/// the cursor does not matter, so a half-written document still completes.
enum CompletionContext {
    /// The start of a definition (`query`, `fragment`, ...) or the `on` of
    /// a fragment definition.
    case keywords([String])
    /// A selection in a selection set on `parent` (fields; after an alias,
    /// `fieldsOnly`).
    case selection(parent: GraphQLNamedType?, fieldsOnly: Bool)
    /// After `...`: a fragment name or `on`.
    case spread(parent: GraphQLNamedType?)
    /// After `on`: a type condition for a selection set on `parent` (nil in
    /// a fragment definition).
    case typeCondition(parent: GraphQLNamedType?)
    /// An argument name, with those already given.
    case argument(definitions: [GraphQLInputValue], given: Set<String>)
    /// A value of `type`.
    case value(type: GraphQLType?)
    /// A variable name after `$` in a value of `type`.
    case variable(type: GraphQLType?)
    /// A field of an input object, with those already given.
    case objectField(type: GraphQLNamedType?, given: Set<String>)
    /// A directive name after `@` at `location`.
    case directive(location: DirectiveLocation)
    /// The type of a variable definition.
    case inputType
    /// Nothing to offer (a name being introduced, a string, a comment).
    case none

    static let definitionStart = Self.keywords(["query", "mutation", "subscription", "fragment"])
}

/// The tokens of a document before a cursor and the context they leave it in.
struct CompletionReader {
    /// Where reading stopped: at the cursor with what may come there, or at
    /// something the grammar does not allow (no completions then).
    enum Stop: Error {
        case reached(CompletionContext)
        case invalid
    }

    let schema: GraphQLSchema
    let text: [UInt8]
    private var tokens: [Token] = []
    private var index = 0
    /// How deeply selection sets, lists and objects nest at the cursor, held
    /// to the parser's limit so that no document can overflow the stack.
    private var depth = 0
    private static let maxDepth = ParseOptions.default.maxNestingDepth
    /// The variables the operation around the cursor defines so far.
    private(set) var variables: [(name: String, type: GraphQLType?)] = []

    /// What is at `cursor` (a UTF-8 offset), and the range of the word being
    /// written there (the text a completion replaces).
    static func context(
        in text: [UInt8], at cursor: Int, schema: GraphQLSchema
    ) -> (context: CompletionContext, word: Range<Int>, variables: [(name: String, type: GraphQLType?)]) {
        var reader = CompletionReader(schema: schema, text: text)
        let (tokens, word) = text.withUnsafeBufferPointer { Self.tokens(of: $0, upTo: cursor) }
        guard let word else { return (.none, cursor..<cursor, []) }
        reader.tokens = tokens
        do {
            try reader.readDocument()
            // Every token read and the grammar never asked for more: the
            // cursor is after a complete document, where a definition starts.
            return (.definitionStart, word, reader.variables)
        } catch .reached(let context) {
            return (context, word, reader.variables)
        } catch {
            return (.none, word, [])
        }
    }

    /// Lexes the tokens that end before the cursor. Also returns the range
    /// of the name the cursor is in or just after (empty at the cursor when
    /// there is none), or nil when the cursor is in a string or a comment or
    /// the text before it does not lex.
    private static func tokens(of bytes: UnsafeBufferPointer<UInt8>, upTo cursor: Int) -> ([Token], Range<Int>?) {
        var lexer = Lexer(bytes: bytes, source: Source(body: ""))
        var tokens: [Token] = []
        var previousEnd = 0
        while true {
            let start = lexer.position
            guard let token = try? lexer.next() else {
                // A lexing error after the cursor does not concern it.
                let errorIsAfter = Self.firstSignificantByte(bytes, from: start) >= cursor
                return (tokens, errorIsAfter && !isComment(bytes, from: previousEnd, to: cursor) ? cursor..<cursor : nil)
            }
            if token.kind == .endOfFile || token.start >= cursor {
                return (tokens, isComment(bytes, from: previousEnd, to: cursor) ? nil : cursor..<cursor)
            }
            if token.end >= cursor {
                // The cursor is in this token or just after it.
                switch token.kind {
                case .name: return (tokens, token.start..<cursor)
                case .string, .blockString, .int, .float: return (tokens, nil)
                default:
                    tokens.append(token)
                    return (tokens, cursor..<cursor)
                }
            }
            tokens.append(token)
            previousEnd = token.end
        }
    }

    /// Where the next token after `start` begins, skipping white space,
    /// commas and comments.
    private static func firstSignificantByte(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            switch bytes[index] {
            case 0x09, 0x20, 0x2C, 0x0A, 0x0D: index += 1
            case 0x23:
                while index < bytes.count, bytes[index] != 0x0A, bytes[index] != 0x0D { index += 1 }
            default: return index
            }
        }
        return index
    }

    /// Whether a `#` between two tokens starts a comment the cursor is in.
    private static func isComment(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to cursor: Int) -> Bool {
        var inComment = false
        var index = start
        while index < min(cursor, bytes.count) {
            switch bytes[index] {
            case 0x23: inComment = true
            case 0x0A, 0x0D: inComment = false
            default: break
            }
            index += 1
        }
        return inComment
    }

    // MARK: - Tokens

    private var atCursor: Bool { index >= tokens.count }

    private func peek(_ kind: TokenKind) -> Bool { !atCursor && tokens[index].kind == kind }

    private func peekName(_ keyword: String) -> Bool {
        !atCursor && tokens[index].kind == .name && name(tokens[index]) == keyword
    }

    private func name(_ token: Token) -> String {
        String(decoding: text[token.start..<token.end], as: UTF8.self)
    }

    /// Takes a token of `kind`; at the cursor, stops with `context`.
    @discardableResult
    private mutating func expect(_ kind: TokenKind, else context: CompletionContext) throws(Stop) -> Token {
        if atCursor { throw .reached(context) }
        guard tokens[index].kind == kind else { throw .invalid }
        index += 1
        return tokens[index - 1]
    }

    private mutating func expectName(else context: CompletionContext) throws(Stop) -> String {
        name(try expect(.name, else: context))
    }

    // MARK: - The grammar, up to the cursor

    private mutating func readDocument() throws(Stop) {
        while !atCursor { try readDefinition() }
        throw .reached(.definitionStart)
    }

    private mutating func readDefinition() throws(Stop) {
        if peek(.braceLeft) {
            variables = []
            return try readSelectionSet(on: schema.queryType)
        }
        let keyword = try expectName(else: .definitionStart)
        switch keyword {
        case "query", "mutation", "subscription":
            variables = []
            let operation: OperationType = keyword == "query" ? .query : keyword == "mutation" ? .mutation : .subscription
            if peek(.name) { index += 1 }
            if atCursor { throw .reached(.none) }
            if peek(.parenLeft) { try readVariableDefinitions() }
            try readDirectives(at: DirectiveLocation(rawValue: keyword.uppercased())!)
            try readSelectionSet(on: schema.rootType(for: operation))
        case "fragment":
            variables = []
            _ = try expectName(else: .none)
            guard try expectName(else: .keywords(["on"])) == "on" else { throw .invalid }
            let typeName = try expectName(else: .typeCondition(parent: nil))
            try readDirectives(at: .fragmentDefinition)
            try readSelectionSet(on: schema.type(named: typeName))
        default:
            throw .invalid
        }
    }

    private mutating func readVariableDefinitions() throws(Stop) {
        try expect(.parenLeft, else: .none)
        while true {
            if atCursor { throw .reached(.none) }
            if peek(.parenRight) {
                index += 1
                return
            }
            try expect(.dollar, else: .none)
            let variable = try expectName(else: .none)
            try expect(.colon, else: .none)
            let type = try readTypeReference()
            variables.append((variable, type))
            if peek(.equals) {
                index += 1
                try readValue(of: type, isConst: true)
            }
            try readDirectives(at: .variableDefinition)
        }
    }

    private mutating func readTypeReference() throws(Stop) -> GraphQLType? {
        try nest()
        defer { depth -= 1 }
        var type: GraphQLType?
        if peek(.bracketLeft) {
            index += 1
            let item = try readTypeReference()
            try expect(.bracketRight, else: .none)
            type = item.map(GraphQLType.list)
        } else {
            type = schema.type(named: try expectName(else: .inputType)).map(GraphQLType.named)
        }
        if peek(.bang) {
            index += 1
            type = type.map(GraphQLType.nonNull)
        }
        return type
    }

    private mutating func nest() throws(Stop) {
        depth += 1
        if depth > Self.maxDepth { throw .invalid }
    }

    private mutating func readSelectionSet(on parent: GraphQLNamedType?) throws(Stop) {
        try expect(.braceLeft, else: .none)
        try nest()
        defer { depth -= 1 }
        while true {
            if atCursor { throw .reached(.selection(parent: parent, fieldsOnly: false)) }
            if peek(.braceRight) {
                index += 1
                return
            }
            if peek(.spread) {
                index += 1
                try readFragment(in: parent)
            } else {
                try readField(on: parent)
            }
        }
    }

    private mutating func readFragment(in parent: GraphQLNamedType?) throws(Stop) {
        if atCursor { throw .reached(.spread(parent: parent)) }
        if peekName("on") {
            index += 1
            let typeName = try expectName(else: .typeCondition(parent: parent))
            try readDirectives(at: .inlineFragment)
            return try readSelectionSet(on: schema.type(named: typeName))
        }
        if peek(.name) {
            index += 1
            return try readDirectives(at: .fragmentSpread)
        }
        try readDirectives(at: .inlineFragment)
        try readSelectionSet(on: parent)
    }

    private mutating func readField(on parent: GraphQLNamedType?) throws(Stop) {
        var fieldName = try expectName(else: .selection(parent: parent, fieldsOnly: false))
        if peek(.colon) {
            index += 1
            fieldName = try expectName(else: .selection(parent: parent, fieldsOnly: true))
        }
        let field = parent.flatMap { schema.field(named: fieldName, on: $0) }
        if peek(.parenLeft) { try readArguments(field?.arguments) }
        try readDirectives(at: .field)
        if peek(.braceLeft) { try readSelectionSet(on: field?.type.namedType) }
    }

    private mutating func readArguments(_ definitions: [GraphQLInputValue]?) throws(Stop) {
        try expect(.parenLeft, else: .none)
        var given: Set<String> = []
        while true {
            if atCursor { throw .reached(.argument(definitions: definitions ?? [], given: given)) }
            if peek(.parenRight) {
                index += 1
                return
            }
            let argument = try expectName(else: .none)
            given.insert(argument)
            try expect(.colon, else: .none)
            try readValue(of: definitions?.first { $0.name == argument }?.type, isConst: false)
        }
    }

    private mutating func readDirectives(at location: DirectiveLocation) throws(Stop) {
        while peek(.at) {
            index += 1
            let name = try expectName(else: .directive(location: location))
            if peek(.parenLeft) { try readArguments(schema.directive(named: name)?.arguments) }
        }
    }

    private mutating func readValue(of type: GraphQLType?, isConst: Bool) throws(Stop) {
        if atCursor { throw .reached(.value(type: type)) }
        try nest()
        defer { depth -= 1 }
        let token = tokens[index]
        index += 1
        switch token.kind {
        case .dollar where !isConst:
            _ = try expectName(else: .variable(type: type))
        case .int, .float, .string, .blockString, .name:
            break
        case .bracketLeft:
            let item: GraphQLType? =
                switch type?.nullableType {
                case .list(let item): item
                default: type
                }
            while true {
                if atCursor { throw .reached(.value(type: item)) }
                if peek(.bracketRight) {
                    index += 1
                    return
                }
                try readValue(of: item, isConst: isConst)
            }
        case .braceLeft:
            let object = type?.namedType.kind == .inputObject ? type?.namedType : nil
            var given: Set<String> = []
            while true {
                if atCursor { throw .reached(.objectField(type: object, given: given)) }
                if peek(.braceRight) {
                    index += 1
                    return
                }
                let field = try expectName(else: .none)
                given.insert(field)
                try expect(.colon, else: .none)
                try readValue(of: object?.inputField(named: field)?.type, isConst: isConst)
            }
        default:
            throw .invalid
        }
    }
}
