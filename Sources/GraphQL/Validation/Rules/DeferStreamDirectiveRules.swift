/// The validation rules of incremental delivery, as graphql-js 17 has
/// them (17.0.0-alpha.8: its words, where it reports and in what order,
/// checked against it on generated documents, IncrementalValidation17Tests).
/// Each applies only where the schema defines `@defer` and `@stream`;
/// without them both are unknown directives, as in graphql-js 16.

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
/// subscription, and in a fragment a subscription before it spreads, only
/// where they can be turned off (`if` a variable or false). Each directive
/// is reported where the traversal meets it, as graphql-js 17 does; a
/// selection left out by `@skip` or `@include` counts all the same.
final class DeferStreamDirectiveOnValidOperationsRule: ValidationRule {
    override class var hooks: ValidationHooks { [.operationDefinition, .fragmentDefinition, .directive] }

    private var fragmentsUsedOnSubscriptions: Set<String> = []
    /// Whether the definition being walked runs in a subscription.
    private var inSubscription = false

    override func enterOperationDefinition(_ node: OperationDefinition) -> VisitAction {
        inSubscription = node.operation == .subscription
        if inSubscription {
            for fragment in context.recursivelyReferencedFragments(node) { fragmentsUsedOnSubscriptions.insert(fragment.name.value) }
        }
        return .continue
    }

    override func enterFragmentDefinition(_ node: FragmentDefinition) -> VisitAction {
        inSubscription = fragmentsUsedOnSubscriptions.contains(node.name.value)
        return .continue
    }

    override func enterDirective(_ node: Directive, location: DirectiveLocation) -> VisitAction {
        let name = node.name.value
        guard inSubscription, name == "defer" || name == "stream", context.schema.directive(named: name) != nil,
            !Self.ifCanBeFalse(node)
        else { return .continue }
        context.report(
            name == "defer"
                ? "Defer directive not supported on subscription operations. Disable `@defer` by setting the `if` argument to `false`."
                : "Stream directive not supported on subscription operations. Disable `@stream` by setting the `if` argument to `false`.",
            node.location)
        return .continue
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
            context.report("Argument \"@\(name)(label:)\" must be a static string.", node.location)
            return .continue
        }
        if let known = knownLabels[value.value] {
            context.report(
                "Value for arguments \"defer(label:)\" and \"stream(label:)\" must be unique across all Defer/Stream directive usages.",
                [known.location, node.location])
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
            context.report("Directive \"@stream\" cannot be used on non-list field \"\(parentType.name).\(field.name)\".", node.location)
            return .continue
        }
    }
}
