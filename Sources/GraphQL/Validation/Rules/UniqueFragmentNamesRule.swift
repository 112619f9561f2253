/// Fragment Name Uniqueness (spec §5.5.1.1).
final class UniqueFragmentNamesRule: ValidationRule {
    override class var hooks: ValidationHooks { [.operationDefinition, .fragmentDefinition] }

    private var known: [String: Name] = [:]

    override func enterOperationDefinition(_ node: OperationDefinition) -> VisitAction { .skip }

    override func enterFragmentDefinition(_ node: FragmentDefinition) -> VisitAction {
        let name = node.name
        if let first = known[name.value] {
            context.report("There can be only one fragment named \"\(name.value)\".", [first.location, name.location])
        } else {
            known[name.value] = name
        }
        return .skip
    }
}
