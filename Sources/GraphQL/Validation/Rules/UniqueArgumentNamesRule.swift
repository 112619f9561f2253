/// Argument Uniqueness (spec §5.4.2).
final class UniqueArgumentNamesRule: ValidationRule {
    override class var hooks: ValidationHooks { [.field, .directive] }

    private func check(_ arguments: [Argument]) {
        guard arguments.count > 1 else { return }
        for (name, nodes) in repeatedInOrder(arguments, by: { $0.name.value }) {
            context.report("There can be only one argument named \"\(name)\".", nodes.map(\.name.location))
        }
    }

    override func enterField(_ node: Field) -> VisitAction {
        check(node.arguments)
        return .continue
    }

    override func enterDirective(_ node: Directive, location: DirectiveLocation) -> VisitAction {
        check(node.arguments)
        return .continue
    }
}
