/// All Variable Uses Defined (spec §5.8.3), through every fragment the operation uses.
final class NoUndefinedVariablesRule: ValidationRule {
    override class var hooks: ValidationHooks { [.operationDefinition, .variableDefinition] }

    private var defined = NameSet()

    override func enterOperationDefinition(_ node: OperationDefinition) -> VisitAction {
        defined.removeAll()
        return .continue
    }

    override func enterVariableDefinition(_ node: VariableDefinition) -> VisitAction {
        defined.insert(node.variable.name.value)
        return .continue
    }

    override func leaveOperationDefinition(_ operation: OperationDefinition) {
        for usage in context.recursiveVariableUsages(operation) where !defined.contains(usage.node.name.value) {
            let name = usage.node.name.value
            context.report(
                operation.name.map { "Variable \"$\(name)\" is not defined by operation \"\($0.value)\"." }
                    ?? "Variable \"$\(name)\" is not defined.",
                [usage.node.location, operation.location]
            )
        }
    }
}
