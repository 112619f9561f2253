/// What the validation rules share while one document is validated: the
/// schema, the document, what TypeInfo knows at the current node, the errors
/// so far, and lookups over fragments and variable uses.
final class ValidationContext {
    let schema: GraphQLSchema
    let document: Document
    let source: Source
    let maxErrors: Int
    let typeInfo: TypeInfo
    private(set) var errors: [GraphQLError] = []
    /// The rule the traversal is calling, by its index in the rules.
    var currentRule = 0
    /// Whether `errorRules` is kept.
    var recordsRules = false
    /// With `recordsRules`, the rule of each error (nil for the limit's).
    private(set) var errorRules: [Int?] = []
    /// Set once `maxErrors` is passed: the traversal stops.
    private(set) var isAborted = false

    /// The document's fragments, in order, once one is looked up.
    private var fragments: [FragmentDefinition]?
    private var fragmentIndex: [String: Int]?
    private var variableUsageCache: [String: [VariableUsage]] = [:]
    /// Asked for by several rules, as graphql-js keeps them: each
    /// operation's fragments, by where the operation starts (nodes made
    /// without a source, all at `.none`, are not kept).
    private var referencedFragmentsCache: [Location: [FragmentDefinition]] = [:]
    /// The current operation's own variable uses, gathered by the main walk
    /// (complete once its selections are walked), and with those of its fragments.
    var operationVariableUsages: [VariableUsage] = []
    var operationVariableUsagesAreComplete = false
    private var recursiveUsages: [VariableUsage]?

    func beginOperation() {
        operationVariableUsages = []
        operationVariableUsagesAreComplete = false
        recursiveUsages = nil
    }

    init(schema: GraphQLSchema, document: Document, source: Source, maxErrors: Int) {
        self.schema = schema
        self.document = document
        self.source = source
        self.maxErrors = maxErrors
        typeInfo = TypeInfo(schema: schema)
    }

    /// Records an error at the start of each node's location, as graphql-js does.
    func report(_ message: String, _ locations: [Location]) {
        guard !isAborted else { return }
        if errors.count >= maxErrors {
            errors.append(GraphQLError(message: "Too many validation errors, error limit reached. Validation aborted."))
            if recordsRules { errorRules.append(nil) }
            isAborted = true
            return
        }
        errors.append(GraphQLError(message: message, locations: locations.map { source.location(at: $0.start) }))
        if recordsRules { errorRules.append(currentRule) }
    }

    func report(_ message: String, _ location: Location) {
        report(message, [location])
    }

    // MARK: Directives

    /// Directive definitions in the document itself (rare in requests), which
    /// stand in for the schema's of the same name, as in graphql-js.
    private lazy var documentDirectives: [String: DirectiveDefinition] = {
        var definitions: [String: DirectiveDefinition] = [:]
        for case .directive(let definition) in document.definitions { definitions[definition.name.value] = definition }
        return definitions
    }()

    /// What a directive name refers to: a definition in the document, else the schema's directive.
    func directive(named name: String) -> DirectiveReference? {
        if !documentDirectives.isEmpty, let definition = documentDirectives[name] { return .document(definition) }
        return schema.directive(named: name).map(DirectiveReference.schema)
    }

    enum DirectiveReference {
        case schema(GraphQLDirective)
        case document(DirectiveDefinition)

        var locations: [DirectiveLocation] {
            switch self {
            case .schema(let directive): directive.locations
            case .document(let definition): definition.locations.compactMap { DirectiveLocation(rawValue: $0.value) }
            }
        }

        var isRepeatable: Bool {
            switch self {
            case .schema(let directive): directive.isRepeatable
            case .document(let definition): definition.isRepeatable
            }
        }

        var argumentNames: [String] {
            switch self {
            case .schema(let directive): directive.arguments.map(\.name)
            case .document(let definition): definition.arguments.map(\.name.value)
            }
        }

        /// Required arguments (non-null, no default) with their types as printed in messages.
        var requiredArguments: [(name: String, type: String)] {
            switch self {
            case .schema(let directive):
                return directive.arguments.filter(\.isRequired).map { ($0.name, $0.type.description) }
            case .document(let definition):
                return definition.arguments.filter { $0.type.isNonNullReference && $0.defaultValue == nil }
                    .map { ($0.name.value, Printer.print($0.type)) }
            }
        }
    }

    // MARK: Fragments

    func fragment(named name: String) -> FragmentDefinition? {
        if fragments == nil {
            var list: [FragmentDefinition] = []
            for case .fragment(let fragment) in document.definitions { list.append(fragment) }
            fragments = list
            // A few are found by comparing names, which costs less than
            // hashing one; more, by an index made once.
            if list.count > NameSet.scanLimit {
                var index: [String: Int] = [:]
                // The last of several same-named fragments wins, as in graphql-js's object.
                for (position, fragment) in list.enumerated() { index[fragment.name.value] = position }
                fragmentIndex = index
            }
        }
        if let fragmentIndex { return fragmentIndex[name].map { fragments![$0] } }
        return fragments!.last { $0.name.value == name }
    }

    /// The fragment spreads in a selection set, nested ones included, in
    /// graphql-js's order (a stack of selection sets to visit).
    func fragmentSpreads(in selectionSet: SelectionSet) -> [FragmentSpread] {
        var spreads: [FragmentSpread] = []
        var setsToVisit = [selectionSet]
        while let set = setsToVisit.popLast() {
            for index in set.selections.indices {
                switch set.selections[index] {
                case .fragmentSpread(let spread): spreads.append(spread)
                case .field(let field): if let nested = field.selectionSet { setsToVisit.append(nested) }
                case .inlineFragment(let inline): setsToVisit.append(inline.selectionSet)
                }
            }
        }
        return spreads
    }

