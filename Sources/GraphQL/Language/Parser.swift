/// Parses a GraphQL document (spec §2 and §3) into its syntax tree.
///
/// Error messages and positions match graphql-js 16 for every input it
/// accepts or rejects; where the September 2025 spec goes further
/// (descriptions on operations, fragments and variables), the spec wins.
public func parse(_ source: Source, options: ParseOptions = .default) throws(GraphQLError) -> Document {
    try Parser.run(source, options) { (parser) throws(GraphQLError) in try parser.parseDocument() }
}

/// Parses GraphQL text; see `parse(_:options:)`.
public func parse(_ text: String, options: ParseOptions = .default) throws(GraphQLError) -> Document {
    try parse(Source(body: text), options: options)
}

/// Parses a single value literal, which may contain variables.
public func parseValue(_ source: Source, options: ParseOptions = .default) throws(GraphQLError) -> Value {
    try Parser.run(source, options) { (parser) throws(GraphQLError) in
        try parser.expect(.startOfFile)
        let value = try parser.parseValueLiteral(isConst: false)
        try parser.expect(.endOfFile)
        return value
    }
}

/// Parses a single constant value literal (no variables).
public func parseConstValue(_ source: Source, options: ParseOptions = .default) throws(GraphQLError) -> Value {
    try Parser.run(source, options) { (parser) throws(GraphQLError) in
        try parser.expect(.startOfFile)
        let value = try parser.parseValueLiteral(isConst: true)
        try parser.expect(.endOfFile)
        return value
    }
}

/// Parses a type reference such as `[String!]!`.
public func parseType(_ source: Source, options: ParseOptions = .default) throws(GraphQLError) -> TypeReference {
    try Parser.run(source, options) { (parser) throws(GraphQLError) in
        try parser.expect(.startOfFile)
        let type = try parser.parseTypeReference()
        try parser.expect(.endOfFile)
        return type
    }
}

/// A recursive-descent parser over the lexer's token stream, with one token
/// of lookahead (two where a description precedes a keyword).
struct Parser {
    private var lexer: Lexer
    private(set) var token: Token
    /// The cooked value of `token` when it is a string.
    private var tokenString = ""
    private var lastTokenEnd = 0
    private var tokenCount = 0
    private let options: ParseOptions
    private var selectionDepth = 0
    private var valueDepth = 0
    private var typeDepth = 0

    private init(lexer: Lexer, options: ParseOptions) {
        self.lexer = lexer
        self.options = options
        self.token = Token(.startOfFile, 0, 0)
    }

