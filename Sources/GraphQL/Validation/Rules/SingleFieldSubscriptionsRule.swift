/// Single Root Field (spec §5.2.3.1): a subscription selects exactly one
/// root field, not an introspection field, and, so that this holds whatever
/// the variables, without `@skip` or `@include` in its root selection set.
final class SingleFieldSubscriptionsRule: ValidationRule {
    override class var hooks: ValidationHooks { [.operationDefinition] }

    override func enterOperationDefinition(_ node: OperationDefinition) -> VisitAction {
        guard node.operation == .subscription, let subscriptionType = context.schema.subscriptionType else {
            return .continue
        }
        let name = node.name?.value
        var forbidden: [Directive] = []
        var visited: Set<String> = []
        let fields = collectSubscriptionFields(subscriptionType, node.selectionSet, &visited, &forbidden)
        if !forbidden.isEmpty {
            context.report(
                name.map { "Subscription \"\($0)\" must not use `@skip` or `@include` directives in the top level selection." }
                    ?? "Anonymous Subscription must not use `@skip` or `@include` directives in the top level selection.",
                forbidden.map(\.location)
            )
            return .continue
        }
        if fields.count > 1 {
            context.report(
                name.map { "Subscription \"\($0)\" must select only one top level field." }
                    ?? "Anonymous Subscription must select only one top level field.",
                fields.dropFirst().flatMap { $0.fields.map(\.location) }
            )
        }
        for (_, fieldNodes) in fields where fieldNodes[0].name.value.hasPrefix("__") {
            context.report(
                name.map { "Subscription \"\($0)\" must not select an introspection top level field." }
                    ?? "Anonymous Subscription must not select an introspection top level field.",
                fieldNodes.map(\.location)
            )
        }
        return .continue
    }

    /// CollectSubscriptionFields: the root fields by response key, in order.
    private func collectSubscriptionFields(
        _ objectType: GraphQLNamedType,
        _ selectionSet: SelectionSet,
        _ visited: inout Set<String>,
        _ forbidden: inout [Directive]
    ) -> [(key: String, fields: [Field])] {
        var collected: [(key: String, fields: [Field])] = []
        func add(_ key: String, _ fields: [Field]) {
            if let index = collected.firstIndex(where: { $0.key == key }) {
                collected[index].fields += fields
            } else {
                collected.append((key, fields))
            }
        }
        for selection in selectionSet.selections {
            let directives: [Directive] =
                switch selection {
                case .field(let field): field.directives
                case .fragmentSpread(let spread): spread.directives
                case .inlineFragment(let inline): inline.directives
                }
            forbidden += directives.filter { $0.name.value == "skip" || $0.name.value == "include" }
            switch selection {
            case .field(let field):
                add(field.responseKey, [field])
            case .fragmentSpread(let spread):
                guard visited.insert(spread.name.value).inserted,
                    let fragment = context.fragment(named: spread.name.value),
                    doesFragmentTypeApply(objectType, fragment.typeCondition)
                else { continue }
                for (key, fields) in collectSubscriptionFields(objectType, fragment.selectionSet, &visited, &forbidden) {
                    add(key, fields)
                }
            case .inlineFragment(let inline):
                if let condition = inline.typeCondition, !doesFragmentTypeApply(objectType, condition) { continue }
                for (key, fields) in collectSubscriptionFields(objectType, inline.selectionSet, &visited, &forbidden) {
                    add(key, fields)
                }
            }
        }
        return collected
    }

    private func doesFragmentTypeApply(_ objectType: GraphQLNamedType, _ condition: NamedType) -> Bool {
        guard let conditionType = context.schema.type(named: condition.name.value) else { return false }
        if conditionType === objectType { return true }
        return conditionType.isAbstractType && context.schema.isSubType(conditionType, objectType)
    }
}
