/// valueFromAST: a literal coerced to an input type (spec §3.6 "Input
/// Coercion" for literals), or nil when it does not fit. Variables take
/// their values from `variables`; a missing one counts as absent.
func valueFromAST(
    _ literal: Value, _ type: GraphQLType, variables: [String: GraphQLValue]? = nil
) -> GraphQLValue? {
    if case .variable(let variable) = literal {
        guard let value = variables?[variable.name.value] else { return nil }
        if value == .null && type.isNonNull { return nil }
        return value
    }
    switch type {
    case .nonNull(let inner):
        if case .null = literal { return nil }
        return valueFromAST(literal, inner, variables: variables)
    case .list(let itemType):
        if case .null = literal { return .null }
        guard case .list(let list) = literal else {
            // A single value where a list is expected becomes a list of one.
            return valueFromAST(literal, itemType, variables: variables).map { .list([$0]) }
        }
        var items: [GraphQLValue] = []
        items.reserveCapacity(list.values.count)
        for item in list.values {
            if isMissingVariable(item, variables) {
                if itemType.isNonNull { return nil }
                items.append(.null)
            } else {
                guard let value = valueFromAST(item, itemType, variables: variables) else { return nil }
                items.append(value)
            }
        }
        return .list(items)
    case .named(let named):
        if case .null = literal { return .null }
        switch named.kind {
        case .inputObject:
            guard case .object(let object) = literal else { return nil }
            var members: [GraphQLValue.Member] = []
            for field in named.inputFields {
                let fieldLiteral = object.fields.first { $0.name.value == field.name }?.value
                guard let fieldLiteral, !isMissingVariable(fieldLiteral, variables) else {
                    if let defaultValue = field.defaultValue {
                        members.append(.init(field.name, defaultValue))
                    } else if field.type.isNonNull {
                        return nil
                    }
                    continue
                }
                guard let value = valueFromAST(fieldLiteral, field.type, variables: variables) else { return nil }
                members.append(.init(field.name, value))
            }
            if named.isOneOf {
                guard members.count == 1, members[0].value != .null else { return nil }
            }
            return .object(members)
        case .enum:
            guard case .enum(let value) = literal, named.enumValue(named: value.value) != nil else { return nil }
            return .enum(value.value)
        case .scalar:
            return parseScalarLiteral(literal, named, variables: variables)
        case .object, .interface, .union:
            return nil
        }
    }
}

private func isMissingVariable(_ literal: Value, _ variables: [String: GraphQLValue]?) -> Bool {
    guard case .variable(let variable) = literal else { return false }
    return variables?[variable.name.value] == nil
}

/// The built-in scalars' parseLiteral, and custom scalars' registered one
/// (those without one take any literal as it is).
func parseScalarLiteral(
    _ literal: Value, _ scalar: GraphQLNamedType, variables: [String: GraphQLValue]? = nil
) -> GraphQLValue? {
    switch scalar.name {
    case "Int":
        guard case .int(let int) = literal, let value = Int32(int.value) else { return nil }
        return .int(Int(value))
    case "Float":
        switch literal {
        case .int(let int): return Double(int.value).map(GraphQLValue.float)
        case .float(let float): return Double(float.value).map(GraphQLValue.float)
        default: return nil
        }
    case "String":
        guard case .string(let string) = literal else { return nil }
        return .string(string.value)
    case "Boolean":
        guard case .boolean(let boolean) = literal else { return nil }
        return .boolean(boolean.value)
    case "ID":
        switch literal {
        case .string(let string): return .string(string.value)
        case .int(let int): return .string(int.value)
        default: return nil
        }
    default:
        guard let coercion = scalar.scalarCoercion else { return valueFromASTUntyped(literal, variables: variables) }
        return try? coercion.literal(literal, variables: variables).get()
    }
}

/// A literal as a plain value, with no type to guide it.
func valueFromASTUntyped(_ literal: Value, variables: [String: GraphQLValue]? = nil) -> GraphQLValue? {
    switch literal {
    case .null: return .null
    case .int(let int): return Int(int.value).map(GraphQLValue.int) ?? Double(int.value).map(GraphQLValue.float)
    case .float(let float): return Double(float.value).map(GraphQLValue.float)
    case .string(let string): return .string(string.value)
    case .enum(let value): return .string(value.value)
    case .boolean(let boolean): return .boolean(boolean.value)
    case .list(let list):
        var items: [GraphQLValue] = []
        for item in list.values {
            guard let value = valueFromASTUntyped(item, variables: variables) else { return nil }
            items.append(value)
        }
        return .list(items)
    case .object(let object):
        var members: [GraphQLValue.Member] = []
        for field in object.fields {
            guard let value = valueFromASTUntyped(field.value, variables: variables) else { return nil }
            members.append(.init(field.name.value, value))
        }
        return .object(members)
    case .variable(let variable):
        return variables?[variable.name.value]
    }
}
