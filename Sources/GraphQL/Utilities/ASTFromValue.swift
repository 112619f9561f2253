/// astFromValue: the literal that denotes a coerced value of a type, as
/// graphql-js produces it for printing default values and for introspection's
/// `defaultValue`. Nil when there is nothing to print.
func astFromValue(_ value: GraphQLValue, _ type: GraphQLType) -> Value? {
    let none = Location.none
    switch type {
    case .nonNull(let inner):
        guard let literal = astFromValue(value, inner) else { return nil }
        if case .null = literal { return nil }
        return literal
    case .list(let itemType):
        if case .null = value { return .null(NullValue(location: none)) }
        guard case .list(let items) = value else { return astFromValue(value, itemType) }
        return .list(ListValue(values: items.compactMap { astFromValue($0, itemType) }, location: none))
    case .named(let named):
        if case .null = value { return .null(NullValue(location: none)) }
        switch named.kind {
        case .inputObject:
            guard case .object = value else { return nil }
            var fields: [ObjectField] = []
            for field in named.inputFields {
                guard let fieldValue = value[field.name], let literal = astFromValue(fieldValue, field.type) else { continue }
                fields.append(ObjectField(name: Name(field.name), value: literal, location: none))
            }
            return .object(ObjectValue(fields: fields, location: none))
        case .enum:
            switch value {
            case .enum(let name), .string(let name): return .enum(EnumValue(value: name, location: none))
            default: return nil
            }
        case .scalar:
            return scalarLiteral(value, isID: named.name == "ID")
        case .object, .interface, .union:
            return nil
        }
    }
}

/// A serialised scalar as a literal: numbers as Int when they print as
/// integers, strings as String (or Int for integer-looking IDs).
private func scalarLiteral(_ value: GraphQLValue, isID: Bool) -> Value? {
    let none = Location.none
    switch value {
    case .null:
        return .null(NullValue(location: none))
    case .boolean(let boolean):
        return .boolean(BooleanValue(value: boolean, location: none))
    case .int(let int):
        return .int(IntValue(value: String(int), location: none))
    case .float(let float):
        guard float.isFinite else { return nil }
        let text = JavaScriptNumber.format(float)
        return isIntegerString(text)
            ? .int(IntValue(value: text, location: none))
            : .float(FloatValue(value: text, location: none))
    case .string(let string), .enum(let string):
        if isID && isIntegerString(string) { return .int(IntValue(value: string, location: none)) }
        return .string(StringValue(value: string, location: none))
    case .list(let items):
        return .list(ListValue(values: items.compactMap { scalarLiteral($0, isID: false) }, location: none))
    case .object(let members):
        return .object(
            ObjectValue(
                fields: members.compactMap { member in
                    scalarLiteral(member.value, isID: false).map { ObjectField(name: Name(member.name), value: $0, location: none) }
                },
                location: none
            ))
    }
}

/// /^-?(?:0|[1-9][0-9]*)$/
private func isIntegerString(_ text: String) -> Bool {
    var bytes = text.utf8[...]
    if bytes.first == 0x2D { bytes = bytes.dropFirst() }
    guard let first = bytes.first, first >= 0x30, first <= 0x39 else { return false }
    if first == 0x30 { return bytes.count == 1 }
    return bytes.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
}
