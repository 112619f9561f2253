/// The resolvers of the introspection system (spec §4.2): `__schema`,
/// `__type(name:)` and the fields of `__Schema`, `__Type`, `__Field`,
/// `__InputValue`, `__EnumValue` and `__Directive`, read off the schema.
enum Introspection {
    /// The parent of an introspection field, told apart once per object:
    /// asking an existential `as?` each type in turn, for every field, was
    /// most of the cost of introspecting a large schema (a failed cast to an
    /// enum also looks for bridging conformances).
    enum Introspected {
        case schema(GraphQLSchema)
        case type(GraphQLType)
        case field(GraphQLField)
        case inputValue(GraphQLInputValue)
        case enumValue(GraphQLEnumValue)
        case directive(GraphQLDirective)
        case other

        init(_ parent: Parent) {
            guard case .object(let object) = parent else {
                self = .other
                return
            }
            // The dynamic type compared by identity, then one cast that cannot fail.
            let dynamicType = ObjectIdentifier(Swift.type(of: object))
            switch dynamicType {
            case ObjectIdentifier(GraphQLType.self): self = .type(object as! GraphQLType)
            case ObjectIdentifier(GraphQLField.self): self = .field(object as! GraphQLField)
            case ObjectIdentifier(GraphQLInputValue.self): self = .inputValue(object as! GraphQLInputValue)
            case ObjectIdentifier(GraphQLEnumValue.self): self = .enumValue(object as! GraphQLEnumValue)
            case ObjectIdentifier(GraphQLDirective.self): self = .directive(object as! GraphQLDirective)
            case ObjectIdentifier(GraphQLSchema.self): self = .schema(object as! GraphQLSchema)
            default: self = .other
            }
        }
    }

    /// The fields of the introspection types, by name: worked out once per
    /// planned field, so that resolving one is a switch over small integers
    /// rather than over strings.
    enum FieldName: String {
        case kind, name, description, specifiedByURL, fields, interfaces, possibleTypes, enumValues, inputFields
        case isOneOf, ofType, args, type, isDeprecated, deprecationReason, defaultValue, isRepeatable, locations
        case types, queryType, mutationType, subscriptionType, directives
    }

    static func resolve(
        _ field: GraphQLField, _ fieldName: FieldName?, _ parent: Introspected, _ arguments: [String: GraphQLValue],
        _ schema: GraphQLSchema
    ) throws -> Resolved {
        if field === MetaFields.schema { return .object(schema) }
        if field === MetaFields.type {
            guard case .string(let name)? = arguments["name"], let type = schema.type(named: name) else { return .null }
            return .object(GraphQLType.named(type))
        }
        guard let name = fieldName else { return .null }
        let includeDeprecated = !arguments.isEmpty && arguments["includeDeprecated"] == .boolean(true)
        switch parent {
        case .schema(let schema):
            return schemaField(name, schema)
        case .type(let type):
            return typeField(name, type, includeDeprecated: includeDeprecated, schema: schema)
        case .field(let introspected):
            switch name {
            case .name: return .value(.string(introspected.name))
            case .description: return string(introspected.description)
            case .args:
                return .list(introspected.arguments.filter { includeDeprecated || $0.deprecationReason == nil }.map { .object($0) })
            case .type: return .object(introspected.type)
            case .isDeprecated: return .value(.boolean(introspected.deprecationReason != nil))
            case .deprecationReason: return string(introspected.deprecationReason)
            default: return .null
            }
        case .inputValue(let value):
            switch name {
            case .name: return .value(.string(value.name))
            case .description: return string(value.description)
            case .type: return .object(value.type)
            case .defaultValue:
                guard let defaultValue = value.defaultValue, let literal = astFromValue(defaultValue, value.type) else { return .null }
                return .value(.string(Printer.print(literal)))
            case .isDeprecated: return .value(.boolean(value.deprecationReason != nil))
            case .deprecationReason: return string(value.deprecationReason)
            default: return .null
            }
        case .enumValue(let value):
            switch name {
            case .name: return .value(.string(value.name))
            case .description: return string(value.description)
            case .isDeprecated: return .value(.boolean(value.deprecationReason != nil))
            case .deprecationReason: return string(value.deprecationReason)
            default: return .null
            }
        case .directive(let directive):
            switch name {
            case .name: return .value(.string(directive.name))
            case .description: return string(directive.description)
            case .isRepeatable: return .value(.boolean(directive.isRepeatable))
            case .locations: return .list(directive.locations.map { .value(.enum($0.rawValue)) })
            case .args:
                return .list(directive.arguments.filter { includeDeprecated || $0.deprecationReason == nil }.map { .object($0) })
            default: return .null
            }
        case .other:
            return .null
        }
    }

    private static func string(_ text: String?) -> Resolved {
        text.map { .value(.string($0)) } ?? .null
    }

    private static func schemaField(_ name: FieldName, _ schema: GraphQLSchema) -> Resolved {
        switch name {
        case .description: return string(schema.description)
        case .types: return .list(schema.types.map { .object(GraphQLType.named($0)) })
        case .queryType: return schema.queryType.map { .object(GraphQLType.named($0)) } ?? .null
        case .mutationType: return schema.mutationType.map { .object(GraphQLType.named($0)) } ?? .null
        case .subscriptionType: return schema.subscriptionType.map { .object(GraphQLType.named($0)) } ?? .null
        case .directives: return .list(schema.directives.map { .object($0) })
        default: return .null
        }
    }

    private static func typeField(_ name: FieldName, _ type: GraphQLType, includeDeprecated: Bool, schema: GraphQLSchema) -> Resolved {
        switch type {
        case .list(let inner), .nonNull(let inner):
            switch name {
            case .kind: return .value(.enum(type.isNonNull ? "NON_NULL" : "LIST"))
            case .ofType: return .object(inner)
            default: return .null
            }
        case .named(let named):
            switch name {
            case .kind: return .value(.enum(named.kind.rawValue))
            case .name: return .value(.string(named.name))
            case .description: return string(named.description)
            case .specifiedByURL: return named.kind == .scalar ? string(named.specifiedByURL) : .null
            case .fields:
                guard named.kind == .object || named.kind == .interface else { return .null }
                return .list(named.fields.filter { includeDeprecated || $0.deprecationReason == nil }.map { .object($0) })
            case .interfaces:
                guard named.kind == .object || named.kind == .interface else { return .null }
                return .list(named.interfaces.map { .object(GraphQLType.named($0)) })
            case .possibleTypes:
                guard named.isAbstractType else { return .null }
                return .list(schema.possibleTypes(of: named).map { .object(GraphQLType.named($0)) })
            case .enumValues:
                guard named.kind == .enum else { return .null }
                return .list(named.enumValues.filter { includeDeprecated || $0.deprecationReason == nil }.map { .object($0) })
            case .inputFields:
                guard named.kind == .inputObject else { return .null }
                return .list(named.inputFields.filter { includeDeprecated || $0.deprecationReason == nil }.map { .object($0) })
            case .isOneOf:
                return named.kind == .inputObject ? .value(.boolean(named.isOneOf)) : .null
            default:
                return .null
            }
        }
    }

}