    /// Runs `body` with a parser over `source`, after checking the size limit.
    static func run<Result>(
        _ source: Source,
        _ options: ParseOptions,
        schemaCoordinate: Bool = false,
        _ body: (inout Parser) throws(GraphQLError) -> Result
    ) throws(GraphQLError) -> Result {
        var text = source.body
        if let limit = options.maxSourceBytes, text.utf8.count > limit {
            throw GraphQLError(
                message: "Syntax Error: Document is \(text.utf8.count) bytes, more than the limit of \(limit) bytes."
            )
        }
        let outcome: Swift.Result<Result, GraphQLError> = text.withUTF8 { bytes in
            var lexer = Lexer(bytes: bytes, source: source)
            lexer.readsSchemaCoordinate = schemaCoordinate
            var parser = Parser(lexer: lexer, options: options)
            do throws(GraphQLError) {
                return .success(try body(&parser))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    // MARK: - Documents

    mutating func parseDocument() throws(GraphQLError) -> Document {
        try expect(.startOfFile)
        var definitions: [Definition] = []
        definitions.reserveCapacity(4)
        repeat {
            definitions.append(try parseDefinition())
        } while try !expectOptional(.endOfFile)
        return Document(definitions: definitions, location: location(from: 0))
    }

    private mutating func parseDefinition() throws(GraphQLError) -> Definition {
        if peek(.braceLeft) {
            return .operation(try parseOperationDefinition())
        }
        let hasDescription = peekDescription()
        let keyword = hasDescription ? try lookahead().token : token
        if keyword.kind == .name {
            switch lexer.text(of: keyword) {
            case "schema": return .schema(try parseSchemaDefinition())
            case "scalar": return .type(.scalar(try parseScalarTypeDefinition()))
            case "type": return .type(.object(try parseObjectTypeDefinition()))
            case "interface": return .type(.interface(try parseInterfaceTypeDefinition()))
            case "union": return .type(.union(try parseUnionTypeDefinition()))
            case "enum": return .type(.enum(try parseEnumTypeDefinition()))
            case "input": return .type(.inputObject(try parseInputObjectTypeDefinition()))
            case "directive": return .directive(try parseDirectiveDefinition())
            case "query", "mutation", "subscription": return .operation(try parseOperationDefinition())
            case "fragment": return .fragment(try parseFragmentDefinition())
            default: break
            }
            // graphql-js 16's message; of the rest, the September 2025 spec lets only
            // operations and fragments (above) carry a description.
            if hasDescription {
                throw error(at: token.start, "Unexpected description, descriptions are supported only on type definitions.")
            }
            if lexer.token(keyword, is: "extend") {
                return try parseTypeSystemExtension()
            }
        }
        throw hasDescription ? unexpected(try lookahead()) : unexpected(token)
    }

    // MARK: - Operations

    private mutating func parseOperationDefinition() throws(GraphQLError) -> OperationDefinition {
        let start = token.start
        if peek(.braceLeft) {
            let selectionSet = try parseSelectionSet()
            return OperationDefinition(operation: .query, selectionSet: selectionSet, location: location(from: start))
        }
        let description = try parseDescription()
        let operation = try parseOperationType()
        let name = peek(.name) ? try parseName() : nil
        let variableDefinitions = try parseVariableDefinitions()
        let directives = try parseDirectives(isConst: false)
        let selectionSet = try parseSelectionSet()
        return OperationDefinition(
            description: description, operation: operation, name: name,
            variableDefinitions: variableDefinitions, directives: directives,
            selectionSet: selectionSet, location: location(from: start)
        )
    }

    private mutating func parseOperationType() throws(GraphQLError) -> OperationType {
        let operationToken = try expect(.name)
        if lexer.token(operationToken, is: "query") { return .query }
        if lexer.token(operationToken, is: "mutation") { return .mutation }
        if lexer.token(operationToken, is: "subscription") { return .subscription }
        throw unexpected(operationToken)
    }

    private mutating func parseVariableDefinitions() throws(GraphQLError) -> [VariableDefinition] {
        guard try expectOptional(.parenLeft) else { return [] }
        var definitions: [VariableDefinition] = []
        repeat {
            definitions.append(try parseVariableDefinition())
        } while try !expectOptional(.parenRight)
        return definitions
    }

    private mutating func parseVariableDefinition() throws(GraphQLError) -> VariableDefinition {
        let start = token.start
        let description = try parseDescription()
        let variable = try parseVariable()
        try expect(.colon)
        let type = try parseTypeReference()
        let defaultValue = try expectOptional(.equals) ? try parseValueLiteral(isConst: true) : nil
        let directives = try parseDirectives(isConst: true)
        return VariableDefinition(
            description: description, variable: variable, type: type, defaultValue: defaultValue,
            directives: directives, location: location(from: start)
        )
    }

    private mutating func parseVariable() throws(GraphQLError) -> Variable {
        let start = token.start
        try expect(.dollar)
        let name = try parseName()
        return Variable(name: name, location: location(from: start))
    }

    // MARK: - Selections

    private mutating func parseSelectionSet() throws(GraphQLError) -> SelectionSet {
        let start = token.start
        if selectionDepth >= options.maxNestingDepth, peek(.braceLeft) {
            throw error(at: start, "Selections are nested more than \(options.maxNestingDepth) levels deep.")
        }
        selectionDepth += 1
        defer { selectionDepth -= 1 }
        try expect(.braceLeft)
        var selections: [Selection] = []
        // Most selection sets are short; one right-sized allocation beats regrowing.
        selections.reserveCapacity(6)
        repeat {
            selections.append(try peek(.spread) ? parseFragment() : .field(parseField()))
        } while try !expectOptional(.braceRight)
        return SelectionSet(selections: selections, location: location(from: start))
    }

    private mutating func parseField() throws(GraphQLError) -> Field {
        let start = token.start
        let nameOrAlias = try parseName()
        var alias: Name? = nil
        var name = nameOrAlias
        if try expectOptional(.colon) {
            alias = nameOrAlias
            name = try parseName()
        }
        let arguments = try parseArguments(isConst: false)
        let directives = try parseDirectives(isConst: false)
        let selectionSet = peek(.braceLeft) ? try parseSelectionSet() : nil
        return Field(
            alias: alias, name: name, arguments: arguments, directives: directives,
            selectionSet: selectionSet, location: location(from: start)
        )
    }

    private mutating func parseArguments(isConst: Bool) throws(GraphQLError) -> [Argument] {
        guard try expectOptional(.parenLeft) else { return [] }
        var arguments: [Argument] = []
        arguments.reserveCapacity(3)
        repeat {
            let start = token.start
            let name = try parseName()
            try expect(.colon)
            let value = try parseValueLiteral(isConst: isConst)
            arguments.append(Argument(name: name, value: value, location: location(from: start)))
        } while try !expectOptional(.parenRight)
        return arguments
    }

    private mutating func parseFragment() throws(GraphQLError) -> Selection {
        let start = token.start
        try expect(.spread)
        let hasTypeCondition = try expectOptionalKeyword("on")
        if !hasTypeCondition && peek(.name) {
            let name = try parseFragmentName()
            let directives = try parseDirectives(isConst: false)
            return .fragmentSpread(FragmentSpread(name: name, directives: directives, location: location(from: start)))
        }
        let typeCondition = hasTypeCondition ? try parseNamedType() : nil
        let directives = try parseDirectives(isConst: false)
        let selectionSet = try parseSelectionSet()
        return .inlineFragment(
            InlineFragment(
                typeCondition: typeCondition, directives: directives, selectionSet: selectionSet,
                location: location(from: start)
            ))
    }

    private mutating func parseFragmentDefinition() throws(GraphQLError) -> FragmentDefinition {
        let start = token.start
        let description = try parseDescription()
        try expectKeyword("fragment")
        let name = try parseFragmentName()
        try expectKeyword("on")
        let typeCondition = try parseNamedType()
        let directives = try parseDirectives(isConst: false)
        let selectionSet = try parseSelectionSet()
        return FragmentDefinition(
            description: description, name: name, typeCondition: typeCondition,
            directives: directives, selectionSet: selectionSet, location: location(from: start)
        )
    }

    private mutating func parseFragmentName() throws(GraphQLError) -> Name {
        if tokenHasValue("on") {
            throw unexpected(token)
        }
        return try parseName()
    }

    // MARK: - Values

    mutating func parseValueLiteral(isConst: Bool) throws(GraphQLError) -> Value {
        let current = token
        switch current.kind {
        case .bracketLeft:
            try enterValue()
            defer { valueDepth -= 1 }
            try advance()
            var values: [Value] = []
            values.reserveCapacity(4)
            while try !expectOptional(.bracketRight) {
                values.append(try parseValueLiteral(isConst: isConst))
            }
            return .list(ListValue(values: values, location: location(from: current.start)))
        case .braceLeft:
            try enterValue()
            defer { valueDepth -= 1 }
            try advance()
            var fields: [ObjectField] = []
            fields.reserveCapacity(4)
            while try !expectOptional(.braceRight) {
                let start = token.start
                let name = try parseName()
                try expect(.colon)
                let value = try parseValueLiteral(isConst: isConst)
                fields.append(ObjectField(name: name, value: value, location: location(from: start)))
            }
            return .object(ObjectValue(fields: fields, location: location(from: current.start)))
        case .int:
            try advance()
            return .int(IntValue(value: lexer.text(of: current), location: location(from: current.start)))
        case .float:
            try advance()
            return .float(FloatValue(value: lexer.text(of: current), location: location(from: current.start)))
        case .string, .blockString:
            return .string(try parseStringLiteral())
        case .name:
            try advance()
            if lexer.token(current, is: "true") {
                return .boolean(BooleanValue(value: true, location: location(from: current.start)))
            }
            if lexer.token(current, is: "false") {
                return .boolean(BooleanValue(value: false, location: location(from: current.start)))
            }
            if lexer.token(current, is: "null") {
                return .null(NullValue(location: location(from: current.start)))
            }
            return .enum(EnumValue(value: lexer.text(of: current), location: location(from: current.start)))
        case .dollar:
            if isConst {
                try expect(.dollar)
                if token.kind == .name {
                    throw error(at: current.start, "Unexpected variable \"$\(lexer.text(of: token))\" in constant value.")
                }
                throw unexpected(current)
            }
            return .variable(try parseVariable())
        default:
            throw unexpected(token)
        }
    }

    private mutating func enterValue() throws(GraphQLError) {
        if valueDepth >= options.maxNestingDepth {
            throw error(at: token.start, "Values are nested more than \(options.maxNestingDepth) levels deep.")
        }
        valueDepth += 1
    }

    private mutating func parseStringLiteral() throws(GraphQLError) -> StringValue {
        let current = token
        let value = tokenString
        try advance()
        return StringValue(value: value, isBlock: current.kind == .blockString, location: location(from: current.start))
    }

    // MARK: - Directives

    private mutating func parseDirectives(isConst: Bool) throws(GraphQLError) -> [Directive] {
        guard peek(.at) else { return [] }
        var directives: [Directive] = []
        while peek(.at) {
            let start = token.start
            try advance()
            let name = try parseName()
            let arguments = try parseArguments(isConst: isConst)
            directives.append(Directive(name: name, arguments: arguments, location: location(from: start)))
        }
        return directives
    }

    // MARK: - Types

    mutating func parseTypeReference() throws(GraphQLError) -> TypeReference {
        let start = token.start
        var type: TypeReference
        if peek(.bracketLeft) {
            if typeDepth >= options.maxNestingDepth {
                throw error(at: start, "Types are nested more than \(options.maxNestingDepth) levels deep.")
            }
            typeDepth += 1
            defer { typeDepth -= 1 }
            try advance()
            let inner = try parseTypeReference()
            try expect(.bracketRight)
            type = .list(ListType(type: inner, location: location(from: start)))
        } else {
            type = .named(try parseNamedType())
        }
        if try expectOptional(.bang) {
            return .nonNull(NonNullType(type: type, location: location(from: start)))
        }
        return type
    }

    private mutating func parseNamedType() throws(GraphQLError) -> NamedType {
        let start = token.start
        let name = try parseName()
        return NamedType(name: name, location: location(from: start))
    }

    // MARK: - Type system definitions

    private func peekDescription() -> Bool {
        token.kind == .string || token.kind == .blockString
    }

    private mutating func parseDescription() throws(GraphQLError) -> StringValue? {
        peekDescription() ? try parseStringLiteral() : nil
    }

    private mutating func parseSchemaDefinition() throws(GraphQLError) -> SchemaDefinition {
        let start = token.start
        let description = try parseDescription()
        try expectKeyword("schema")
        let directives = try parseDirectives(isConst: true)
        try expect(.braceLeft)
        var operationTypes: [OperationTypeDefinition] = []
        repeat {
            operationTypes.append(try parseOperationTypeDefinition())
        } while try !expectOptional(.braceRight)
        return SchemaDefinition(
            description: description, directives: directives, operationTypes: operationTypes,
            location: location(from: start)
        )
    }

    private mutating func parseOperationTypeDefinition() throws(GraphQLError) -> OperationTypeDefinition {
        let start = token.start
        let operation = try parseOperationType()
        try expect(.colon)
        let type = try parseNamedType()
        return OperationTypeDefinition(operation: operation, type: type, location: location(from: start))
    }

    private mutating func parseScalarTypeDefinition() throws(GraphQLError) -> ScalarTypeDefinition {
        let start = token.start
        let description = try parseDescription()
        try expectKeyword("scalar")
        let name = try parseName()
        let directives = try parseDirectives(isConst: true)
        return ScalarTypeDefinition(description: description, name: name, directives: directives, location: location(from: start))
    }

    private mutating func parseObjectTypeDefinition() throws(GraphQLError) -> ObjectTypeDefinition {
        let start = token.start
        let description = try parseDescription()
        try expectKeyword("type")
        let name = try parseName()
        let interfaces = try parseImplementsInterfaces()
        let directives = try parseDirectives(isConst: true)
        let fields = try parseFieldsDefinition()
        return ObjectTypeDefinition(
            description: description, name: name, interfaces: interfaces, directives: directives,
            fields: fields, location: location(from: start)
        )
    }

    private mutating func parseImplementsInterfaces() throws(GraphQLError) -> [NamedType] {
        guard try expectOptionalKeyword("implements") else { return [] }
        return try parseDelimited(.ampersand) { (parser) throws(GraphQLError) in try parser.parseNamedType() }
    }

    private mutating func parseFieldsDefinition() throws(GraphQLError) -> [FieldDefinition] {
        guard try expectOptional(.braceLeft) else { return [] }
        var fields: [FieldDefinition] = []
        fields.reserveCapacity(8)
        repeat {
            let start = token.start
            let description = try parseDescription()
            let name = try parseName()
            let arguments = try parseArgumentDefinitions()
            try expect(.colon)
            let type = try parseTypeReference()
            let directives = try parseDirectives(isConst: true)
            fields.append(
                FieldDefinition(
                    description: description, name: name, arguments: arguments, type: type,
                    directives: directives, location: location(from: start)
                ))
        } while try !expectOptional(.braceRight)
        return fields
    }

    private mutating func parseArgumentDefinitions() throws(GraphQLError) -> [InputValueDefinition] {
        try parseInputValueDefinitions(.parenLeft, .parenRight)
    }

    private mutating func parseInputValueDefinitions(
        _ open: TokenKind, _ close: TokenKind
    ) throws(GraphQLError) -> [InputValueDefinition] {
        guard try expectOptional(open) else { return [] }
        var definitions: [InputValueDefinition] = []
        repeat {
            let start = token.start
            let description = try parseDescription()
            let name = try parseName()
            try expect(.colon)
            let type = try parseTypeReference()
            let defaultValue = try expectOptional(.equals) ? try parseValueLiteral(isConst: true) : nil
            let directives = try parseDirectives(isConst: true)
            definitions.append(
                InputValueDefinition(
                    description: description, name: name, type: type, defaultValue: defaultValue,
                    directives: directives, location: location(from: start)
                ))
        } while try !expectOptional(close)
        return definitions
    }

    private mutating func parseInterfaceTypeDefinition() throws(GraphQLError) -> InterfaceTypeDefinition {
        let start = token.start
        let description = try parseDescription()
        try expectKeyword("interface")
        let name = try parseName()
        let interfaces = try parseImplementsInterfaces()
        let directives = try parseDirectives(isConst: true)
        let fields = try parseFieldsDefinition()
        return InterfaceTypeDefinition(
            description: description, name: name, interfaces: interfaces, directives: directives,
            fields: fields, location: location(from: start)
        )
    }

    private mutating func parseUnionTypeDefinition() throws(GraphQLError) -> UnionTypeDefinition {
        let start = token.start
        let description = try parseDescription()
        try expectKeyword("union")
        let name = try parseName()
        let directives = try parseDirectives(isConst: true)
        let types = try parseUnionMemberTypes()
        return UnionTypeDefinition(
            description: description, name: name, directives: directives, types: types, location: location(from: start)
        )
    }

    private mutating func parseUnionMemberTypes() throws(GraphQLError) -> [NamedType] {
        guard try expectOptional(.equals) else { return [] }
        return try parseDelimited(.pipe) { (parser) throws(GraphQLError) in try parser.parseNamedType() }
    }

    private mutating func parseEnumTypeDefinition() throws(GraphQLError) -> EnumTypeDefinition {
        let start = token.start
        let description = try parseDescription()
        try expectKeyword("enum")
        let name = try parseName()
        let directives = try parseDirectives(isConst: true)
        let values = try parseEnumValuesDefinition()
        return EnumTypeDefinition(
            description: description, name: name, directives: directives, values: values, location: location(from: start)
        )
    }

    private mutating func parseEnumValuesDefinition() throws(GraphQLError) -> [EnumValueDefinition] {
        guard try expectOptional(.braceLeft) else { return [] }
        var values: [EnumValueDefinition] = []
        repeat {
            let start = token.start
            let description = try parseDescription()
            if tokenHasValue("true") || tokenHasValue("false") || tokenHasValue("null") {
                throw error(at: token.start, "\(describe(token)) is reserved and cannot be used for an enum value.")
            }
            let name = try parseName()
            let directives = try parseDirectives(isConst: true)
            values.append(
                EnumValueDefinition(
                    description: description, name: name, directives: directives, location: location(from: start)
                ))
        } while try !expectOptional(.braceRight)
        return values
    }

    private mutating func parseInputObjectTypeDefinition() throws(GraphQLError) -> InputObjectTypeDefinition {
        let start = token.start
        let description = try parseDescription()
        try expectKeyword("input")
        let name = try parseName()
        let directives = try parseDirectives(isConst: true)
        let fields = try parseInputValueDefinitions(.braceLeft, .braceRight)
        return InputObjectTypeDefinition(
            description: description, name: name, directives: directives, fields: fields, location: location(from: start)
        )
    }

    private mutating func parseDirectiveDefinition() throws(GraphQLError) -> DirectiveDefinition {
        let start = token.start
        let description = try parseDescription()
        try expectKeyword("directive")
        try expect(.at)
        let name = try parseName()
        let arguments = try parseArgumentDefinitions()
        let isRepeatable = try expectOptionalKeyword("repeatable")
        try expectKeyword("on")
        let locations = try parseDelimited(.pipe) { (parser) throws(GraphQLError) in
            let locationToken = parser.token
            let name = try parser.parseName()
            guard DirectiveLocation(rawValue: name.value) != nil else { throw parser.unexpected(locationToken) }
            return name
        }
        return DirectiveDefinition(
            description: description, name: name, arguments: arguments, isRepeatable: isRepeatable,
            locations: locations, location: location(from: start)
        )
    }

    // MARK: - Type system extensions

    private mutating func parseTypeSystemExtension() throws(GraphQLError) -> Definition {
        let next = try lookahead()
        let keyword = next.token
        if keyword.kind == .name {
            let start = token.start
            switch lexer.text(of: keyword) {
            case "schema":
                try advance()
                try advance()
                let directives = try parseDirectives(isConst: true)
                var operationTypes: [OperationTypeDefinition] = []
                if try expectOptional(.braceLeft) {
                    repeat {
                        operationTypes.append(try parseOperationTypeDefinition())
                    } while try !expectOptional(.braceRight)
                }
                if directives.isEmpty && operationTypes.isEmpty { throw unexpected(token) }
                return .schemaExtension(
                    SchemaExtension(
                        directives: directives, operationTypes: operationTypes, location: location(from: start)
                    ))
            case "scalar":
                try advance()
                try advance()
                let name = try parseName()
                let directives = try parseDirectives(isConst: true)
                if directives.isEmpty { throw unexpected(token) }
                return .typeExtension(
                    .scalar(
                        ScalarTypeExtension(
                            name: name, directives: directives, location: location(from: start)
                        )))
            case "type":
                try advance()
                try advance()
                let name = try parseName()
                let interfaces = try parseImplementsInterfaces()
                let directives = try parseDirectives(isConst: true)
                let fields = try parseFieldsDefinition()
                if interfaces.isEmpty && directives.isEmpty && fields.isEmpty { throw unexpected(token) }
                return .typeExtension(
                    .object(
                        ObjectTypeExtension(
                            name: name, interfaces: interfaces, directives: directives, fields: fields,
                            location: location(from: start)
                        )))
            case "interface":
                try advance()
                try advance()
                let name = try parseName()
                let interfaces = try parseImplementsInterfaces()
                let directives = try parseDirectives(isConst: true)
                let fields = try parseFieldsDefinition()
                if interfaces.isEmpty && directives.isEmpty && fields.isEmpty { throw unexpected(token) }
                return .typeExtension(
                    .interface(
                        InterfaceTypeExtension(
                            name: name, interfaces: interfaces, directives: directives, fields: fields,
                            location: location(from: start)
                        )))
            case "union":
                try advance()
                try advance()
                let name = try parseName()
                let directives = try parseDirectives(isConst: true)
                let types = try parseUnionMemberTypes()
                if directives.isEmpty && types.isEmpty { throw unexpected(token) }
                return .typeExtension(
                    .union(
                        UnionTypeExtension(
                            name: name, directives: directives, types: types, location: location(from: start)
                        )))
            case "enum":
                try advance()
                try advance()
                let name = try parseName()
                let directives = try parseDirectives(isConst: true)
                let values = try parseEnumValuesDefinition()
                if directives.isEmpty && values.isEmpty { throw unexpected(token) }
                return .typeExtension(
                    .enum(
                        EnumTypeExtension(
                            name: name, directives: directives, values: values, location: location(from: start)
                        )))
            case "input":
                try advance()
                try advance()
                let name = try parseName()
                let directives = try parseDirectives(isConst: true)
                let fields = try parseInputValueDefinitions(.braceLeft, .braceRight)
                if directives.isEmpty && fields.isEmpty { throw unexpected(token) }
                return .typeExtension(
                    .inputObject(
                        InputObjectTypeExtension(
                            name: name, directives: directives, fields: fields, location: location(from: start)
                        )))
            default:
                break
            }
        }
        throw unexpected(next)
    }

    // MARK: - Schema coordinates

    mutating func parseSchemaCoordinate() throws(GraphQLError) -> SchemaCoordinate {
        try expect(.startOfFile)
        let ofDirective = try expectOptional(.at)
        let name = try parseName()
        var memberName: Name? = nil
        if !ofDirective, try expectOptional(.dot) {
            memberName = try parseName()
        }
        var argumentName: Name? = nil
        if ofDirective || memberName != nil, try expectOptional(.parenLeft) {
            argumentName = try parseName()
            try expect(.colon)
            try expect(.parenRight)
        }
        try expect(.endOfFile)
        switch (ofDirective, memberName, argumentName) {
        case (true, _, nil): return .directive(name: name.value)
        case (true, _, let argument?): return .directiveArgument(name: name.value, argument: argument.value)
        case (false, nil, _): return .type(name: name.value)
        case (false, let member?, nil): return .member(type: name.value, member: member.value)
        case (false, let member?, let argument?):
            return .argument(type: name.value, field: member.value, argument: argument.value)
        }
    }

    // MARK: - Token helpers

    private mutating func parseName() throws(GraphQLError) -> Name {
        let nameToken = try expect(.name)
        return Name(lexer.text(of: nameToken), location: location(from: nameToken.start))
    }

    /// `X (delimiter X)*`, with an optional leading delimiter.
    private mutating func parseDelimited<Item>(
        _ delimiter: TokenKind,
        _ item: (inout Parser) throws(GraphQLError) -> Item
    ) throws(GraphQLError) -> [Item] {
        _ = try expectOptional(delimiter)
        var items: [Item] = []
        repeat {
            items.append(try item(&self))
        } while try expectOptional(delimiter)
        return items
    }

    @inline(__always)
    private func peek(_ kind: TokenKind) -> Bool {
        token.kind == kind
    }

    @inline(__always)
    private mutating func advance() throws(GraphQLError) {
        lastTokenEnd = token.end
        token = try lexer.next()
        if token.kind == .string || token.kind == .blockString {
            tokenString = lexer.stringValue
        }
        if let maxTokens = options.maxTokens, token.kind != .endOfFile {
            tokenCount += 1
            if tokenCount > maxTokens {
                throw error(at: token.start, "Document contains more that \(maxTokens) tokens. Parsing aborted.")
            }
        }
    }

    /// The token after the current one, with its cooked value if it is a string.
    private func lookahead() throws(GraphQLError) -> (token: Token, string: String) {
        if token.kind == .endOfFile { return (token, "") }
        var copy = lexer
        let next = try copy.next()
        return (next, copy.stringValue)
    }

    @discardableResult @inline(__always)
    mutating func expect(_ kind: TokenKind) throws(GraphQLError) -> Token {
        let current = token
        guard current.kind == kind else { throw expected(kind, found: current) }
        try advance()
        return current
    }

    // Out of line: building the message must not weigh on every expected token.
    @inline(never)
    private func expected(_ kind: TokenKind, found current: Token) -> GraphQLError {
        error(at: current.start, "Expected \(kind.expectation), found \(describe(current)).")
    }

    @inline(__always)
    private mutating func expectOptional(_ kind: TokenKind) throws(GraphQLError) -> Bool {
        guard token.kind == kind else { return false }
        try advance()
        return true
    }

    private mutating func expectKeyword(_ keyword: StaticString) throws(GraphQLError) {
        guard lexer.token(token, is: keyword) else {
            throw error(at: token.start, "Expected \"\(keyword)\", found \(describe(token)).")
        }
        try advance()
    }

    private mutating func expectOptionalKeyword(_ keyword: StaticString) throws(GraphQLError) -> Bool {
        guard lexer.token(token, is: keyword) else { return false }
        try advance()
        return true
    }

    @inline(__always)
    private func location(from start: Int) -> Location {
        options.recordsLocations ? Location(start: start, end: lastTokenEnd) : .none
    }

    /// Whether the current token's value, as graphql-js compares it, is `value`:
    /// a name spelled so, or a string whose cooked value is it.
    private func tokenHasValue(_ value: StaticString) -> Bool {
        switch token.kind {
        case .name: lexer.token(token, is: value)
        case .string, .blockString: tokenString == value.description
        default: false
        }
    }

    /// A token's value as graphql-js has it: the text of names and numbers,
    /// the cooked value of strings (`string`, for a token that is not the
    /// current one), nothing for punctuators.
    private func tokenValue(_ token: Token, string: String? = nil) -> String? {
        switch token.kind {
        case .name, .int, .float: lexer.text(of: token)
        case .string, .blockString: string ?? tokenString
        default: nil
        }
    }

    /// getTokenDesc: the kind, then the value in quotes when there is one.
    private func describe(_ token: Token, string: String? = nil) -> String {
        let kind = token.kind.isPunctuator ? "\"\(token.kind)\"" : token.kind.description
        guard let value = tokenValue(token, string: string) else { return kind }
        return "\(kind) \"\(value)\""
    }

    private func unexpected(_ token: Token) -> GraphQLError {
        error(at: token.start, "Unexpected \(describe(token)).")
    }

    private func unexpected(_ lookahead: (token: Token, string: String)) -> GraphQLError {
        error(at: lookahead.token.start, "Unexpected \(describe(lookahead.token, string: lookahead.string)).")
    }

    private func error(at offset: Int, _ description: String) -> GraphQLError {
        lexer.error(at: offset, description)
    }
}
