/// Input Object Field Uniqueness (spec §5.6.3).
final class UniqueInputFieldNamesRule: ValidationRule {
    override class var hooks: ValidationHooks { [.objectValue, .objectField] }

    private var knownStack: [[String: Name]] = []
    private var known: [String: Name] = [:]

    override func enterObjectValue(_ node: ObjectValue) -> VisitAction {
        knownStack.append(known)
        known = [:]
        return .continue
    }

    override func leaveObjectValue(_ node: ObjectValue) {
        known = knownStack.removeLast()
    }

    override func enterObjectField(_ node: ObjectField) -> VisitAction {
        let name = node.name.value
        if let first = known[name] {
            context.report("There can be only one input field named \"\(name)\".", [first.location, node.name.location])
        } else {
            known[name] = node.name
        }
        return .continue
    }
}