    /// Every fragment an operation uses, directly or through other fragments.
    func recursivelyReferencedFragments(_ operation: OperationDefinition) -> [FragmentDefinition] {
        let key = operation.location
        if key != .none, let cached = referencedFragmentsCache[key] { return cached }
        let fragments = referencedFragments(operation)
        if key != .none { referencedFragmentsCache[key] = fragments }
        return fragments
    }

    private func referencedFragments(_ operation: OperationDefinition) -> [FragmentDefinition] {
        var fragments: [FragmentDefinition] = []
        var collected = NameSet()
        var nodesToVisit = [operation.selectionSet]
        while let node = nodesToVisit.popLast() {
            for spread in fragmentSpreads(in: node) {
                let name = spread.name.value
                guard collected.insert(name), let fragment = fragment(named: name) else { continue }
                fragments.append(fragment)
                nodesToVisit.append(fragment.selectionSet)
            }
        }
        return fragments
    }

    // MARK: Variables

    struct VariableUsage {
        var node: Variable
        /// The input type expected where the variable is used, if known.
        var type: GraphQLType?
        /// Whether that position has a default value of its own.
        var hasDefault: Bool
    }

    /// The variables an operation uses, in its own selections and in every
    /// fragment it reaches.
    func recursiveVariableUsages(_ operation: OperationDefinition) -> [VariableUsage] {
        if let recursiveUsages { return recursiveUsages }
        precondition(operationVariableUsagesAreComplete, "variable uses are asked for before the operation is walked")
        var usages = operationVariableUsages
        for fragment in recursivelyReferencedFragments(operation) {
            if let cached = variableUsageCache[fragment.name.value] {
                usages += cached
                continue
            }
            // Most fragments use no variable: a scan of their values says
            // so without walking them with a TypeInfo.
            let fragmentUsages =
                VariableScan.uses(fragment)
                ? VariableUsageCollector(schema: schema, initialType: nil).collect(fragment) : []
            variableUsageCache[fragment.name.value] = fragmentUsages
            usages += fragmentUsages
        }
        recursiveUsages = usages
        return usages
    }
}

/// Whether a fragment has a variable anywhere in its values.
private enum VariableScan {
    static func uses(_ fragment: FragmentDefinition) -> Bool {
        uses(fragment.directives) || uses(fragment.selectionSet)
    }

    private static func uses(_ selectionSet: SelectionSet) -> Bool {
        selectionSet.selections.contains { selection in
            switch selection {
            case .field(let field):
                field.arguments.contains { uses($0.value) } || uses(field.directives)
                    || (field.selectionSet.map(uses) ?? false)
            case .fragmentSpread(let spread): uses(spread.directives)
            case .inlineFragment(let inline): uses(inline.directives) || uses(inline.selectionSet)
            }
        }
    }

    private static func uses(_ directives: [Directive]) -> Bool {
        directives.contains { directive in directive.arguments.contains { uses($0.value) } }
    }

    private static func uses(_ value: Value) -> Bool {
        switch value {
        case .variable: true
        case .list(let list): list.values.contains(where: uses)
        case .object(let object): object.fields.contains { uses($0.value) }
        case .int, .float, .string, .boolean, .null, .enum: false
        }
    }
}

/// Finds variable uses with the type expected at each, walking a fragment
/// with a TypeInfo of its own, as if it stood alone.
private struct VariableUsageCollector {
    let typeInfo: TypeInfo
    var usages: [ValidationContext.VariableUsage] = []

    init(schema: GraphQLSchema, initialType: GraphQLType?) {
        typeInfo = TypeInfo(schema: schema, initialType: initialType)
    }

    consuming func collect(_ fragment: FragmentDefinition) -> [ValidationContext.VariableUsage] {
        typeInfo.enterFragment(typeCondition: fragment.typeCondition)
        directives(fragment.directives)
        selectionSet(fragment.selectionSet)
        typeInfo.leaveFragment()
        return usages
    }

    private mutating func selectionSet(_ node: SelectionSet) {
        typeInfo.enterSelectionSet()
        for index in node.selections.indices {
            switch node.selections[index] {
            case .field(let field):
                typeInfo.enterField(field)
                arguments(field.arguments)
                directives(field.directives)
                if let nested = field.selectionSet { selectionSet(nested) }
                typeInfo.leaveField()
            case .fragmentSpread(let spread):
                directives(spread.directives)
            case .inlineFragment(let inline):
                typeInfo.enterFragment(typeCondition: inline.typeCondition)
                directives(inline.directives)
                selectionSet(inline.selectionSet)
                typeInfo.leaveFragment()
            }
        }
        typeInfo.leaveSelectionSet()
    }

    private mutating func directives(_ nodes: [Directive]) {
        for directive in nodes {
            typeInfo.enterDirective(directive)
            arguments(directive.arguments)
            typeInfo.leaveDirective()
        }
    }

    private mutating func arguments(_ nodes: [Argument]) {
        for argument in nodes {
            typeInfo.enterArgument(argument)
            value(argument.value)
            typeInfo.leaveArgument()
        }
    }

    private mutating func value(_ node: Value) {
        switch node {
        case .variable(let variable):
            usages.append(.init(node: variable, type: typeInfo.inputType, hasDefault: typeInfo.defaultValue != nil))
        case .list(let list):
            typeInfo.enterListValue()
            for item in list.values { value(item) }
            typeInfo.leaveListValue()
        case .object(let object):
            for field in object.fields {
                typeInfo.enterObjectField(field)
                value(field.value)
                typeInfo.leaveObjectField()
            }
        case .enum(let enumValue):
            typeInfo.enterEnumValue(enumValue)
            typeInfo.leaveEnumValue()
        case .int, .float, .string, .boolean, .null:
            break
        }
    }
}
