/// BuildExecutionPlan (incremental delivery RFC): which of an object's
/// collected fields execute now and which are left for the deferred
/// fragments that select them.
extension Executor {
    /// The fields to execute now, planned, and what the object defers.
    /// `context` holds the deferred fragments whose part is executing (none
    /// for the initial result): a field selected by exactly those executes
    /// now, and so does one selected outside any deferred fragment.
    func planIncrementally(
        _ type: GraphQLNamedType, _ collected: FieldCollector.IncrementalFields, context: [DeferUsage]
    ) -> (fields: [PlannedField], deferral: Deferral?) {
        let contextSet = Set(context.map(\.identity))
        var now = FieldCollector.GroupedFields()
        var nowUsages: [[DeferUsage?]] = []
        var later:
            [(usages: [DeferUsage], identities: Set<ObjectIdentifier>, grouped: FieldCollector.GroupedFields, fieldUsages: [[DeferUsage?]])] =
                []
        for index in 0..<collected.grouped.count {
            let usages = Self.filteredUsages(collected.usages[index])
            let identities = Set(usages.map(\.identity))
            if identities == contextSet {
                for field in collected.grouped.fields[index] { now.append(field) }
                nowUsages.append(collected.usages[index])
                continue
            }
            if let existing = later.firstIndex(where: { $0.identities == identities }) {
                for field in collected.grouped.fields[index] { later[existing].grouped.append(field) }
                later[existing].fieldUsages.append(collected.usages[index])
            } else {
                var grouped = FieldCollector.GroupedFields()
                for field in collected.grouped.fields[index] { grouped.append(field) }
                later.append((usages, identities, grouped, [collected.usages[index]]))
            }
        }
        let fields = plan(type, now, usages: nowUsages, context: context)
        guard !later.isEmpty || !collected.newUsages.isEmpty else { return (fields, nil) }
        let groups = later.map { group in
            (usages: group.usages, fields: plan(type, group.grouped, usages: group.fieldUsages, context: group.usages))
        }
        return (fields, Deferral(newUsages: collected.newUsages, groups: groups))
    }

    /// The fields planned, each with the deferred fragments of its nodes and
    /// the part it executes in.
    private func plan(
        _ type: GraphQLNamedType, _ grouped: FieldCollector.GroupedFields, usages: [[DeferUsage?]], context: [DeferUsage]
    ) -> [PlannedField] {
        let planned = plan(type, grouped)
        for (index, field) in planned.enumerated() {
            field.deferUsages = usages[index]
            field.deferContext = context
        }
        return planned
    }

    /// The deferred fragments a field's nodes were met in, leaving out any
    /// nested in another of them; none when a node was met outside all.
    static func filteredUsages(_ usages: [DeferUsage?]) -> [DeferUsage] {
        var filtered: [DeferUsage] = []
        for usage in usages {
            guard let usage else { return [] }
            if !filtered.contains(where: { $0 === usage }) { filtered.append(usage) }
        }
        return filtered.filter { usage in
            var ancestor = usage.parent
            while let current = ancestor {
                if filtered.contains(where: { $0 === current }) { return false }
                ancestor = current.parent
            }
            return true
        }
    }

    /// CollectSubfields and the plan of a field's subfields on `type`, with
    /// what each object of that type defers.
    func incrementalSubfields(_ type: GraphQLNamedType, of field: PlannedField) throws(GraphQLError) -> (
        fields: [PlannedField], deferral: Deferral?
    ) {
        var selectionSets: [(SelectionSet, DeferUsage?)] = []
        for (index, node) in field.nodes.enumerated() {
            guard let selectionSet = node.selectionSet else { continue }
            selectionSets.append((selectionSet, index < field.deferUsages.count ? field.deferUsages[index] : nil))
        }
        var collected = FieldCollector.IncrementalFields()
        if !selectionSets.isEmpty { collected = try collector.collectIncrementalFields(type, selectionSets) }
        return planIncrementally(type, collected, context: field.deferContext)
    }
}
