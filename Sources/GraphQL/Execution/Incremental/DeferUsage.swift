/// The directives of incremental delivery, as graphql-js 17 defines them. A
/// schema that has them (Huddle's, unless incremental delivery is turned
/// off) validates and executes `@defer` and `@stream`; one without them
/// refuses both as unknown directives, as graphql-js 16 does.
public let incrementalDeliveryDirectives = Source(
    body: """
        \"""
        Directs the executor to defer this fragment when the `if` argument is true or undefined.
        \"""
        directive @defer(
          \"""Deferred when true or undefined.\"""
          if: Boolean! = true

          \"""Unique name\"""
          label: String
        ) on FRAGMENT_SPREAD | INLINE_FRAGMENT

        \"""
        Directs the executor to stream plural fields when the `if` argument is true or undefined.
        \"""
        directive @stream(
          \"""Stream when true or undefined.\"""
          if: Boolean! = true

          \"""Unique name\"""
          label: String

          \"""Number of items to return immediately\"""
          initialCount: Int! = 0
        ) on FIELD

        """,
    name: "incremental delivery directives")

/// A `@defer` on a fragment as CollectFields meets it: its label and the
/// deferred fragment it is nested in. One per fragment and plan; the
/// records of each object an execution reaches are `DeferredFragment`s.
final class DeferUsage {
    let label: String?
    let parent: DeferUsage?

    init(label: String?, parent: DeferUsage?) {
        self.label = label
        self.parent = parent
    }

    var identity: ObjectIdentifier { ObjectIdentifier(self) }
}

/// A field's `@stream`, its arguments coerced.
struct StreamUsage {
    let label: String?
    let initialCount: Int
}

/// What executing one object defers: the fragments deferred on it (a
/// record of each is made for the object), and the grouped field sets left
/// for later, each with the deferred fragments that share it.
final class Deferral {
    let newUsages: [DeferUsage]
    let groups: [(usages: [DeferUsage], fields: [Executor.PlannedField])]

    init(newUsages: [DeferUsage], groups: [(usages: [DeferUsage], fields: [Executor.PlannedField])]) {
        self.newUsages = newUsages
        self.groups = groups
    }
}

extension FieldCollector {
    /// CollectFields as the incremental delivery RFC extends it: each field
    /// with the deferred fragment it was met in (nil outside any), and the
    /// `@defer`s met, in order. A spread of a fragment already collected
    /// without `@defer` is passed over, deferred or not, before its `@skip`
    /// and `@include` are read, as in graphql-js 17 (17.0.0-alpha.8; and 16,
    /// so a condition that cannot be coerced there is no error); a deferred
    /// spread does not count as collecting its fragment, so one spread later
    /// without `@defer` collects it again.
    struct IncrementalFields {
        var grouped = GroupedFields()
        /// For each response key, the deferred fragment of each of its fields.
        var usages: [[DeferUsage?]] = []
        var newUsages: [DeferUsage] = []

        mutating func append(_ field: Field, _ usage: DeferUsage?) {
            let before = grouped.count
            grouped.append(field)
            if grouped.count > before {
                usages.append([usage])
            } else {
                usages[grouped.keys.firstIndex(of: field.responseKey)!].append(usage)
            }
        }
    }

    func collectIncrementalFields(
        _ objectType: GraphQLNamedType, _ selectionSets: [(SelectionSet, DeferUsage?)]
    ) throws(GraphQLError) -> IncrementalFields {
        var collected = IncrementalFields()
        var visitedFragments: Set<String> = []
        for (selectionSet, usage) in selectionSets {
            try collectIncremental(objectType, selectionSet, usage, &collected, &visitedFragments)
        }
        return collected
    }

    private func collectIncremental(
        _ objectType: GraphQLNamedType, _ selectionSet: SelectionSet, _ usage: DeferUsage?,
        _ collected: inout IncrementalFields, _ visitedFragments: inout Set<String>
    ) throws(GraphQLError) {
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                guard try shouldInclude(field.directives) else { continue }
                collected.append(field, usage)
            case .fragmentSpread(let spread):
                let name = spread.name.value
                guard !visitedFragments.contains(name), try shouldInclude(spread.directives) else { continue }
                guard let fragment = fragments[name], doesFragmentTypeApply(objectType, fragment.typeCondition) else { continue }
                let deferred = try deferUsage(spread.directives, parent: usage)
                if deferred == nil { visitedFragments.insert(name) }
                if let deferred { collected.newUsages.append(deferred) }
                try collectIncremental(objectType, fragment.selectionSet, deferred ?? usage, &collected, &visitedFragments)
            case .inlineFragment(let inline):
                guard try shouldInclude(inline.directives) else { continue }
                if let condition = inline.typeCondition, !doesFragmentTypeApply(objectType, condition) { continue }
                let deferred = try deferUsage(inline.directives, parent: usage)
                if let deferred { collected.newUsages.append(deferred) }
                try collectIncremental(objectType, inline.selectionSet, deferred ?? usage, &collected, &visitedFragments)
            }
        }
    }

    /// The fragment's `@defer`, unless it has none or its `if` is false.
    private func deferUsage(_ directives: [Directive], parent: DeferUsage?) throws(GraphQLError) -> DeferUsage? {
        guard let directive = directives.first(where: { $0.name.value == "defer" }),
            let arguments = try incrementalArguments(directive)
        else { return nil }
        if case .boolean(false)? = arguments["if"] { return nil }
        return DeferUsage(label: arguments["label"]?.stringValue, parent: parent)
    }

    /// The field's `@stream`, unless it has none or its `if` is false.
    func streamUsage(_ field: Field) throws(GraphQLError) -> StreamUsage? {
        guard let directive = field.directives.first(where: { $0.name.value == "stream" }),
            let arguments = try incrementalArguments(directive)
        else { return nil }
        if case .boolean(false)? = arguments["if"] { return nil }
        var initialCount = 0
        if case .int(let count)? = arguments["initialCount"] { initialCount = count }
        guard initialCount >= 0 else {
            // graphql-js 17's words; the code, for clients that switch on one, is ours.
            throw GraphQLError(
                message: "initialCount must be a positive integer",
                locations: source.map { [$0.location(at: directive.location.start)] } ?? [],
                extensions: [.init("code", .string("BAD_USER_INPUT"))])
        }
        return StreamUsage(label: arguments["label"]?.stringValue, initialCount: initialCount)
    }

    /// A `@defer` or `@stream`'s arguments, coerced; nil where the schema
    /// does not define the directive (it is then not one of ours).
    private func incrementalArguments(_ directive: Directive) throws(GraphQLError) -> [String: GraphQLValue]? {
        guard let definition = schema.directive(named: directive.name.value) else { return nil }
        return try ArgumentValues.coerce(
            definitions: definition.arguments, arguments: directive.arguments, variableValues: variableValues,
            node: directive.location, source: source
        )
    }
}

extension GraphQLValue {
    fileprivate var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
