/// Errors that stop a schema from being built: the SDL does not describe a
/// schema (unknown types, duplicate definitions, misused directives...).
public struct SchemaBuildError: Error, Sendable, CustomStringConvertible {
    public var errors: [GraphQLError]

    public var description: String { errors.map(\.message).joined(separator: "\n\n") }
}

/// Builds a schema from SDL documents (graphql-js's buildASTSchema): the
/// definitions of every document together, then every extension in order.
/// Executable definitions among them are ignored.
public func buildSchema(_ sources: [Source]) throws(SchemaBuildError) -> GraphQLSchema {
    var documents: [(Document, Source)] = []
    for source in sources {
        do throws(GraphQLError) {
            documents.append((try parse(source, options: .trusted), source))
        } catch {
            var located = error
            located.sourceName = source.name
            throw SchemaBuildError(errors: [located])
        }
    }
    return try buildSchema(documents: documents)
}

/// Builds a schema from SDL text; see `buildSchema(_:)`.
public func buildSchema(_ sdl: String) throws(SchemaBuildError) -> GraphQLSchema {
    try buildSchema([Source(body: sdl, name: "schema")])
}

/// Builds a schema from parsed documents, each with the source it came from
/// (for error locations).
public func buildSchema(documents: [(Document, Source)]) throws(SchemaBuildError) -> GraphQLSchema {
    var builder = SchemaBuilder(builtins: Builtins.shared)
    builder.collect(documents)
    return try builder.build()
}

/// The built-in scalars, directives and introspection types, built once
/// from their SDL and shared by every schema.
final class Builtins: Sendable {
    static let shared: Builtins = {
        var builder = SchemaBuilder(builtins: nil)
        let source = Source(body: BuiltinDefinitions.sdl, name: "builtins")
        let document = try! parse(source, options: .trusted)
        builder.collect([(document, source)])
        let (types, directives) = try! builder.buildTypesAndDirectives()
        return Builtins(types: types, directives: directives)
    }()

    let types: [String: GraphQLNamedType]
    /// @include, @skip, @deprecated, @specifiedBy, @oneOf, in that order.
    let directives: [GraphQLDirective]
    let scalarNames: Set<String> = ["String", "Int", "Float", "Boolean", "ID"]

    private init(types: [GraphQLNamedType], directives: [GraphQLDirective]) {
        self.types = Dictionary(types.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.directives = directives
    }

    func type(named name: String) -> GraphQLNamedType? { types[name] }

    func isSpecifiedScalar(_ type: GraphQLNamedType) -> Bool { scalarNames.contains(type.name) && types[type.name] === type }
    func isIntrospectionType(_ type: GraphQLNamedType) -> Bool { type.name.hasPrefix("__") && types[type.name] === type }
    func isSpecifiedDirective(_ directive: GraphQLDirective) -> Bool { directives.contains { $0.name == directive.name } }
}

/// The work of buildSchema: collect definitions, create the named types,
/// then fill them in, since fields may refer to types defined later.
struct SchemaBuilder {
    private let builtins: Builtins?
    private var errors: [GraphQLError] = []
    private var schemaDefinition: (SchemaDefinition, Source)?
    /// Every schema definition, the extra ones included, for UniqueOperationTypes.
    private var allSchemaDefinitions: [(SchemaDefinition, Source)] = []
    private var schemaExtensions: [(SchemaExtension, Source)] = []
    private var typeDefinitions: [(TypeDefinition, Source)] = []
    private var typeExtensions: [String: [(TypeExtension, Source)]] = [:]
    private var directiveDefinitions: [(DirectiveDefinition, Source)] = []
    private var types: [String: GraphQLNamedType] = [:]
    /// Types in the order their definitions appear.
    private var definedTypes: [GraphQLNamedType] = []

    init(builtins: Builtins?) {
        self.builtins = builtins
    }

    // MARK: - Collecting definitions

