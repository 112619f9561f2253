/// Fragment Spread Target Defined (spec §5.5.2.1).
final class KnownFragmentNamesRule: ValidationRule {
    override class var hooks: ValidationHooks { [.fragmentSpread] }

    override func enterFragmentSpread(_ node: FragmentSpread) -> VisitAction {
        if context.fragment(named: node.name.value) == nil {
            context.report("Unknown fragment \"\(node.name.value)\".", node.name.location)
        }
        return .continue
    }
}
