/// What an operation asks of the server, measured from the document and
/// the coerced variables before any resolver runs, so that a small query
/// cannot ask for unbounded work: its cost, its depth, and the counts the
/// other limits bound.
///
/// **Cost.** Every field costs 1 (its `@cost(weight:)` where the schema
/// declares one; `__typename` costs nothing). A field of a composite type
/// adds the cost of its selections, times how many objects it may return:
/// - a list field: its slicing argument's value (`first` or `last`, or the
///   `slicingArguments` of its `@listSize`), else its `@listSize(assumedSize:)`,
///   else `ExecutionLimits.defaultListSize`;
/// - a Relay connection (an object-typed field with a `first` or `last`
///   argument, or a `@listSize` with `sizedFields`): its slicing argument's
///   value, or the assumed size, multiplies its `edges` and `nodes` (or the
///   `sizedFields`) instead.
/// An interface or union costs what its most expensive possible type does.
/// `@skip` and `@include` are applied as execution applies them.
///
/// **Depth** counts fields from the root (a root field is at depth 1).
/// Introspection (`__schema`, `__type`) is not counted in cost or depth; it
/// has its own bound, the nesting of the list fields that make
/// introspection grow with the schema (`fields`, `interfaces`,
/// `possibleTypes`, `inputFields`), as graphql-js 17's
/// MaxIntrospectionDepthRule bounds it.
///
/// Fragments are measured once per object type and merged field set, as
/// the executor plans them, so measuring stays linear in the document even
/// where the operation it describes is exponential.
public struct OperationCost: Sendable, Hashable {
    public var cost = 0
    public var depth = 0
    /// Fields with an alias, in the operation and the fragments it uses (each once).
    public var aliases = 0
    /// The operation's root fields, after `@skip` and `@include`.
    public var rootFields = 0
    /// Directives in the operation and the fragments it uses (each once).
    public var directives = 0
    /// The deepest nesting of introspection's list fields.
    public var introspectionDepth = 0

    public init() {}

    /// Measures `operation`, whose variables have been coerced.
    public static func measure(
        schema: GraphQLSchema, document: Document, operation: OperationDefinition,
        variableValues: [String: GraphQLValue], defaultListSize: Int
    ) -> OperationCost {
        var measured = OperationCost()
        guard let rootType = schema.rootType(for: operation.operation) else { return measured }
        let collector = FieldCollector(schema: schema, document: document, variableValues: variableValues)
        var counter = NodeCounter(fragments: collector.fragments)
        counter.count(operation.directives.count)
        for variable in operation.variableDefinitions { counter.count(variable.directives.count) }
        counter.visit(operation.selectionSet)
        measured.aliases = counter.aliases
        measured.directives = counter.directives

        var measurer = Measurer(
            schema: schema, collector: collector, variableValues: variableValues, defaultListSize: defaultListSize
        )
        // A root field error in CollectFields is the executor's to report.
        guard let root = try? collector.collectFields(rootType, operation.selectionSet) else { return measured }
        measured.rootFields = root.count
        let total = measurer.measure(rootType, root, sizing: nil)
        measured.cost = total.cost
        measured.depth = total.depth
        measured.introspectionDepth = total.introspectionDepth
        return measured
    }
}

/// Counts aliases and directives over the operation and each fragment it
/// spreads, once per fragment.
private struct NodeCounter {
    let fragments: [String: FragmentDefinition]
    var aliases = 0
    var directives = 0
    private var visited: Set<String> = []

    init(fragments: [String: FragmentDefinition]) {
        self.fragments = fragments
    }

    mutating func count(_ directiveCount: Int) {
        directives = directives.addingSaturated(directiveCount)
    }

    mutating func visit(_ selectionSet: SelectionSet) {
        for index in selectionSet.selections.indices {
            switch selectionSet.selections[index] {
            case .field(let field):
                if field.alias != nil { aliases += 1 }
                count(field.directives.count)
                if let inner = field.selectionSet { visit(inner) }
            case .fragmentSpread(let spread):
                count(spread.directives.count)
                let name = spread.name.value
                guard visited.insert(name).inserted, let fragment = fragments[name] else { continue }
                count(fragment.directives.count)
                visit(fragment.selectionSet)
            case .inlineFragment(let inline):
                count(inline.directives.count)
                visit(inline.selectionSet)
            }
        }
    }
}

