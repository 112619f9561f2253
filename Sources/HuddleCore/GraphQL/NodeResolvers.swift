import GraphQL

/// `node(id:)` and `Node`'s type resolution, built from the apps' node
/// types: any object by its global id, through the same loaders as
/// everything else.
enum NodeResolvers {
    static func bind(_ binder: inout SchemaBinder, nodeTypes: [NodeType]) {
        let byName = Dictionary(nodeTypes.map { ($0.typename, $0) }, uniquingKeysWith: { first, _ in first })
        let byValueType = Dictionary(nodeTypes.map { ($0.valueType, $0.typename) }, uniquingKeysWith: { first, _ in first })
        binder.root("Query", "node") { input in
            guard let id = GlobalID.decode(input.string("id") ?? "") else {
                throw APIError.badInput("\(input.string("id")?.debugDescription ?? "null") is not a valid id.")
            }
            guard let type = byName[id.type] else { return .null }
            return type.load(id.id, input.request)
        }
        // What a notice is about, by the same rules as `node(id:)`.
        binder.field("Notification", "subject") { (notice: NotificationRecord, input) in
            guard let subject = notice.subject, let type = byName[subject.type] else { return .null }
            return type.load(subject.id, input.request)
        }
        binder.builder.resolveType("Node") { parent, _ in
            guard case .object(let value) = parent else { return nil }
            return byValueType[ObjectIdentifier(type(of: value))]
        }
    }
}
