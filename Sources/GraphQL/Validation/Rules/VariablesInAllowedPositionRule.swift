/// All Variable Usages Are Allowed (spec §5.8.5): a variable's type must fit
/// every position it is used in; a nullable variable may fill a non-null
/// position only where a default value stands in for null.
final class VariablesInAllowedPositionRule: ValidationRule {
    override class var hooks: ValidationHooks { [.operationDefinition, .variableDefinition] }

    private var definitions: [String: VariableDefinition] = [:]

    override func enterOperationDefinition(_ node: OperationDefinition) -> VisitAction {
        // Room for every definition at once, rather than growing as they come.
        definitions = Dictionary(minimumCapacity: node.variableDefinitions.count)
        return .continue
    }

    override func enterVariableDefinition(_ node: VariableDefinition) -> VisitAction {
        definitions[node.variable.name.value] = node
        return .continue
    }

    override func leaveOperationDefinition(_ operation: OperationDefinition) {
        for usage in context.recursiveVariableUsages(operation) {
            let name = usage.node.name.value
            guard let definition = definitions[name], let locationType = usage.type,
                let variableType = typeFromAST(context.schema, definition.type)
            else { continue }
            if !allowedVariableUsage(variableType, definition.defaultValue, locationType, usage.hasDefault) {
                context.report(
                    "Variable \"$\(name)\" of type \"\(variableType)\" used in position expecting type \"\(locationType)\".",
                    [definition.location, usage.node.location]
                )
            }
        }
    }

    private func allowedVariableUsage(
        _ variableType: GraphQLType, _ variableDefault: Value?, _ locationType: GraphQLType, _ locationHasDefault: Bool
    ) -> Bool {
        if case .nonNull(let nullableLocationType) = locationType, !variableType.isNonNull {
            var hasNonNullVariableDefault = false
            if let variableDefault {
                if case .null = variableDefault {} else { hasNonNullVariableDefault = true }
            }
            if !hasNonNullVariableDefault && !locationHasDefault { return false }
            return isTypeSubType(context.schema, variableType, of: nullableLocationType)
        }
        return isTypeSubType(context.schema, variableType, of: locationType)
    }
}

/// isTypeSubTypeOf: whether a value of the first type may be used where the second is expected.
func isTypeSubType(_ schema: GraphQLSchema, _ maybeSubType: GraphQLType, of superType: GraphQLType) -> Bool {
    if maybeSubType == superType { return true }
    switch (maybeSubType, superType) {
    case (.nonNull(let sub), .nonNull(let sup)): return isTypeSubType(schema, sub, of: sup)
    case (_, .nonNull): return false
    case (.nonNull(let sub), _): return isTypeSubType(schema, sub, of: superType)
    case (.list(let sub), .list(let sup)): return isTypeSubType(schema, sub, of: sup)
    case (_, .list), (.list, _): return false
    case (.named(let sub), .named(let sup)):
        return sup.isAbstractType && (sub.kind == .interface || sub.kind == .object) && schema.isSubType(sup, sub)
    }
}
