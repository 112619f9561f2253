/// All Variables Used (spec §5.8.4).
final class NoUnusedVariablesRule: ValidationRule {
    override class var hooks: ValidationHooks { [.operationDefinition, .variableDefinition] }

    private var definitions: [VariableDefinition] = []

    override func enterOperationDefinition(_ node: OperationDefinition) -> VisitAction {
        definitions = []
        return .continue
    }

    override func enterVariableDefinition(_ node: VariableDefinition) -> VisitAction {
        definitions.append(node)
        return .continue
    }

    override func leaveOperationDefinition(_ operation: OperationDefinition) {
        let used = NameSet(context.recursiveVariableUsages(operation).lazy.map(\.node.name.value))
        for definition in definitions where !used.contains(definition.variable.name.value) {
            let name = definition.variable.name.value
            context.report(
                operation.name.map { "Variable \"$\(name)\" is never used in operation \"\($0.value)\"." }
                    ?? "Variable \"$\(name)\" is never used.",
                definition.location
            )
        }
    }
}
