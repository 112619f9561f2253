/// CollectFields (spec §6.3.2): the fields a selection set selects on one
/// object type, grouped by response key in the order they first appear,
/// with `@skip`, `@include`, fragment type conditions and each fragment at
/// most once. A `@skip` or `@include` whose `if` cannot be coerced (a
/// nullable variable given null, or one not given at all) is an error, as
/// CoerceArgumentValues makes it: a field error for the field whose
/// selections are collected, a request error at the root.
public struct FieldCollector: Sendable {
    public let schema: GraphQLSchema
    public let fragments: [String: FragmentDefinition]
    public let variableValues: [String: GraphQLValue]
    /// Where the document came from, for the locations of directive errors.
    public let source: Source?

    public init(schema: GraphQLSchema, document: Document, variableValues: [String: GraphQLValue], source: Source? = nil) {
        self.schema = schema
        self.source = source
        var fragments: [String: FragmentDefinition] = [:]
        for case .fragment(let fragment) in document.definitions where fragments[fragment.name.value] == nil {
            fragments[fragment.name.value] = fragment
        }
        self.fragments = fragments
        self.variableValues = variableValues
    }

    /// The grouped field set: response keys in order, each with its fields.
    public struct GroupedFields {
        public private(set) var keys: [String] = []
        public private(set) var fields: [[Field]] = []

        mutating func append(_ field: Field) {
            let key = field.responseKey
            if let index = keys.firstIndex(of: key) {
                fields[index].append(field)
            } else {
                keys.append(key)
                fields.append([field])
            }
        }

        public var count: Int { keys.count }
    }

    public func collectFields(_ objectType: GraphQLNamedType, _ selectionSet: SelectionSet) throws(GraphQLError) -> GroupedFields {
        var grouped = GroupedFields()
        var visitedFragments: Set<String> = []
        try collect(objectType, selectionSet, &grouped, &visitedFragments)
        return grouped
    }

    /// CollectSubfields: the fields of every field node's selection set, merged.
    public func collectSubfields(_ objectType: GraphQLNamedType, _ fieldNodes: [Field]) throws(GraphQLError) -> GroupedFields {
        var grouped = GroupedFields()
        var visitedFragments: Set<String> = []
        for node in fieldNodes {
            if let selectionSet = node.selectionSet { try collect(objectType, selectionSet, &grouped, &visitedFragments) }
        }
        return grouped
    }

    private func collect(
        _ objectType: GraphQLNamedType, _ selectionSet: SelectionSet,
        _ grouped: inout GroupedFields, _ visitedFragments: inout Set<String>
    ) throws(GraphQLError) {
        for index in selectionSet.selections.indices {
            switch selectionSet.selections[index] {
            case .field(let field):
                guard try shouldInclude(field.directives) else { continue }
                grouped.append(field)
            case .fragmentSpread(let spread):
                let name = spread.name.value
                guard !visitedFragments.contains(name), try shouldInclude(spread.directives) else { continue }
                visitedFragments.insert(name)
                guard let fragment = fragments[name], doesFragmentTypeApply(objectType, fragment.typeCondition) else { continue }
                try collect(objectType, fragment.selectionSet, &grouped, &visitedFragments)
            case .inlineFragment(let inline):
                guard try shouldInclude(inline.directives) else { continue }
                if let condition = inline.typeCondition, !doesFragmentTypeApply(objectType, condition) { continue }
                try collect(objectType, inline.selectionSet, &grouped, &visitedFragments)
            }
        }
    }

    /// ShouldIncludeNode, as graphql-js orders it: `@skip` first, then
    /// `@include`, each the first of its name; `@skip(if: true)` or
    /// `@include(if: false)` leaves the selection out.
    func shouldInclude(_ directives: [Directive]) throws(GraphQLError) -> Bool {
        if directives.isEmpty { return true }
        if let skip = directives.first(where: { $0.name.value == "skip" }), try condition(skip) == true {
            return false
        }
        if let include = directives.first(where: { $0.name.value == "include" }), try condition(include) == false {
            return false
        }
        return true
    }

    /// The directive's `if`: a literal or a variable holding a Boolean at
    /// once; anything else through CoerceArgumentValues, which says why it
    /// is not one.
    private func condition(_ directive: Directive) throws(GraphQLError) -> Bool? {
        if let argument = directive.arguments.first(where: { $0.name.value == "if" }) {
            switch argument.value {
            case .boolean(let boolean): return boolean.value
            case .variable(let variable):
                if case .boolean(let value)? = variableValues[variable.name.value] { return value }
            default: break
            }
        }
        guard let definition = schema.directive(named: directive.name.value) else { return nil }
        let coerced = try ArgumentValues.coerce(
            definitions: definition.arguments, arguments: directive.arguments, variableValues: variableValues,
            node: directive.location, source: source
        )
        if case .boolean(let value)? = coerced["if"] { return value }
        return nil
    }

    /// DoesFragmentTypeApply: the object type is the condition, or one of its possible types.
    public func doesFragmentTypeApply(_ objectType: GraphQLNamedType, _ condition: NamedType) -> Bool {
        guard let conditionType = schema.type(named: condition.name.value) else { return false }
        if conditionType === objectType { return true }
        return conditionType.isAbstractType && schema.isSubType(conditionType, objectType)
    }
}
