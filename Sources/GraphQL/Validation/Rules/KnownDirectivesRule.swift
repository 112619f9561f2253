/// Directives Are Defined and In Valid Locations (spec §5.7.1, §5.7.2).
final class KnownDirectivesRule: ValidationRule {
    override class var hooks: ValidationHooks { [.directive] }

    override func enterDirective(_ node: Directive, location: DirectiveLocation) -> VisitAction {
        let name = node.name.value
        guard let allowed = context.directive(named: name)?.locations else {
            context.report("Unknown directive \"@\(name)\".", node.location)
            return .continue
        }
        if !allowed.contains(location) {
            context.report("Directive \"@\(name)\" may not be used on \(location.rawValue).", node.location)
        }
        return .continue
    }
}
