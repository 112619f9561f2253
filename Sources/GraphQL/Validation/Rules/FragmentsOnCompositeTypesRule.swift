/// Fragments On Composite Types (spec §5.5.1.3).
final class FragmentsOnCompositeTypesRule: ValidationRule {
    override class var hooks: ValidationHooks { [.inlineFragment, .fragmentDefinition] }

    override func enterInlineFragment(_ node: InlineFragment) -> VisitAction {
        if let condition = node.typeCondition, let type = context.schema.type(named: condition.name.value),
            !type.isCompositeType
        {
            context.report("Fragment cannot condition on non composite type \"\(condition.name.value)\".", condition.location)
        }
        return .continue
    }

    override func enterFragmentDefinition(_ node: FragmentDefinition) -> VisitAction {
        let condition = node.typeCondition
        if let type = context.schema.type(named: condition.name.value), !type.isCompositeType {
            context.report(
                "Fragment \"\(node.name.value)\" cannot condition on non composite type \"\(condition.name.value)\".",
                condition.location
            )
        }
        return .continue
    }
}
