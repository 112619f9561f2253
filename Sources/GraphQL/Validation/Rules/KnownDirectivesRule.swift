/// Directives Are Defined and In Valid Locations (spec §5.7.1, §5.7.2).
final class KnownDirectivesRule: ValidationRule {
    override class var hooks: ValidationHooks { [.directive] }

    private lazy var locations: [String: [DirectiveLocation]] = {
        var map: [String: [DirectiveLocation]] = [:]
        for directive in context.schema.directives { map[directive.name] = directive.locations }
        for case .directive(let definition) in context.document.definitions {
            map[definition.name.value] = definition.locations.compactMap { DirectiveLocation(rawValue: $0.value) }
        }
        return map
    }()

    override func enterDirective(_ node: Directive, location: DirectiveLocation) -> VisitAction {
        let name = node.name.value
        guard let allowed = locations[name] else {
            context.report("Unknown directive \"@\(name)\".", node.location)
            return .continue
        }
        if !allowed.contains(location) {
            context.report("Directive \"@\(name)\" may not be used on \(location.rawValue).", node.location)
        }
        return .continue
    }
}
