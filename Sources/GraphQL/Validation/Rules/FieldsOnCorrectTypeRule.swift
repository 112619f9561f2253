/// Field Selections (spec §5.3.1): a field must exist on the type it is selected on.
final class FieldsOnCorrectTypeRule: ValidationRule {
    override class var hooks: ValidationHooks { [.field] }

    override func enterField(_ node: Field) -> VisitAction {
        guard let parentType = context.typeInfo.parentType, context.typeInfo.fieldDefinition == nil else { return .continue }
        let name = node.name.value
        var suggestion = Suggestions.didYouMean(suggestedTypeNames(parentType, name), subject: "to use an inline fragment on")
        if suggestion.isEmpty {
            suggestion = Suggestions.didYouMean(suggestedFieldNames(parentType, name))
        }
        context.report("Cannot query field \"\(name)\" on type \"\(parentType.name)\"." + suggestion, node.location)
        return .continue
    }

    /// For an abstract type: the possible types and interfaces that have the
    /// field, those most used first, interfaces before their implementations.
    private func suggestedTypeNames(_ type: GraphQLNamedType, _ fieldName: String) -> [String] {
        guard type.isAbstractType else { return [] }
        let schema = context.schema
        var suggested: [GraphQLNamedType] = []
        var usageCount: [String: Int] = [:]
        for possibleType in schema.possibleTypes(of: type) where possibleType.field(named: fieldName) != nil {
            if !suggested.contains(possibleType) { suggested.append(possibleType) }
            usageCount[possibleType.name] = 1
            for interface in possibleType.interfaces where interface.field(named: fieldName) != nil {
                if !suggested.contains(interface) { suggested.append(interface) }
                usageCount[interface.name, default: 0] += 1
            }
        }
        return suggested.sorted { a, b in
            let difference = usageCount[b.name, default: 0] - usageCount[a.name, default: 0]
            if difference != 0 { return difference < 0 }
            if a.kind == .interface && schema.isSubType(a, b) { return true }
            if b.kind == .interface && schema.isSubType(b, a) { return false }
            return Suggestions.naturalOrder(a.name, b.name) < 0
        }.map(\.name)
    }

    private func suggestedFieldNames(_ type: GraphQLNamedType, _ fieldName: String) -> [String] {
        guard type.kind == .object || type.kind == .interface else { return [] }
        return Suggestions.list(for: fieldName, from: type.fields.map(\.name))
    }
}
