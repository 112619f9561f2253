/// CollectFields (spec §6.3.2): the fields a selection set selects on one
/// object type, grouped by response key in the order they first appear,
/// with `@skip`, `@include`, fragment type conditions and each fragment at
/// most once.
public struct FieldCollector: Sendable {
    public let schema: GraphQLSchema
    public let fragments: [String: FragmentDefinition]
    public let variableValues: [String: GraphQLValue]

    public init(schema: GraphQLSchema, document: Document, variableValues: [String: GraphQLValue]) {
        self.schema = schema
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

    public func collectFields(_ objectType: GraphQLNamedType, _ selectionSet: SelectionSet) -> GroupedFields {
        var grouped = GroupedFields()
        var visitedFragments: Set<String> = []
        collect(objectType, selectionSet, &grouped, &visitedFragments)
        return grouped
    }

    /// CollectSubfields: the fields of every field node's selection set, merged.
    public func collectSubfields(_ objectType: GraphQLNamedType, _ fieldNodes: [Field]) -> GroupedFields {
        var grouped = GroupedFields()
        var visitedFragments: Set<String> = []
        for node in fieldNodes {
            if let selectionSet = node.selectionSet { collect(objectType, selectionSet, &grouped, &visitedFragments) }
        }
        return grouped
    }

    private func collect(
        _ objectType: GraphQLNamedType, _ selectionSet: SelectionSet,
        _ grouped: inout GroupedFields, _ visitedFragments: inout Set<String>
    ) {
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                guard shouldInclude(field.directives) else { continue }
                grouped.append(field)
            case .fragmentSpread(let spread):
                let name = spread.name.value
                guard !visitedFragments.contains(name), shouldInclude(spread.directives) else { continue }
                visitedFragments.insert(name)
                guard let fragment = fragments[name], doesFragmentTypeApply(objectType, fragment.typeCondition) else { continue }
                collect(objectType, fragment.selectionSet, &grouped, &visitedFragments)
            case .inlineFragment(let inline):
                guard shouldInclude(inline.directives) else { continue }
                if let condition = inline.typeCondition, !doesFragmentTypeApply(objectType, condition) { continue }
                collect(objectType, inline.selectionSet, &grouped, &visitedFragments)
            }
        }
    }

    /// `@skip(if: true)` leaves a selection out; `@include(if: false)` too.
    func shouldInclude(_ directives: [Directive]) -> Bool {
        if directives.isEmpty { return true }
        for directive in directives {
            switch directive.name.value {
            case "skip" where condition(directive) == true: return false
            case "include" where condition(directive) != true: return false
            default: continue
            }
        }
        return true
    }

    private func condition(_ directive: Directive) -> Bool? {
        guard let argument = directive.arguments.first(where: { $0.name.value == "if" }) else { return nil }
        switch argument.value {
        case .boolean(let boolean): return boolean.value
        case .variable(let variable):
            if case .boolean(let value) = variableValues[variable.name.value] { return value }
            return nil
        default: return nil
        }
    }

    /// DoesFragmentTypeApply: the object type is the condition, or one of its possible types.
    public func doesFragmentTypeApply(_ objectType: GraphQLNamedType, _ condition: NamedType) -> Bool {
        guard let conditionType = schema.type(named: condition.name.value) else { return false }
        if conditionType === objectType { return true }
        return conditionType.isAbstractType && schema.isSubType(conditionType, objectType)
    }
}
