/// The validation rules of incremental delivery, as graphql-js 17 has
/// them. Each applies only where the schema defines `@defer` and
/// `@stream`; without them both are unknown directives, as in graphql-js 16.

/// Defer And Stream Directives Are Used On Valid Root Field: not on the
/// root fields of a mutation or subscription.
final class DeferStreamDirectiveOnRootFieldRule: ValidationRule {
    override class var hooks: ValidationHooks { [.directive] }

    override func enterDirective(_ node: Directive, location: DirectiveLocation) -> VisitAction {
        let name = node.name.value
        guard name == "defer" || name == "stream", context.schema.directive(named: name) != nil,
            let parentType = context.typeInfo.parentType
        else { return .continue }
        let directive = name == "defer" ? "Defer" : "Stream"
        if let mutationType = context.schema.mutationType, parentType === mutationType {
            context.report("\(directive) directive cannot be used on root mutation type \"\(parentType.name)\".", node.location)
        }
        if let subscriptionType = context.schema.subscriptionType, parentType === subscriptionType {
            context.report("\(directive) directive cannot be used on root subscription type \"\(parentType.name)\".", node.location)
        }
        return .continue
    }
}

/// Defer And Stream Directives Are Used On Valid Operations: in a
/// subscription only where they can be turned off (`if` a variable or false).
final class DeferStreamDirectiveOnValidOperationsRule: ValidationRule {
    override class var hooks: ValidationHooks { [.operationDefinition] }

    override func enterOperationDefinition(_ node: OperationDefinition) -> VisitAction {
        guard node.operation == .subscription, context.schema.directive(named: "defer") != nil else { return .skip }
        var fragments: [String: FragmentDefinition] = [:]
        for case .fragment(let fragment) in context.document.definitions { fragments[fragment.name.value] = fragment }
        var visited: Set<String> = []
        forbidUnconditional(node.selectionSet, parents: [], fragments: fragments, visited: &visited)
        return .skip
    }

    private func forbidUnconditional(
        _ selectionSet: SelectionSet, parents: [Location], fragments: [String: FragmentDefinition], visited: inout Set<String>
    ) {
        for selection in selectionSet.selections {
            let directives: [Directive]
            switch selection {
            case .field(let field): directives = field.directives
            case .fragmentSpread(let spread): directives = spread.directives
            case .inlineFragment(let inline): directives = inline.directives
            }
            if let skip = directives.first(where: { $0.name.value == "skip" }), Self.canSkip(skip, whenLiteral: true) { continue }
            if let include = directives.first(where: { $0.name.value == "include" }), Self.canSkip(include, whenLiteral: false) {
                continue
            }
            for directive in directives where !Self.ifCanBeFalse(directive) {
                switch directive.name.value {
                case "defer":
                    context.report(
                        "Defer directive not supported on subscription operations. Disable `@defer` by setting the `if` argument to `false`.",
                        [directive.location] + parents)
                case "stream":
                    context.report(
                        "Stream directive not supported on subscription operations. Disable `@stream` by setting the `if` argument to `false`.",
                        [directive.location] + parents)
                default: break
                }
            }
            switch selection {
            case .fragmentSpread(let spread):
                let name = spread.name.value
                guard visited.insert(name).inserted, let fragment = fragments[name] else { continue }
                forbidUnconditional(fragment.selectionSet, parents: [spread.location] + parents, fragments: fragments, visited: &visited)
            case .inlineFragment(let inline):
                forbidUnconditional(inline.selectionSet, parents: parents, fragments: fragments, visited: &visited)
            case .field(let field):
                if let selectionSet = field.selectionSet {
                    forbidUnconditional(selectionSet, parents: parents, fragments: fragments, visited: &visited)
                }
            }
        }
    }

    /// Whether `@skip` (`whenLiteral` true) or `@include` (false) can leave the selection out.
    private static func canSkip(_ directive: Directive, whenLiteral skips: Bool) -> Bool {
        guard let argument = directive.arguments.first(where: { $0.name.value == "if" }) else { return skips }
        if case .boolean(let literal) = argument.value { return literal.value == skips }
        return true
    }

    private static func ifCanBeFalse(_ directive: Directive) -> Bool {
        guard let argument = directive.arguments.first(where: { $0.name.value == "if" }) else { return false }
        switch argument.value {
        case .boolean(let literal): return !literal.value
        case .variable: return true
        default: return false
        }
    }
}

/// Defer And Stream Directive Labels Are Unique, and static strings.
final class DeferStreamDirectiveLabelRule: ValidationRule {
    override class var hooks: ValidationHooks { [.directive] }

    private var knownLabels: [String: Directive] = [:]

    override func enterDirective(_ node: Directive, location: DirectiveLocation) -> VisitAction {
        let name = node.name.value
        guard name == "defer" || name == "stream", context.schema.directive(named: name) != nil,
            let label = node.arguments.first(where: { $0.name.value == "label" })
        else { return .continue }
        guard case .string(let value) = label.value else {
            context.report("Directive \"\(name)\"'s label argument must be a static string.", node.location)
            return .continue
        }
        if let known = knownLabels[value.value] {
            context.report("Defer/Stream directive label argument must be unique.", [known.location, node.location])
        } else {
            knownLabels[value.value] = node
        }
        return .continue
    }
}

/// Stream Directives Are Used On List Fields.
final class StreamDirectiveOnListFieldRule: ValidationRule {
    override class var hooks: ValidationHooks { [.directive] }

    override func enterDirective(_ node: Directive, location: DirectiveLocation) -> VisitAction {
        guard node.name.value == "stream", context.schema.directive(named: "stream") != nil,
            let field = context.typeInfo.fieldDefinition, let parentType = context.typeInfo.parentType
        else { return .continue }
        switch field.type {
        case .list, .nonNull(.list): return .continue
        default:
            context.report(
                "Stream directive cannot be used on non-list field \"\(field.name)\" on type \"\(parentType.name)\".", node.location)
            return .continue
        }
    }
}
