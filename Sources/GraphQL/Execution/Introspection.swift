/// The resolvers of the introspection system (spec §4.2): `__schema`,
/// `__type(name:)` and the fields of `__Schema`, `__Type`, `__Field`,
/// `__InputValue`, `__EnumValue` and `__Directive`, read off the schema.
///
/// Their values are not `Resolved`: a `Resolved.object` boxes its parent as
/// an existential and a `Resolved.list` allocates an array per list, for
/// every type reference of a schema. The executor completes these values
/// itself (`Executor.completeIntrospected`), and a list here is the
/// schema's own array.
enum Introspection {
    /// An object of an introspection type: the parent of its fields.
    enum Introspected {
        case schema(GraphQLSchema)
        case namedType(GraphQLNamedType)
        /// A list or non-null type (a named one is `namedType`, so that
        /// introspecting one allocates no `GraphQLType`).
        case wrappingType(GraphQLType)
        case field(GraphQLField)
        case inputValue(GraphQLInputValue)
        case enumValue(GraphQLEnumValue)
        case directive(GraphQLDirective)
        case other

        init(_ type: GraphQLType) {
            if case .named(let named) = type {
                self = .namedType(named)
            } else {
                self = .wrappingType(type)
            }
        }

        /// The parent as a resolver would be given it.
        init(_ parent: Parent) {
            guard case .object(let object) = parent else {
                self = .other
                return
            }
            // The dynamic type compared by identity, then one cast that cannot
            // fail: asking `as?` each type in turn (a failed cast to an enum
            // also looks for bridging conformances) cost more than the fields.
            let dynamicType = ObjectIdentifier(Swift.type(of: object))
            switch dynamicType {
            case ObjectIdentifier(GraphQLType.self): self = Introspected(object as! GraphQLType)
            case ObjectIdentifier(GraphQLField.self): self = .field(object as! GraphQLField)
            case ObjectIdentifier(GraphQLInputValue.self): self = .inputValue(object as! GraphQLInputValue)
            case ObjectIdentifier(GraphQLEnumValue.self): self = .enumValue(object as! GraphQLEnumValue)
            case ObjectIdentifier(GraphQLDirective.self): self = .directive(object as! GraphQLDirective)
            case ObjectIdentifier(GraphQLSchema.self): self = .schema(object as! GraphQLSchema)
            default: self = .other
            }
        }

        /// The object as a resolver's parent, for `Value.resolved`.
        var parent: Parent {
            switch self {
            case .schema(let schema): .object(schema)
            case .namedType(let named): .object(GraphQLType.named(named))
            case .wrappingType(let type): .object(type)
            case .field(let field): .object(field)
            case .inputValue(let value): .object(value)
            case .enumValue(let value): .object(value)
            case .directive(let directive): .object(directive)
            case .other: .root
            }
        }
    }

    /// An introspection field's value.
    enum Value {
        case null
        case string(String)
        case boolean(Bool)
        /// The name of a value of `__TypeKind` or `__DirectiveLocation`.
        case enumValue(String)
        case object(Introspected)
        case list(Items)

        /// The value as a resolver would return it, for the executor's general
        /// path (a value whose field's type is not what introspection expects).
        var resolved: Resolved {
            switch self {
            case .null: return .null
            case .string(let text): return .value(.string(text))
            case .boolean(let boolean): return .value(.boolean(boolean))
            case .enumValue(let name): return .value(.enum(name))
            case .object(let introspected):
                guard case .object(let object) = introspected.parent else { return .null }
                return .object(object)
            case .list(let items):
                var resolved: [Resolved] = []
                _ = items.forEach {
                    resolved.append($0.resolved)
                    return true
                }
                return .list(resolved)
            }
        }
    }

    /// The items of an introspection list: the schema's own arrays, filtered
    /// while they are walked.
    enum Items {
        case types([GraphQLNamedType])
        case fields([GraphQLField], includeDeprecated: Bool)
        case inputValues([GraphQLInputValue], includeDeprecated: Bool)
        case enumValues([GraphQLEnumValue], includeDeprecated: Bool)
        case directives([GraphQLDirective])
        case locations([DirectiveLocation])

        /// Calls `body` with each item in order until it returns false;
        /// false when it did.
        @inline(__always)
        func forEach(_ body: (Value) -> Bool) -> Bool {
            switch self {
            case .types(let types):
                for type in types where !body(.object(.namedType(type))) { return false }
            case .fields(let fields, let includeDeprecated):
                for field in fields where includeDeprecated || field.deprecationReason == nil {
                    if !body(.object(.field(field))) { return false }
                }
            case .inputValues(let values, let includeDeprecated):
                for value in values where includeDeprecated || value.deprecationReason == nil {
                    if !body(.object(.inputValue(value))) { return false }
                }
            case .enumValues(let values, let includeDeprecated):
                for value in values where includeDeprecated || value.deprecationReason == nil {
                    if !body(.object(.enumValue(value))) { return false }
                }
            case .directives(let directives):
                for directive in directives where !body(.object(.directive(directive))) { return false }
            case .locations(let locations):
                for location in locations where !body(.enumValue(location.rawValue)) { return false }
            }
            return true
        }
    }

