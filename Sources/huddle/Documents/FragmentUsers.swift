import GraphQL

/// Which operations use each fragment of a project, through other
/// fragments too: a fragment a schema breaks breaks every operation that
/// spreads it, and `schema check` names them.
struct FragmentUsers {
    /// Operations by their definition's name (`query Feed`, `an anonymous query`), by fragment name.
    private var users: [String: [String]] = [:]

    init(_ definitions: [Definition]) {
        var spreads: [String: Set<String>] = [:]
        var operations: [(name: String, spreads: Set<String>)] = []
        for definition in definitions {
            switch definition {
            case .operation(let operation):
                let name =
                    operation.name.map { "\(operation.operation.rawValue) \($0.value)" } ?? "an anonymous \(operation.operation.rawValue)"
                operations.append((name, Self.spreads(in: operation.selectionSet)))
            case .fragment(let fragment):
                spreads[fragment.name.value, default: []].formUnion(Self.spreads(in: fragment.selectionSet))
            default:
                continue
            }
        }
        for operation in operations {
            // Every fragment reachable, each once (cycles are a validation error, not a hang).
            var reached: Set<String> = []
            var pending = Array(operation.spreads)
            while let fragment = pending.popLast() {
                guard reached.insert(fragment).inserted else { continue }
                pending += spreads[fragment] ?? []
            }
            for fragment in reached { users[fragment, default: []].append(operation.name) }
        }
    }

    /// The operations that use `fragment`, in the project's order.
    func operations(using fragment: String) -> [String] { users[fragment] ?? [] }

    private static func spreads(in selectionSet: SelectionSet) -> Set<String> {
        var names: Set<String> = []
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field): if let set = field.selectionSet { names.formUnion(spreads(in: set)) }
            case .inlineFragment(let fragment): names.formUnion(spreads(in: fragment.selectionSet))
            case .fragmentSpread(let spread): names.insert(spread.name.value)
            }
        }
        return names
    }
}
