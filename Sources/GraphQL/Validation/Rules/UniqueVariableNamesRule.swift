/// Variable Uniqueness (spec §5.8.1).
final class UniqueVariableNamesRule: ValidationRule {
    override class var hooks: ValidationHooks { [.operationDefinition] }

    override func enterOperationDefinition(_ node: OperationDefinition) -> VisitAction {
        guard node.variableDefinitions.count > 1 else { return .continue }
        for (name, definitions) in groupedInOrder(node.variableDefinitions, by: { $0.variable.name.value }) where definitions.count > 1 {
            context.report("There can be only one variable named \"$\(name)\".", definitions.map(\.variable.name.location))
        }
        return .continue
    }
}

/// Groups by key, keeping the keys in the order they first appear (as graphql-js's groupBy does).
func groupedInOrder<Element>(_ elements: [Element], by key: (Element) -> String) -> [(String, [Element])] {
    var groups: [(String, [Element])] = []
    var index: [String: Int] = [:]
    for element in elements {
        let name = key(element)
        if let position = index[name] {
            groups[position].1.append(element)
        } else {
            index[name] = groups.count
            groups.append((name, [element]))
        }
    }
    return groups
}
