/// Planning: CollectFields and CollectSubfields (spec §6.3.2, §6.4.3) turned
/// into plans, once per object type and merged field set.
extension Executor {
    /// What a plan of subfields depends on: the object type and the
    /// selection sets of all the field nodes merged, not only the first
    /// one's (a fragment spread under two fields gives their `best` the same
    /// first node, and each its own other nodes).
    struct PlanKey: Hashable {
        var type: ObjectIdentifier
        var selectionSets: [Location]
    }

    func plan(_ type: GraphQLNamedType, _ grouped: FieldCollector.GroupedFields) -> [PlannedField] {
        (0..<grouped.count).map { index in
            let nodes = grouped.fields[index]
            let name = nodes[0].name.value
            guard name != "__typename" else {
                return PlannedField(
                    key: grouped.keys[index], nodes: nodes, definition: nil, parentType: type, resolution: .typename, info: nil
                )
            }
            guard let field = schema.schema.field(named: name, on: type) else {
                return PlannedField(
                    key: grouped.keys[index], nodes: nodes, definition: nil, parentType: type, resolution: .omitted, info: nil
                )
            }
            let resolution: PlannedField.Resolution
            let resolver = schema.resolver(for: field)
            if resolver != nil {
                resolution = .bound
            } else if type.name.hasPrefix("__") || field === MetaFields.schema || field === MetaFields.type {
                resolution = .introspection
            } else {
                resolution = .byName
            }
            // What the field's value will be asked for, worked out only if a
            // resolver looks ahead (only on object types).
            var lookahead: Lookahead?
            if resolver?.takesInput == true, field.type.namedType.kind == .object {
                lookahead = Lookahead(collector: collector, schema: schema.schema, type: field.type.namedType, nodes: nodes)
            }
            let info = FieldInfo(
                fieldName: field.name, parentType: type, returnType: field.type, schema: schema.schema,
                variableValues: variableValues, lookahead: lookahead
            )
            return PlannedField(
                key: grouped.keys[index], nodes: nodes, definition: field, parentType: type, resolution: resolution, info: info,
                resolver: resolver
            )
        }
    }

    func subfields(_ type: GraphQLNamedType, of field: PlannedField) throws(GraphQLError) -> [PlannedField] {
        let identity = ObjectIdentifier(type)
        if field.subplanType == identity { return subplans[field.subplan] }
        let planned: [PlannedField]
        if let incremental {
            let deferral: Deferral?
            (planned, deferral) = try incrementalSubfields(type, of: field)
            if let deferral { incremental.deferrals[subplans.count] = deferral }
        } else {
            planned = try subfields(type, field.nodes)
        }
        field.subplanType = identity
        field.subplan = subplans.count
        subplans.append(planned)
        return planned
    }

    func subfields(_ type: GraphQLNamedType, _ fieldNodes: [Field]) throws(GraphQLError) -> [PlannedField] {
        let selectionSets = fieldNodes.map { $0.selectionSet?.location ?? $0.location }
        guard !selectionSets.contains(.none) else { return try plan(type, collector.collectSubfields(type, fieldNodes)) }
        let key = PlanKey(type: ObjectIdentifier(type), selectionSets: selectionSets)
        if let cached = plans[key] { return cached }
        let planned = try plan(type, collector.collectSubfields(type, fieldNodes))
        plans[key] = planned
        return planned
    }

    /// The subfields of a field on the object type being completed, or nil
    /// with the field error when they cannot be collected.
    func plannedSubfields(_ objectType: GraphQLNamedType, of field: PlannedField) -> [PlannedField]? {
        do {
            return try subfields(objectType, of: field)
        } catch {
            fail(error, field.nodes)
            return nil
        }
    }
}
