/// Operation Name Uniqueness (spec §5.2.1.1).
final class UniqueOperationNamesRule: ValidationRule {
    override class var hooks: ValidationHooks { [.operationDefinition, .fragmentDefinition] }

    private var known: [String: Name] = [:]

    override func enterOperationDefinition(_ node: OperationDefinition) -> VisitAction {
        if let name = node.name {
            if let first = known[name.value] {
                context.report("There can be only one operation named \"\(name.value)\".", [first.location, name.location])
            } else {
                known[name.value] = name
            }
        }
        return .skip
    }

    override func enterFragmentDefinition(_ node: FragmentDefinition) -> VisitAction { .skip }
}