/// The cost, depth and introspection depth of selections, remembered per
/// object type, merged field set and sizing.
private struct Measurer {
    let schema: GraphQLSchema
    let collector: FieldCollector
    let variableValues: [String: GraphQLValue]
    let defaultListSize: Int
    private var measured: [Key: Measure] = [:]
    private var declarations: [ObjectIdentifier: FieldSizeDeclaration] = [:]

    init(schema: GraphQLSchema, collector: FieldCollector, variableValues: [String: GraphQLValue], defaultListSize: Int) {
        self.schema = schema
        self.collector = collector
        self.variableValues = variableValues
        self.defaultListSize = defaultListSize
    }

    struct Measure {
        var cost = 0
        var depth = 0
        var introspectionDepth = 0

        mutating func takeMax(_ other: Measure) {
            cost = max(cost, other.cost)
            depth = max(depth, other.depth)
            introspectionDepth = max(introspectionDepth, other.introspectionDepth)
        }
    }

    /// A connection's size, handed to the fields of its selections it sizes.
    struct Sizing: Hashable {
        var size: Int
        var fields: [String]
    }

    private struct Key: Hashable {
        var type: ObjectIdentifier
        var selectionSets: [Location]
        var sizing: Sizing?
    }

    /// The fields grouped on one object type.
    mutating func measure(_ objectType: GraphQLNamedType, _ grouped: FieldCollector.GroupedFields, sizing: Sizing?) -> Measure {
        var total = Measure()
        for nodes in grouped.fields {
            let field = measureField(objectType, nodes, sizing: sizing)
            total.cost = total.cost.addingSaturated(field.cost)
            total.depth = max(total.depth, field.depth)
            total.introspectionDepth = max(total.introspectionDepth, field.introspectionDepth)
        }
        return total
    }

    /// The selections of `nodes` on a composite type: on an abstract type,
    /// what its most expensive possible type would cost.
    private mutating func measureSelections(_ type: GraphQLNamedType, _ nodes: [Field], sizing: Sizing?) -> Measure {
        let key = Key(type: ObjectIdentifier(type), selectionSets: nodes.map { $0.selectionSet?.location ?? $0.location }, sizing: sizing)
        let remembered = !key.selectionSets.contains(.none)
        if remembered, let known = measured[key] { return known }
        var result = Measure()
        for objectType in type.kind == .object ? [type] : schema.possibleTypes(of: type) {
            // A directive that cannot be coerced is a field error the executor reports.
            guard let grouped = try? collector.collectSubfields(objectType, nodes) else { continue }
            result.takeMax(measure(objectType, grouped, sizing: sizing))
        }
        if remembered { measured[key] = result }
        return result
    }

    private mutating func measureField(_ objectType: GraphQLNamedType, _ nodes: [Field], sizing: Sizing?) -> Measure {
        let name = nodes[0].name.value
        if name == "__typename" { return Measure(cost: 0, depth: 1) }
        if name == "__schema" || name == "__type" {
            return Measure(cost: 1, depth: 1, introspectionDepth: introspectionDepth(nodes))
        }
        guard let field = schema.field(named: name, on: objectType) else { return Measure() }
        let declaration = declaration(of: field)
        var result = Measure(cost: declaration.weight, depth: 1)
        let named = field.type.namedType
        guard named.kind == .object || named.kind == .interface || named.kind == .union else { return result }
        let sliced = declaration.slicingSize(field, nodes[0], variableValues)
        var multiplier = 1
        var inner: Sizing?
        if field.type.isList {
            multiplier = sliced ?? sizing.flatMap { $0.fields.contains(name) ? $0.size : nil } ?? declaration.assumedSize ?? defaultListSize
        } else if !declaration.slicingArguments.isEmpty || !declaration.sizedFields.isEmpty {
            inner = Sizing(size: sliced ?? declaration.assumedSize ?? defaultListSize, fields: declaration.sizedFields)
        }
        let selections = measureSelections(named, nodes, sizing: inner)
        result.cost = result.cost.addingSaturated(selections.cost.multipliedSaturated(by: multiplier))
        result.depth += selections.depth
        return result
    }

    /// What the schema declares about a field's size and weight, read once per field.
    private mutating func declaration(of field: GraphQLField) -> FieldSizeDeclaration {
        let identity = ObjectIdentifier(field)
        if let known = declarations[identity] { return known }
        let declaration = FieldSizeDeclaration(field)
        declarations[identity] = declaration
        return declaration
    }

