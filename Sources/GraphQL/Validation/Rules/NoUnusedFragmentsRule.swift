/// Fragments Must Be Used (spec §5.5.1.4).
final class NoUnusedFragmentsRule: ValidationRule {
    override class var hooks: ValidationHooks { [.document, .operationDefinition, .fragmentDefinition] }

    private var operations: [OperationDefinition] = []
    private var fragments: [FragmentDefinition] = []

    override func enterOperationDefinition(_ node: OperationDefinition) -> VisitAction {
        operations.append(node)
        return .skip
    }

    override func enterFragmentDefinition(_ node: FragmentDefinition) -> VisitAction {
        fragments.append(node)
        return .skip
    }

    override func leaveDocument(_ node: Document) {
        var used = NameSet()
        for operation in operations {
            for fragment in context.recursivelyReferencedFragments(operation) { used.insert(fragment.name.value) }
        }
        for fragment in fragments where !used.contains(fragment.name.value) {
            context.report("Fragment \"\(fragment.name.value)\" is never used.", fragment.location)
        }
    }
}