    mutating func collect(_ documents: [(Document, Source)]) {
        var typeNames: [String: (Name, Source)] = [:]
        var directiveNames: [String: (Name, Source)] = [:]
        for (document, source) in documents {
            for definition in document.definitions {
                switch definition {
                case .schema(let node):
                    allSchemaDefinitions.append((node, source))
                    if schemaDefinition != nil {
                        report("Must provide only one schema definition.", [node.location], source)
                    } else {
                        schemaDefinition = (node, source)
                    }
                case .schemaExtension(let node):
                    schemaExtensions.append((node, source))
                case .type(let node):
                    let name = node.name
                    if let (first, firstSource) = typeNames[name.value] {
                        report(
                            "There can be only one type named \"\(name.value)\".",
                            [(first.location, firstSource), (name.location, source)]
                        )
                    } else {
                        typeNames[name.value] = (name, source)
                        typeDefinitions.append((node, source))
                    }
                case .typeExtension(let node):
                    typeExtensions[node.name.value, default: []].append((node, source))
                case .directive(let node):
                    let name = node.name
                    if let (first, firstSource) = directiveNames[name.value] {
                        report(
                            "There can be only one directive named \"@\(name.value)\".",
                            [(first.location, firstSource), (name.location, source)]
                        )
                    } else {
                        directiveNames[name.value] = (name, source)
                        directiveDefinitions.append((node, source))
                    }
                case .operation, .fragment:
                    continue
                }
            }
        }
    }

    // MARK: - Building

    mutating func build() throws(SchemaBuildError) -> GraphQLSchema {
        let (allTypes, directives) = try buildTypesAndDirectives()
        // As graphql-js: without a schema definition, types named Query,
        // Mutation and Subscription are the roots, over any an extension names.
        func root(_ operation: OperationType, _ defaultName: String) -> GraphQLNamedType? {
            if schemaDefinition == nil, let type = types[defaultName] { return type }
            return explicitRootTypes?[operation].flatMap { types[$0] }
        }
        if !errors.isEmpty { throw SchemaBuildError(errors: errors) }
        return GraphQLSchema(
            description: schemaDefinition?.0.description?.value,
            queryType: root(.query, "Query"),
            mutationType: root(.mutation, "Mutation"),
            subscriptionType: root(.subscription, "Subscription"),
            types: allTypes,
            directives: directives,
            definition: schemaDefinition?.0,
            extensions: schemaExtensions.map(\.0),
            definitionSource: schemaDefinition?.1,
            extensionSources: schemaExtensions.map(\.1)
        )
    }

    /// The named types (in definition order) and the directives: the defined
    /// ones first, then each built-in one the SDL did not redefine.
    mutating func buildTypesAndDirectives() throws(SchemaBuildError) -> ([GraphQLNamedType], [GraphQLDirective]) {
        createNamedTypes()
        checkExtensionTargets()
        for (definition, source) in typeDefinitions {
            guard let type = types[definition.name.value], type.definition == nil || builtins == nil else { continue }
            fill(type, from: definition, source: source)
        }
        let defined = directiveDefinitions.map { buildDirective($0.0, $0.1) }
        var directives = defined
        for builtin in builtins?.directives ?? [] where !directives.contains(where: { $0.name == builtin.name }) {
            directives.append(builtin)
        }
        // Only this SDL's own: the built-in directives are shared by every
        // schema, sealed, and read meanwhile by other threads.
        coerceDefaultValues(in: definedTypes, directives: defined)
        checkDirectiveUses(directives: directives)
        if builtins != nil { explicitRootTypes = rootOperationTypes() }
        if !errors.isEmpty { throw SchemaBuildError(errors: errors) }
        return (definedTypes, directives)
    }

