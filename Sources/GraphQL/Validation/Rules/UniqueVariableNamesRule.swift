/// Variable Uniqueness (spec §5.8.1).
final class UniqueVariableNamesRule: ValidationRule {
    override class var hooks: ValidationHooks { [.operationDefinition] }

    override func enterOperationDefinition(_ node: OperationDefinition) -> VisitAction {
        guard node.variableDefinitions.count > 1 else { return .continue }
        for (name, definitions) in repeatedInOrder(node.variableDefinitions, by: { $0.variable.name.value }) {
            context.report("There can be only one variable named \"$\(name)\".", definitions.map(\.variable.name.location))
        }
        return .continue
    }
}

/// The elements that share a key with another, grouped by key, the keys in
/// the order they first appear (as graphql-js's groupBy, less the groups of one).
func repeatedInOrder<Element>(_ elements: [Element], by key: (Element) -> String) -> [(String, [Element])] {
    // A few elements, none repeated (nearly always): compared pairwise,
    // with no table or group made for each.
    if elements.count <= NameSet.scanLimit, !hasRepeatedKey(elements, by: key) { return [] }
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
    return groups.filter { $0.1.count > 1 }
}

/// Whether two elements share a key, comparing each pair.
private func hasRepeatedKey<Element>(_ elements: [Element], by key: (Element) -> String) -> Bool {
    for later in elements.indices.dropFirst() {
        let name = key(elements[later])
        for earlier in 0..<later where key(elements[earlier]) == name { return true }
    }
    return false
}
