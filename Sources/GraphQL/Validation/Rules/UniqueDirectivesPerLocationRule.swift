/// Directives Are Unique Per Location (spec §5.7.3), unless repeatable.
final class UniqueDirectivesPerLocationRule: ValidationRule {
    override class var hooks: ValidationHooks { [.operationDefinition, .variableDefinition, .field, .fragmentSpread, .inlineFragment, .fragmentDefinition] }

    private lazy var isUnique: [String: Bool] = {
        var map: [String: Bool] = [:]
        for directive in context.schema.directives { map[directive.name] = !directive.isRepeatable }
        for case .directive(let definition) in context.document.definitions {
            map[definition.name.value] = !definition.isRepeatable
        }
        return map
    }()

    private func check(_ directives: [Directive]) {
        var seen: [String: Directive] = [:]
        for directive in directives where isUnique[directive.name.value] == true {
            let name = directive.name.value
            if let first = seen[name] {
                context.report("The directive \"@\(name)\" can only be used once at this location.", [first.location, directive.location])
            } else {
                seen[name] = directive
            }
        }
    }

    override func enterOperationDefinition(_ node: OperationDefinition) -> VisitAction { check(node.directives); return .continue }
    override func enterVariableDefinition(_ node: VariableDefinition) -> VisitAction { check(node.directives); return .continue }
    override func enterField(_ node: Field) -> VisitAction { check(node.directives); return .continue }
    override func enterFragmentSpread(_ node: FragmentSpread) -> VisitAction { check(node.directives); return .continue }
    override func enterInlineFragment(_ node: InlineFragment) -> VisitAction { check(node.directives); return .continue }
    override func enterFragmentDefinition(_ node: FragmentDefinition) -> VisitAction { check(node.directives); return .continue }
}