    private mutating func createNamedTypes() {
        for (definition, _) in typeDefinitions {
            let name = definition.name.value
            if let builtin = builtins?.type(named: name), builtin.kind == .scalar || name.hasPrefix("__") {
                // graphql-js keeps its own String, __Type, ... when the SDL restates them.
                types[name] = builtin
                definedTypes.append(builtin)
                continue
            }
            let kind: TypeKind =
                switch definition {
                case .scalar: .scalar
                case .object: .object
                case .interface: .interface
                case .union: .union
                case .enum: .enum
                case .inputObject: .inputObject
                }
            let type = GraphQLNamedType(name: name, kind: kind)
            types[name] = type
            definedTypes.append(type)
        }
    }

    /// PossibleTypeExtensions: an extension needs a type defined in the SDL, of its own kind.
    private mutating func checkExtensionTargets() {
        let definitions = Dictionary(typeDefinitions.map { ($0.0.name.value, $0) }, uniquingKeysWith: { first, _ in first })
        let extensions = typeExtensions.values.flatMap { $0 }.sorted { $0.0.location.start < $1.0.location.start }
        for (node, source) in extensions {
            let name = node.name.value
            guard let (definition, definitionSource) = definitions[name] else {
                let suggestions = Suggestions.list(for: name, from: typeDefinitions.map(\.0.name.value))
                report(
                    "Cannot extend type \"\(name)\" because it is not defined." + Suggestions.didYouMean(suggestions),
                    [node.name.location], source
                )
                continue
            }
            let definedKind = types[name]?.kind
            if definedKind != extensionKind(node) {
                let kindName =
                    switch node {
                    case .scalar: "scalar"
                    case .object: "object"
                    case .interface: "interface"
                    case .union: "union"
                    case .enum: "enum"
                    case .inputObject: "input object"
                    }
                report(
                    "Cannot extend non-\(kindName) type \"\(name)\".",
                    [(definition.location, definitionSource), (node.location, source)]
                )
            }
        }
    }

    private let introspectionTypeNames = [
        "__Schema", "__Directive", "__DirectiveLocation", "__Type", "__Field", "__InputValue", "__EnumValue", "__TypeKind",
    ]

    private func allTypeNames() -> [String] {
        var names = typeDefinitions.map(\.0.name.value)
        for name in ["String", "Int", "Float", "Boolean", "ID"] where !names.contains(name) { names.append(name) }
        return names
    }

    private mutating func fill(_ type: GraphQLNamedType, from definition: TypeDefinition, source: Source) {
        type.definition = definition
        type.definitionSource = source
        let extensions = (typeExtensions[type.name] ?? []).filter { extensionKind($0.0) == type.kind }
        type.extensions = extensions.map(\.0)
        type.extensionSources = extensions.map(\.1)
        type.description = definition.descriptionValue
        // The definition's parts, then each extension's, each with its source.
        let parts: [(any TypeSystemParts, Source)] = [(definition, source)] + extensions.map { ($0.0, $0.1) }
        func merged<Part>(_ part: (any TypeSystemParts) -> [Part]) -> [(Part, Source)] {
            parts.flatMap { node, partSource in part(node).map { ($0, partSource) } }
        }
        switch type.kind {
        case .scalar:
            type.specifiedByURL = stringArgument("specifiedBy", "url", in: parts.flatMap { $0.0.directives })
        case .object, .interface:
            type.fields = buildFields(merged { $0.fieldDefinitions }, of: type)
            type.interfaces = merged { $0.interfaces }.compactMap { resolveNamed($0.0, $0.1) }
        case .union:
            type.unionMembers = merged { $0.unionMembers }.compactMap { resolveNamed($0.0, $0.1) }
        case .enum:
            var seen: [String: (EnumValueDefinition, Source)] = [:]
            for (value, valueSource) in merged({ $0.enumValues }) {
                if let (first, firstSource) = seen[value.name.value] {
                    report(
                        "Enum value \"\(type.name).\(value.name.value)\" can only be defined once.",
                        [(first.name.location, firstSource), (value.name.location, valueSource)]
                    )
                    continue
                }
                seen[value.name.value] = (value, valueSource)
                type.enumValues.append(
                    GraphQLEnumValue(
                        name: value.name.value, description: value.description?.value,
                        deprecationReason: deprecationReason(value.directives), definition: value, source: valueSource
                    ))
            }
        case .inputObject:
            type.inputFields = buildInputValues(merged { $0.inputFields }, owner: { "\(type.name).\($0)" }, isField: true)
            type.isOneOf = parts.contains { $0.0.directives.contains { $0.name.value == "oneOf" } }
        }
    }

