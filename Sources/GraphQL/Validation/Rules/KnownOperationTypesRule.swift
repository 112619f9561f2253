/// Operation Type Existence (September 2025 spec §5.2.1.2): the schema must
/// have a root type for the operation's kind.
final class KnownOperationTypesRule: ValidationRule {
    override class var hooks: ValidationHooks { [.operationDefinition, .fragmentDefinition] }

    override func enterOperationDefinition(_ node: OperationDefinition) -> VisitAction {
        if context.schema.rootType(for: node.operation) == nil {
            context.report("The \(node.operation.rawValue) operation is not supported by the schema.", node.location)
        }
        return .skip
    }

    override func enterFragmentDefinition(_ node: FragmentDefinition) -> VisitAction { .skip }
}