    /// The deepest nesting of `fields`, `interfaces`, `possibleTypes` and
    /// `inputFields` below an introspection root field, over the document's
    /// nodes (introspection types are fixed, so no type is needed).
    private func introspectionDepth(_ nodes: [Field]) -> Int {
        var deepest = 0
        var memo: [Location: Int] = [:]
        func depth(of selectionSet: SelectionSet, _ visiting: inout Set<String>) -> Int {
            if selectionSet.location != .none, let known = memo[selectionSet.location] { return known }
            var result = 0
            for index in selectionSet.selections.indices {
                switch selectionSet.selections[index] {
                case .field(let field):
                    guard let inner = field.selectionSet else { continue }
                    let own = ["fields", "interfaces", "possibleTypes", "inputFields"].contains(field.name.value) ? 1 : 0
                    result = max(result, own + depth(of: inner, &visiting))
                case .fragmentSpread(let spread):
                    let name = spread.name.value
                    guard let fragment = collector.fragments[name], visiting.insert(name).inserted else { continue }
                    result = max(result, depth(of: fragment.selectionSet, &visiting))
                    visiting.remove(name)
                case .inlineFragment(let inline):
                    result = max(result, depth(of: inline.selectionSet, &visiting))
                }
            }
            if selectionSet.location != .none { memo[selectionSet.location] = result }
            return result
        }
        var visiting: Set<String> = []
        for node in nodes {
            if let selectionSet = node.selectionSet { deepest = max(deepest, depth(of: selectionSet, &visiting)) }
        }
        return deepest
    }
}

/// What a field's definition declares about how many objects it returns
/// and what it costs: `@cost` and `@listSize`, and the conventions for
/// fields with `first` or `last` arguments (they slice by them; one that is
/// not itself a list, a Relay connection, sizes its `edges` and `nodes`).
struct FieldSizeDeclaration {
    var weight = 1
    var assumedSize: Int?
    var slicingArguments: [String] = []
    var sizedFields: [String] = []

    init(_ field: GraphQLField) {
        let conventional = field.arguments.map(\.name).filter { $0 == "first" || $0 == "last" }
        slicingArguments = conventional
        if !conventional.isEmpty && !field.type.isList { sizedFields = ["edges", "nodes"] }
        for directive in field.definition?.directives ?? [] {
            switch directive.name.value {
            case "cost":
                for argument in directive.arguments where argument.name.value == "weight" {
                    if case .int(let weight) = argument.value, let value = Int(weight.value) { self.weight = max(value, 0) }
                }
            case "listSize":
                for argument in directive.arguments {
                    switch (argument.name.value, argument.value) {
                    case ("assumedSize", .int(let size)): assumedSize = Int(size.value).map { max($0, 0) }
                    case ("slicingArguments", .list(let names)): slicingArguments = Self.strings(names)
                    case ("sizedFields", .list(let names)): sizedFields = Self.strings(names)
                    default: break
                    }
                }
            default: continue
            }
        }
    }

    private static func strings(_ list: ListValue) -> [String] {
        list.values.compactMap { if case .string(let string) = $0 { string.value } else { nil } }
    }

    /// The largest slicing argument (a literal, a variable, or the
    /// argument's default value), if any has a value.
    func slicingSize(_ field: GraphQLField, _ node: Field, _ variableValues: [String: GraphQLValue]) -> Int? {
        var size: Int?
        for name in slicingArguments {
            var given: GraphQLValue?
            if let argument = node.arguments.first(where: { $0.name.value == name }) {
                switch argument.value {
                case .int(let literal): given = Int(literal.value).map(GraphQLValue.int)
                case .variable(let variable): given = variableValues[variable.name.value]
                default: break
                }
            }
            if given == nil { given = field.argument(named: name)?.defaultValue }
            if case .int(let value)? = given { size = max(size ?? 0, max(value, 0)) }
        }
        return size
    }

    /// How many objects the field returns, for what its value will hold:
    /// its slicing argument, else its assumed size, else `defaultListSize`,
    /// for a list or a connection; 1 for anything else.
    func expectedObjects(_ field: GraphQLField, _ node: Field, _ variableValues: [String: GraphQLValue], defaultListSize: Int) -> Int {
        guard field.type.isList || !slicingArguments.isEmpty || !sizedFields.isEmpty else { return 1 }
        return max(1, slicingSize(field, node, variableValues) ?? assumedSize ?? defaultListSize)
    }
}

extension Int {
    func addingSaturated(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }

    func multipliedSaturated(by other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? .max : product
    }
}