    private func extensionKind(_ node: TypeExtension) -> TypeKind {
        switch node {
        case .scalar: .scalar
        case .object: .object
        case .interface: .interface
        case .union: .union
        case .enum: .enum
        case .inputObject: .inputObject
        }
    }

    private mutating func buildFields(_ nodes: [(FieldDefinition, Source)], of type: GraphQLNamedType) -> [GraphQLField] {
        var fields: [GraphQLField] = []
        var seen: [String: (FieldDefinition, Source)] = [:]
        for (node, source) in nodes {
            if let (first, firstSource) = seen[node.name.value] {
                report(
                    "Field \"\(type.name).\(node.name.value)\" can only be defined once.",
                    [(first.name.location, firstSource), (node.name.location, source)]
                )
                continue
            }
            seen[node.name.value] = (node, source)
            guard let fieldType = resolve(node.type, source) else { continue }
            let arguments = buildInputValues(
                node.arguments.map { ($0, source) }, owner: { "\(type.name).\(node.name.value)(\($0):)" }, isField: false
            )
            fields.append(
                GraphQLField(
                    name: node.name.value, description: node.description?.value, type: fieldType,
                    arguments: arguments, deprecationReason: deprecationReason(node.directives), definition: node, source: source
                ))
        }
        return fields
    }

    /// Arguments or input fields; `owner` names one in duplicate-name messages.
    private mutating func buildInputValues(
        _ nodes: [(InputValueDefinition, Source)], owner: (String) -> String, isField: Bool
    ) -> [GraphQLInputValue] {
        var values: [GraphQLInputValue] = []
        var seen: [String: (InputValueDefinition, Source)] = [:]
        for (node, source) in nodes {
            if let (first, firstSource) = seen[node.name.value] {
                let message =
                    isField
                    ? "Field \"\(owner(node.name.value))\" can only be defined once."
                    : "Argument \"\(owner(node.name.value))\" can only be defined once."
                report(message, [(first.name.location, firstSource), (node.name.location, source)])
                continue
            }
            seen[node.name.value] = (node, source)
            guard let valueType = resolve(node.type, source) else { continue }
            values.append(
                GraphQLInputValue(
                    name: node.name.value, description: node.description?.value, type: valueType,
                    defaultValue: nil, deprecationReason: deprecationReason(node.directives), definition: node, source: source
                ))
        }
        return values
    }

    private mutating func buildDirective(_ node: DirectiveDefinition, _ source: Source) -> GraphQLDirective {
        GraphQLDirective(
            name: node.name.value,
            description: node.description?.value,
            locations: node.locations.compactMap { DirectiveLocation(rawValue: $0.value) },
            arguments: buildInputValues(node.arguments.map { ($0, source) }, owner: { "@\(node.name.value)(\($0):)" }, isField: false),
            isRepeatable: node.isRepeatable,
            definition: node,
            source: source
        )
    }

    /// Default values are coerced once every input type is complete, input
    /// objects first (a field's type before the field), since an input
    /// object's default may take in the defaults of its fields.
    private func coerceDefaultValues(in types: [GraphQLNamedType], directives: [GraphQLDirective]) {
        func coerce(_ value: GraphQLInputValue) {
            guard let literal = value.definition?.defaultValue else { return }
            value.defaultValue = valueFromAST(literal, value.type)
        }
        var done: Set<GraphQLNamedType> = []
        func coerceInputObject(_ type: GraphQLNamedType) {
            guard type.kind == .inputObject, done.insert(type).inserted else { return }
            for field in type.inputFields { coerceInputObject(field.type.namedType) }
            for field in type.inputFields { coerce(field) }
        }
        for type in types { coerceInputObject(type) }
        for type in types where type.kind == .object || type.kind == .interface {
            for field in type.fields { field.arguments.forEach(coerce) }
        }
        for directive in directives {
            directive.arguments.forEach(coerce)
        }
    }

