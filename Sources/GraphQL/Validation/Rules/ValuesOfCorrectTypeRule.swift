/// Values of Correct Type (spec §5.6.1): every literal fits the input type
/// expected where it stands, input objects have their required fields, and
/// a `@oneOf` input object gets exactly one non-null field.
final class ValuesOfCorrectTypeRule: ValidationRule {
    override class var hooks: ValidationHooks {
        [.operationDefinition, .variableDefinition, .listValue, .objectValue, .objectField, .nullValue, .scalarValue]
    }

    private var variableDefinitions: [String: VariableDefinition] = [:]

    override func enterOperationDefinition(_ node: OperationDefinition) -> VisitAction {
        // Room for every definition at once, rather than growing as they come.
        variableDefinitions = Dictionary(minimumCapacity: node.variableDefinitions.count)
        return .continue
    }

    override func enterVariableDefinition(_ node: VariableDefinition) -> VisitAction {
        variableDefinitions[node.variable.name.value] = node
        return .continue
    }

    override func enterListValue(_ node: ListValue) -> VisitAction {
        guard case .list = context.typeInfo.parentInputType?.nullableType else {
            checkLeafValue(.list(node))
            return .skip
        }
        return .continue
    }

    override func enterObjectValue(_ node: ObjectValue) -> VisitAction {
        guard let type = context.typeInfo.inputType?.namedType, type.kind == .inputObject else {
            checkLeafValue(.object(node))
            return .skip
        }
        // A few given fields are scanned for each required one; a set of their
        // names is made only for more, as hashing costs more than a few compares.
        let provided = node.fields.count > NameSet.scanLimit ? Set(node.fields.map(\.name.value)) : nil
        func isProvided(_ name: String) -> Bool {
            if let provided { return provided.contains(name) }
            return node.fields.contains { $0.name.value == name }
        }
        for field in type.inputFields where field.isRequired && !isProvided(field.name) {
            context.report(
                "Field \"\(type.name).\(field.name)\" of required type \"\(field.type)\" was not provided.", node.location
            )
        }
        if type.isOneOf { checkOneOf(node, type) }
        return .continue
    }

    private func checkOneOf(_ node: ObjectValue, _ type: GraphQLNamedType) {
        var keys: [String] = []
        for field in node.fields where !keys.contains(field.name.value) { keys.append(field.name.value) }
        guard keys.count == 1 else {
            context.report("OneOf Input Object \"\(type.name)\" must specify exactly one key.", node.location)
            return
        }
        let value = node.fields.last { $0.name.value == keys[0] }?.value
        if case .null = value {
            context.report("Field \"\(type.name).\(keys[0])\" must be non-null.", node.location)
            return
        }
        if case .variable(let variable) = value, let definition = variableDefinitions[variable.name.value],
            !definition.type.isNonNullReference
        {
            context.report(
                "Variable \"\(variable.name.value)\" must be non-nullable to be used for OneOf Input Object \"\(type.name)\".",
                node.location
            )
        }
    }

    override func enterObjectField(_ node: ObjectField) -> VisitAction {
        if context.typeInfo.inputType == nil, let parentType = context.typeInfo.parentInputType?.namedType,
            parentType.kind == .inputObject
        {
            let suggestions = Suggestions.list(for: node.name.value, from: parentType.inputFields.map(\.name))
            context.report(
                "Field \"\(node.name.value)\" is not defined by type \"\(parentType.name)\"." + Suggestions.didYouMean(suggestions),
                node.location
            )
        }
        return .continue
    }

    override func enterNullValue(_ node: NullValue) -> VisitAction {
        if let type = context.typeInfo.inputType, type.isNonNull {
            context.report("Expected value of type \"\(type)\", found null.", node.location)
        }
        return .continue
    }

    override func enterScalarValue(_ node: Value) -> VisitAction {
        checkLeafValue(node)
        return .continue
    }

    /// isValidValueNode: a literal where a scalar or enum is expected must parse as one.
    private func checkLeafValue(_ node: Value) {
        guard let locationType = context.typeInfo.inputType else { return }
        let type = locationType.namedType
        guard type.isLeafType else {
            context.report("Expected value of type \"\(locationType)\", found \(Printer.print(node)).", node.location)
            return
        }
        if let message = literalError(node, type) {
            context.report(message, node.location)
        }
    }

    /// The message a scalar's or enum's parseLiteral gives for a literal it
    /// rejects; the literal is printed only when there is an error to report.
    private func literalError(_ node: Value, _ type: GraphQLNamedType) -> String? {
        var printed: String { Printer.print(node) }
        if type.kind == .enum {
            var hint: String {
                Suggestions.didYouMean(Suggestions.list(for: printed, from: type.enumValues.map(\.name)), subject: "the enum value")
            }
            guard case .enum(let value) = node else {
                return "Enum \"\(type.name)\" cannot represent non-enum value: \(printed)." + hint
            }
            return type.enumValue(named: value.value) == nil ? "Value \"\(printed)\" does not exist in \"\(type.name)\" enum." + hint : nil
        }
        switch type.name {
        case "Int":
            guard case .int(let int) = node else { return "Int cannot represent non-integer value: \(printed)" }
            return Int32(int.value) == nil ? "Int cannot represent non 32-bit signed integer value: \(int.value)" : nil
        case "Float":
            switch node {
            case .int, .float: return nil
            default: return "Float cannot represent non numeric value: \(printed)"
            }
        case "String":
            if case .string = node { return nil }
            return "String cannot represent a non string value: \(printed)"
        case "Boolean":
            if case .boolean = node { return nil }
            return "Boolean cannot represent a non boolean value: \(printed)"
        case "ID":
            switch node {
            case .string, .int: return nil
            default: return "ID cannot represent a non-string and non-integer value: \(printed)"
            }
        default:
            // A custom scalar without a registered coercion takes any literal.
            guard let coercion = type.scalarCoercion else { return nil }
            if case .failure(let invalid) = coercion.literal(node, variables: nil) { return invalid.message }
            return nil
        }
    }
}

extension TypeReference {
    var isNonNullReference: Bool {
        if case .nonNull = self { return true }
        return false
    }
}
