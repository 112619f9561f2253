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

    /// The names selected at the end of `path`: each step a subfield (all
    /// its aliases together) whose type is an object type; empty where a
    /// step is not selected or not of an object type.
    func selectedFieldNames(along path: [String]) -> Set<String> {
        // Field names have no dots: the joined path is a key of its own.
        let key = path.joined(separator: ".")
        return state.withLock { state in
            if let known = state.namesUnder[key] { return known }
            var type = self.type
            var grouped = subfields(&state)
            for name in path {
                guard let child = schema.field(named: name, on: type)?.type.namedType, child.kind == .object,
                    let inner = grouped?.fields.filter({ $0[0].name.value == name }).flatMap({ $0 }), !inner.isEmpty
                else {
                    grouped = nil
                    break
                }
                grouped = try? collector.collectSubfields(child, inner)
                type = child
            }
            let names = Self.names(grouped)
            state.namesUnder[key] = names
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