    // MARK: - Directive uses in the SDL

    /// KnownDirectives, UniqueDirectivesPerLocation, KnownArgumentNamesOnDirectives,
    /// ProvidedRequiredArgumentsOnDirectives and UniqueArgumentNames, for the
    /// directives applied to type-system definitions.
    private mutating func checkDirectiveUses(directives: [GraphQLDirective]) {
        guard builtins != nil else { return }
        let byName = Dictionary(directives.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        func check(_ uses: [Directive], _ location: DirectiveLocation, _ source: Source) {
            var seen: [String: Directive] = [:]
            for use in uses {
                let name = use.name.value
                guard let directive = byName[name] else {
                    report("Unknown directive \"@\(name)\".", [use.location], source)
                    continue
                }
                if !directive.locations.contains(location) {
                    report("Directive \"@\(name)\" may not be used on \(location.rawValue).", [use.location], source)
                }
                if !directive.isRepeatable {
                    if let first = seen[name] {
                        report(
                            "The directive \"@\(name)\" can only be used once at this location.",
                            [first.location, use.location], source
                        )
                    } else {
                        seen[name] = use
                    }
                }
                var argumentNames: [String: Argument] = [:]
                for argument in use.arguments {
                    if let first = argumentNames[argument.name.value] {
                        report(
                            "There can be only one argument named \"\(argument.name.value)\".",
                            [first.name.location, argument.name.location], source
                        )
                    } else {
                        argumentNames[argument.name.value] = argument
                    }
                    if directive.argument(named: argument.name.value) == nil {
                        let suggestions = Suggestions.list(for: argument.name.value, from: directive.arguments.map(\.name))
                        report(
                            "Unknown argument \"\(argument.name.value)\" on directive \"@\(name)\"."
                                + Suggestions.didYouMean(suggestions),
                            [argument.location], source
                        )
                    }
                }
                for required in directive.arguments where required.type.isNonNull && required.definition?.defaultValue == nil {
                    if argumentNames[required.name] == nil {
                        report(
                            "Directive \"@\(name)\" argument \"\(required.name)\" of type \"\(required.type)\" is required, but it was not provided.",
                            [use.location], source
                        )
                    }
                }
            }
        }
        if let (node, source) = schemaDefinition { check(node.directives, .schema, source) }
        for (node, source) in schemaExtensions { check(node.directives, .schema, source) }
        func checkFields(_ fields: [FieldDefinition], _ source: Source) {
            for field in fields {
                check(field.directives, .fieldDefinition, source)
                for argument in field.arguments { check(argument.directives, .argumentDefinition, source) }
            }
        }
        for (definition, source) in typeDefinitions {
            switch definition {
            case .scalar(let node): check(node.directives, .scalar, source)
            case .object(let node):
                check(node.directives, .object, source)
                checkFields(node.fields, source)
            case .interface(let node):
                check(node.directives, .interface, source)
                checkFields(node.fields, source)
            case .union(let node): check(node.directives, .union, source)
            case .enum(let node):
                check(node.directives, .enum, source)
                for value in node.values { check(value.directives, .enumValue, source) }
            case .inputObject(let node):
                check(node.directives, .inputObject, source)
                for field in node.fields { check(field.directives, .inputFieldDefinition, source) }
            }
        }
        for (_, extensions) in typeExtensions.sorted(by: { $0.key < $1.key }) {
            for (node, source) in extensions {
                switch node {
                case .scalar(let e): check(e.directives, .scalar, source)
                case .object(let e):
                    check(e.directives, .object, source)
                    checkFields(e.fields, source)
                case .interface(let e):
                    check(e.directives, .interface, source)
                    checkFields(e.fields, source)
                case .union(let e): check(e.directives, .union, source)
                case .enum(let e):
                    check(e.directives, .enum, source)
                    for value in e.values { check(value.directives, .enumValue, source) }
                case .inputObject(let e):
                    check(e.directives, .inputObject, source)
                    for field in e.fields { check(field.directives, .inputFieldDefinition, source) }
                }
            }
        }
        for (node, source) in directiveDefinitions {
            for argument in node.arguments { check(argument.directives, .argumentDefinition, source) }
        }
    }

    // MARK: - Root operation types

    /// The root types the schema definition names, or nil when there is no
    /// definition and the defaults (Query, Mutation, Subscription) apply.
    private var explicitRootTypes: [OperationType: String]?

    private mutating func rootOperationTypes() -> [OperationType: String]? {
        let nodes =
            allSchemaDefinitions.map { ($0.0.operationTypes, $0.1) }
            + schemaExtensions.map { ($0.0.operationTypes, $0.1) }
        guard schemaDefinition != nil || nodes.contains(where: { !$0.0.isEmpty }) else { return nil }
        var explicit: [OperationType: String] = [:]
        var seen: [OperationType: (OperationTypeDefinition, Source)] = [:]
        for (operationTypes, source) in nodes {
            for operationType in operationTypes {
                if let (first, firstSource) = seen[operationType.operation] {
                    report(
                        "There can be only one \(operationType.operation.rawValue) type in schema.",
                        [(first.location, firstSource), (operationType.location, source)]
                    )
                    continue
                }
                seen[operationType.operation] = (operationType, source)
                if resolveNamed(operationType.type, source) != nil {
                    explicit[operationType.operation] = operationType.type.name.value
                }
            }
        }
        return explicit
    }

    // MARK: - Type references

    private mutating func resolve(_ reference: TypeReference, _ source: Source) -> GraphQLType? {
        switch reference {
        case .named(let named): resolveNamed(named, source).map(GraphQLType.named)
        case .list(let list): resolve(list.type, source).map(GraphQLType.list)
        case .nonNull(let nonNull): resolve(nonNull.type, source).map(GraphQLType.nonNull)
        }
    }

    /// KnownTypeNames: a defined type, or a built-in scalar.
    private mutating func resolveNamed(_ named: NamedType, _ source: Source) -> GraphQLNamedType? {
        let name = named.name.value
        if let type = types[name] { return type }
        if let builtin = builtins?.type(named: name) { return builtin }
        let suggestions = Suggestions.list(for: name, from: allTypeNames() + introspectionTypeNames)
        report("Unknown type \"\(name)\"." + Suggestions.didYouMean(suggestions), [named.location], source)
        return nil
    }

    // MARK: - Directive arguments

    /// The `reason` of a `@deprecated`, its default when absent, nil when not deprecated.
    private func deprecationReason(_ directives: [Directive]) -> String? {
        guard let deprecated = directives.first(where: { $0.name.value == "deprecated" }) else { return nil }
        guard let reason = deprecated.arguments.first(where: { $0.name.value == "reason" }) else {
            return "No longer supported"
        }
        if case .string(let string) = reason.value { return string.value }
        return nil
    }

    private func stringArgument(_ directive: String, _ argument: String, in directives: [Directive]) -> String? {
        guard let use = directives.first(where: { $0.name.value == directive }),
            let value = use.arguments.first(where: { $0.name.value == argument })?.value,
            case .string(let string) = value
        else { return nil }
        return string.value
    }

    // MARK: - Errors

    private mutating func report(_ message: String, _ locations: [Location], _ source: Source) {
        report(message, locations.map { ($0, source) })
    }

    private mutating func report(_ message: String, _ locations: [(Location, Source)]) {
        var error = GraphQLError(message: message, locations: locations.map { $0.1.location(at: $0.0.start) })
        error.sourceName = locations.first?.1.name
        errors.append(error)
    }
}
