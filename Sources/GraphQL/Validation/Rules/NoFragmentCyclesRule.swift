/// Fragment Spreads Must Not Form Cycles (spec §5.5.2.2). Each fragment is
/// explored once, so the check is linear in the document's size.
final class NoFragmentCyclesRule: ValidationRule {
    override class var hooks: ValidationHooks { [.operationDefinition, .fragmentDefinition] }

    private var visited = NameSet()
    private var spreadPath: [FragmentSpread] = []
    private var spreadPathIndexByName: [String: Int] = [:]

    override func enterOperationDefinition(_ node: OperationDefinition) -> VisitAction { .skip }

    override func enterFragmentDefinition(_ node: FragmentDefinition) -> VisitAction {
        detectCycle(from: node)
        return .skip
    }

    private func detectCycle(from fragment: FragmentDefinition) {
        let name = fragment.name.value
        guard visited.insert(name) else { return }
        let spreads = context.fragmentSpreads(in: fragment.selectionSet)
        if spreads.isEmpty { return }
        spreadPathIndexByName[name] = spreadPath.count
        for spread in spreads {
            let spreadName = spread.name.value
            let cycleIndex = spreadPathIndexByName[spreadName]
            spreadPath.append(spread)
            if let cycleIndex {
                let cyclePath = spreadPath[cycleIndex...]
                let via = cyclePath.dropLast().map { "\"\($0.name.value)\"" }.joined(separator: ", ")
                context.report(
                    "Cannot spread fragment \"\(spreadName)\" within itself" + (via.isEmpty ? "." : " via \(via)."),
                    cyclePath.map(\.location)
                )
            } else if let spreadFragment = context.fragment(named: spreadName) {
                detectCycle(from: spreadFragment)
            }
            spreadPath.removeLast()
        }
        spreadPathIndexByName[name] = nil
    }
}
