/// Directives Are Unique Per Location (spec §5.7.3), unless repeatable.
final class UniqueDirectivesPerLocationRule: ValidationRule {
    override class var hooks: ValidationHooks {
        [.operationDefinition, .variableDefinition, .field, .fragmentSpread, .inlineFragment, .fragmentDefinition]
    }

    private func check(_ directives: [Directive]) {
        guard directives.count > 1 else { return }
        var seen: [String: Directive] = [:]
        for directive in directives where context.directive(named: directive.name.value)?.isRepeatable == false {
            let name = directive.name.value
            if let first = seen[name] {
                context.report("The directive \"@\(name)\" can only be used once at this location.", [first.location, directive.location])
            } else {
                seen[name] = directive
            }
        }
    }

    override func enterOperationDefinition(_ node: OperationDefinition) -> VisitAction {
        check(node.directives)
        return .continue
    }
    override func enterVariableDefinition(_ node: VariableDefinition) -> VisitAction {
        check(node.directives)
        return .continue
    }
    override func enterField(_ node: Field) -> VisitAction {
        check(node.directives)
        return .continue
    }
    override func enterFragmentSpread(_ node: FragmentSpread) -> VisitAction {
        check(node.directives)
        return .continue
    }
    override func enterInlineFragment(_ node: InlineFragment) -> VisitAction {
        check(node.directives)
        return .continue
    }
    override func enterFragmentDefinition(_ node: FragmentDefinition) -> VisitAction {
        check(node.directives)
        return .continue
    }
}
