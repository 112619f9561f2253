/// Argument Names (spec §5.4.1): arguments must be defined by the field or directive.
final class KnownArgumentNamesRule: ValidationRule {
    override class var hooks: ValidationHooks { [.directive, .argument] }

    override func enterDirective(_ node: Directive, location: DirectiveLocation) -> VisitAction {
        let name = node.name.value
        if !node.arguments.isEmpty, let known = context.directive(named: name)?.argumentNames {
            for argument in node.arguments where !known.contains(argument.name.value) {
                let suggestions = Suggestions.list(for: argument.name.value, from: known)
                context.report(
                    "Unknown argument \"\(argument.name.value)\" on directive \"@\(name)\"." + Suggestions.didYouMean(suggestions),
                    argument.location
                )
            }
        }
        return .skip
    }

    override func enterArgument(_ node: Argument) -> VisitAction {
        let typeInfo = context.typeInfo
        guard typeInfo.argument == nil, let field = typeInfo.fieldDefinition, let parentType = typeInfo.parentType else {
            return .continue
        }
        let suggestions = Suggestions.list(for: node.name.value, from: field.arguments.map(\.name))
        context.report(
            "Unknown argument \"\(node.name.value)\" on field \"\(parentType.name).\(field.name)\"." + Suggestions.didYouMean(suggestions),
            node.location
        )
        return .continue
    }
}