    /// The fields of the introspection types, by name: worked out once per
    /// planned field, so that resolving one is a switch over small integers
    /// rather than over strings.
    enum FieldName: String {
        /// The meta-fields of the query type (spec §4.2.1).
        case schemaMetaField = "__schema", typeMetaField = "__type"
        case kind, name, description, specifiedByURL, fields, interfaces, possibleTypes, enumValues, inputFields
        case isOneOf, ofType, args, type, isDeprecated, deprecationReason, defaultValue, isRepeatable, locations
        case types, queryType, mutationType, subscriptionType, directives
    }

    /// The arguments introspection fields take, read once per planned
    /// field from its coerced arguments.
    struct Arguments {
        /// `includeDeprecated` of `fields`, `args`, `enumValues` and `inputFields`.
        var includeDeprecated = false
        /// `name` of `__type`.
        var typeName: String?

        init(_ coerced: [String: GraphQLValue]) {
            includeDeprecated = coerced["includeDeprecated"] == .boolean(true)
            if case .string(let name)? = coerced["name"] { typeName = name }
        }

        init() {}
    }

    static func resolve(_ name: FieldName, _ parent: Introspected, _ arguments: Arguments, _ schema: GraphQLSchema) -> Value {
        let includeDeprecated = arguments.includeDeprecated
        switch name {
        case .schemaMetaField:
            return .object(.schema(schema))
        case .typeMetaField:
            guard let typeName = arguments.typeName, let type = schema.type(named: typeName) else { return .null }
            return .object(.namedType(type))
        default:
            break
        }
        switch parent {
        case .schema(let schema):
            return schemaField(name, schema)
        case .namedType(let named):
            return namedTypeField(name, named, includeDeprecated: includeDeprecated, schema: schema)
        case .wrappingType(let type):
            switch (name, type) {
            case (.kind, .nonNull): return .enumValue("NON_NULL")
            case (.kind, _): return .enumValue("LIST")
            case (.ofType, .list(let inner)), (.ofType, .nonNull(let inner)): return .object(Introspected(inner))
            default: return .null
            }
        case .field(let introspected):
            switch name {
            case .name: return .string(introspected.name)
            case .description: return string(introspected.description)
            case .args: return .list(.inputValues(introspected.arguments, includeDeprecated: includeDeprecated))
            case .type: return .object(Introspected(introspected.type))
            case .isDeprecated: return .boolean(introspected.deprecationReason != nil)
            case .deprecationReason: return string(introspected.deprecationReason)
            default: return .null
            }
        case .inputValue(let value):
            switch name {
            case .name: return .string(value.name)
            case .description: return string(value.description)
            case .type: return .object(Introspected(value.type))
            case .defaultValue:
                guard let defaultValue = value.defaultValue, let literal = astFromValue(defaultValue, value.type) else { return .null }
                return .string(Printer.print(literal))
            case .isDeprecated: return .boolean(value.deprecationReason != nil)
            case .deprecationReason: return string(value.deprecationReason)
            default: return .null
            }
        case .enumValue(let value):
            switch name {
            case .name: return .string(value.name)
            case .description: return string(value.description)
            case .isDeprecated: return .boolean(value.deprecationReason != nil)
            case .deprecationReason: return string(value.deprecationReason)
            default: return .null
            }
        case .directive(let directive):
            switch name {
            case .name: return .string(directive.name)
            case .description: return string(directive.description)
            case .isRepeatable: return .boolean(directive.isRepeatable)
            case .locations: return .list(.locations(directive.locations))
            case .args: return .list(.inputValues(directive.arguments, includeDeprecated: includeDeprecated))
            default: return .null
            }
        case .other:
            return .null
        }
    }

    private static func string(_ text: String?) -> Value {
        text.map { .string($0) } ?? .null
    }

    private static func schemaField(_ name: FieldName, _ schema: GraphQLSchema) -> Value {
        switch name {
        case .description: return string(schema.description)
        case .types: return .list(.types(schema.types))
        case .queryType: return schema.queryType.map { .object(.namedType($0)) } ?? .null
        case .mutationType: return schema.mutationType.map { .object(.namedType($0)) } ?? .null
        case .subscriptionType: return schema.subscriptionType.map { .object(.namedType($0)) } ?? .null
        case .directives: return .list(.directives(schema.directives))
        default: return .null
        }
    }

    private static func namedTypeField(
        _ name: FieldName, _ named: GraphQLNamedType, includeDeprecated: Bool, schema: GraphQLSchema
    ) -> Value {
        switch name {
        case .kind: return .enumValue(named.kind.rawValue)
        case .name: return .string(named.name)
        case .description: return string(named.description)
        case .specifiedByURL: return named.kind == .scalar ? string(named.specifiedByURL) : .null
        case .fields:
            guard named.kind == .object || named.kind == .interface else { return .null }
            return .list(.fields(named.fields, includeDeprecated: includeDeprecated))
        case .interfaces:
            guard named.kind == .object || named.kind == .interface else { return .null }
            return .list(.types(named.interfaces))
        case .possibleTypes:
            guard named.isAbstractType else { return .null }
            return .list(.types(schema.possibleTypes(of: named)))
        case .enumValues:
            guard named.kind == .enum else { return .null }
            return .list(.enumValues(named.enumValues, includeDeprecated: includeDeprecated))
        case .inputFields:
            guard named.kind == .inputObject else { return .null }
            return .list(.inputValues(named.inputFields, includeDeprecated: includeDeprecated))
        case .isOneOf:
            return named.kind == .inputObject ? .boolean(named.isOneOf) : .null
        default:
            return .null
        }
    }
}
