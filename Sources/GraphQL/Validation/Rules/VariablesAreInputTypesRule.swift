/// Variables Are Input Types (spec §5.8.2).
final class VariablesAreInputTypesRule: ValidationRule {
    override class var hooks: ValidationHooks { [.variableDefinition] }

    override func enterVariableDefinition(_ node: VariableDefinition) -> VisitAction {
        if let type = typeFromAST(context.schema, node.type), !type.isInputType {
            context.report(
                "Variable \"$\(node.variable.name.value)\" cannot be non-input type \"\(Printer.print(node.type))\".",
                node.type.location
            )
        }
        return .continue
    }
}
