import Synchronization

/// What the operation selects on a field's value (an object type's), for
/// resolvers that read less when less is asked: CollectSubfields over the
/// field's nodes, worked out the first time a resolver asks (most never
/// do) and kept for the field's other objects, and from those subfields
/// the selections one level further down.
final class Lookahead: Sendable {
    private let collector: FieldCollector
    private let schema: GraphQLSchema
    private let type: GraphQLNamedType
    private let nodes: [Field]
    private let state = Mutex(State())

    private struct State {
        var isCollected = false
        /// Nil when a directive cannot be coerced: the field fails when it
        /// is completed, and there is nothing to look ahead at.
        var subfields: FieldCollector.GroupedFields?
        var names: Set<String>?
        var namesUnder: [String: Set<String>] = [:]
    }

    init(collector: FieldCollector, schema: GraphQLSchema, type: GraphQLNamedType, nodes: [Field]) {
        self.collector = collector
        self.schema = schema
        self.type = type
        self.nodes = nodes
    }

    var selectedFieldNames: Set<String> {
        state.withLock { state in
            if let known = state.names { return known }
            let names = Self.names(subfields(&state))
            state.names = names
            return names
        }
    }

    /// The names selected on the value of the subfield `name`, when that is of an object type.
    func selectedFieldNames(under name: String) -> Set<String> {
        state.withLock { state in
            if let known = state.namesUnder[name] { return known }
            var names: Set<String> = []
            if let child = schema.field(named: name, on: type)?.type.namedType, child.kind == .object,
                let inner = subfields(&state)?.fields.filter({ $0[0].name.value == name }).flatMap({ $0 }), !inner.isEmpty
            {
                names = Self.names(try? collector.collectSubfields(child, inner))
            }
            state.namesUnder[name] = names
            return names
        }
    }

    private func subfields(_ state: inout State) -> FieldCollector.GroupedFields? {
        if !state.isCollected {
            state.subfields = try? collector.collectSubfields(type, nodes)
            state.isCollected = true
        }
        return state.subfields
    }

    private static func names(_ grouped: FieldCollector.GroupedFields?) -> Set<String> {
        Set((grouped?.fields ?? []).map { $0[0].name.value })
    }
}
