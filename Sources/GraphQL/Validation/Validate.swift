/// Validation (spec §5): every rule against a document, in one traversal,
/// errors in the order graphql-js reports them. Stops after `maxErrors`
/// with graphql-js's "Too many validation errors" error.
public func validate(
    schema: GraphQLSchema,
    document: Document,
    source: Source,
    rules: [ValidationRule.Type] = specifiedRules,
    maxErrors: Int = 100
) -> [GraphQLError] {
    let context = ValidationContext(schema: schema, document: document, source: source, maxErrors: maxErrors)
    var walker = ValidationWalker(context: context, rules: rules.map { $0.init(context: context) })
    walker.walk(document)
    return context.errors
}

/// `validate`, each error with the name of the rule that found it, as
/// graphql-js names its rules (`FieldsOnCorrectTypeRule`); nil for the
/// "Too many validation errors" error, which no rule reports. For tools
/// that sort or filter by rule (`huddle validate --format sarif`).
public func validateNamingRules(
    schema: GraphQLSchema,
    document: Document,
    source: Source,
    rules: [ValidationRule.Type] = specifiedRules,
    maxErrors: Int = 100
) -> [(error: GraphQLError, rule: String?)] {
    let context = ValidationContext(schema: schema, document: document, source: source, maxErrors: maxErrors)
    context.recordsRules = true
    var walker = ValidationWalker(context: context, rules: rules.map { $0.init(context: context) })
    walker.walk(document)
    let names = rules.map { String(describing: $0) }
    return zip(context.errors, context.errorRules).map { error, rule in (error, rule.map { names[$0] }) }
}

/// The rules of spec §5 in graphql-js's order (with graphql-js 17's rules
/// of incremental delivery, which act only where the schema has `@defer`
/// and `@stream`), then the September 2025 additions.
public let specifiedRules: [ValidationRule.Type] = [
    ExecutableDefinitionsRule.self,
    UniqueOperationNamesRule.self,
    LoneAnonymousOperationRule.self,
    SingleFieldSubscriptionsRule.self,
    KnownTypeNamesRule.self,
    FragmentsOnCompositeTypesRule.self,
    VariablesAreInputTypesRule.self,
    ScalarLeafsRule.self,
    FieldsOnCorrectTypeRule.self,
    UniqueFragmentNamesRule.self,
    KnownFragmentNamesRule.self,
    NoUnusedFragmentsRule.self,
    PossibleFragmentSpreadsRule.self,
    NoFragmentCyclesRule.self,
    UniqueVariableNamesRule.self,
    NoUndefinedVariablesRule.self,
    NoUnusedVariablesRule.self,
    KnownDirectivesRule.self,
    UniqueDirectivesPerLocationRule.self,
    DeferStreamDirectiveOnRootFieldRule.self,
    DeferStreamDirectiveOnValidOperationsRule.self,
    DeferStreamDirectiveLabelRule.self,
    StreamDirectiveOnListFieldRule.self,
    KnownArgumentNamesRule.self,
    UniqueArgumentNamesRule.self,
    ValuesOfCorrectTypeRule.self,
    ProvidedRequiredArgumentsRule.self,
    VariablesInAllowedPositionRule.self,
    OverlappingFieldsCanBeMergedRule.self,
    UniqueInputFieldNamesRule.self,
    KnownOperationTypesRule.self,
]

/// What a rule's enter hook asks of the traversal.
public enum VisitAction {
    case `continue`
    /// Do not call this rule for the node's children (other rules still see them).
    case skip
}

/// The kinds of node a rule has hooks for: the traversal calls a rule only
/// at those, as graphql-js calls a visitor only for the kinds it names.
public struct ValidationHooks: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let document = ValidationHooks(rawValue: 1 << 0)
    public static let operationDefinition = ValidationHooks(rawValue: 1 << 1)
    public static let variableDefinition = ValidationHooks(rawValue: 1 << 2)
    public static let selectionSet = ValidationHooks(rawValue: 1 << 3)
    public static let field = ValidationHooks(rawValue: 1 << 4)
    public static let argument = ValidationHooks(rawValue: 1 << 5)
    public static let fragmentSpread = ValidationHooks(rawValue: 1 << 6)
    public static let inlineFragment = ValidationHooks(rawValue: 1 << 7)
    public static let fragmentDefinition = ValidationHooks(rawValue: 1 << 8)
    public static let directive = ValidationHooks(rawValue: 1 << 9)
    public static let namedType = ValidationHooks(rawValue: 1 << 10)
    public static let listValue = ValidationHooks(rawValue: 1 << 11)
    public static let objectValue = ValidationHooks(rawValue: 1 << 12)
    public static let objectField = ValidationHooks(rawValue: 1 << 13)
    public static let scalarValue = ValidationHooks(rawValue: 1 << 14)
    public static let nullValue = ValidationHooks(rawValue: 1 << 15)
    static let count = 16
}

/// A validation rule: hooks called as the traversal enters and leaves each
/// kind of node. Every hook does nothing unless the rule implements it; a
/// rule lists the kinds it implements in `hooks`.
public class ValidationRule {
    /// Unowned and unchecked: a checked unowned reference took an atomic
    /// strong retain (and a release) at every use, hundreds a document.
    /// `validate` holds the context while the walk calls the hooks, so a
    /// rule may use it only in a hook, and is never kept past `validate`.
    unowned(unsafe) let context: ValidationContext

    required init(context: ValidationContext) {
        self.context = context
    }

    /// The kinds of node this rule has enter or leave hooks for.
    class var hooks: ValidationHooks { [] }

    func enterDocument(_ node: Document) -> VisitAction { .continue }
    func leaveDocument(_ node: Document) {}
    func enterOperationDefinition(_ node: OperationDefinition) -> VisitAction { .continue }
    func leaveOperationDefinition(_ node: OperationDefinition) {}
    func enterVariableDefinition(_ node: VariableDefinition) -> VisitAction { .continue }
    func leaveVariableDefinition(_ node: VariableDefinition) {}
    func enterSelectionSet(_ node: SelectionSet) -> VisitAction { .continue }
    func leaveSelectionSet(_ node: SelectionSet) {}
    func enterField(_ node: Field) -> VisitAction { .continue }
    func leaveField(_ node: Field) {}
    func enterArgument(_ node: Argument) -> VisitAction { .continue }
    func leaveArgument(_ node: Argument) {}
    func enterFragmentSpread(_ node: FragmentSpread) -> VisitAction { .continue }
    func enterInlineFragment(_ node: InlineFragment) -> VisitAction { .continue }
    func leaveInlineFragment(_ node: InlineFragment) {}
    func enterFragmentDefinition(_ node: FragmentDefinition) -> VisitAction { .continue }
    func leaveFragmentDefinition(_ node: FragmentDefinition) {}
    /// `location` is where the directive is applied.
    func enterDirective(_ node: Directive, location: DirectiveLocation) -> VisitAction { .continue }
    func leaveDirective(_ node: Directive) {}
    /// `inTypeSystemDefinition`: the reference is part of SDL in the document.
    func enterNamedType(_ node: NamedType, inTypeSystemDefinition: Bool) -> VisitAction { .continue }
    func enterListValue(_ node: ListValue) -> VisitAction { .continue }
    func leaveListValue(_ node: ListValue) {}
    func enterObjectValue(_ node: ObjectValue) -> VisitAction { .continue }
    func leaveObjectValue(_ node: ObjectValue) {}
    func enterObjectField(_ node: ObjectField) -> VisitAction { .continue }
    func leaveObjectField(_ node: ObjectField) {}
    /// Int, Float, String, Boolean and enum literals.
    func enterScalarValue(_ node: Value) -> VisitAction { .continue }
    func enterNullValue(_ node: NullValue) -> VisitAction { .continue }
}

/// Walks a document in graphql-js's visiting order, keeping TypeInfo up to
/// date and calling every rule at every node: TypeInfo first on the way in,
/// last on the way out.
struct ValidationWalker {
    let context: ValidationContext
    private let rules: [ValidationRule]
    /// `rules`, unretained (`rules` holds them): a hook called through a
    /// retained rule cost a retain and a release for every call.
    private let unretainedRules: [Unmanaged<ValidationRule>]
    /// For each kind of node, the indices of the rules with hooks for it, in
    /// rule order: `hookRules[hookRanges[kind]]`. One flat list, read by
    /// index: iterating a list of lists retained the inner list at every node.
    private let hookRules: [Int]
    private let hookRanges: [Range<Int>]
    /// Whether each rule is skipping the subtree it asked to skip.
    private var isSkipping: [Bool]
    /// The rules skipping now, with the depth of the node they skip.
    private var skipStack: [(rule: Int, depth: Int)] = []
    private var depth = 0
    private var isInOperation = false
    private var isInVariableDefinition = false

    init(context: ValidationContext, rules: [ValidationRule]) {
        self.context = context
        self.rules = rules
        unretainedRules = rules.map { Unmanaged.passUnretained($0) }
        let specified = Self.specifiedRulesByHook
        let areSpecified =
            rules.count == specifiedRules.count
            && zip(rules, specifiedRules).allSatisfy { ObjectIdentifier(type(of: $0)) == ObjectIdentifier($1) }
        (hookRules, hookRanges) = areSpecified ? specified : Self.rulesByHook(rules.map { type(of: $0) })
        isSkipping = Array(repeating: false, count: rules.count)
    }

    /// The table for the specified rules, which nearly every validation
    /// uses: made once, not for each document.
    private static let specifiedRulesByHook = rulesByHook(specifiedRules)

    private static func rulesByHook(_ rules: [ValidationRule.Type]) -> (rules: [Int], ranges: [Range<Int>]) {
        var flat: [Int] = []
        var ranges: [Range<Int>] = []
        for bit in 0..<ValidationHooks.count {
            let kind = ValidationHooks(rawValue: 1 << UInt32(bit))
            let start = flat.count
            for (index, rule) in rules.enumerated() where rule.hooks.contains(kind) {
                flat.append(index)
            }
            ranges.append(start..<flat.count)
        }
        return (flat, ranges)
    }

    private mutating func enter(_ kind: ValidationHooks, _ hook: (ValidationRule) -> VisitAction) {
        depth += 1
        for position in hookRanges[kind.rawValue.trailingZeroBitCount] {
            let index = hookRules[position]
            if isSkipping[index] { continue }
            context.currentRule = index
            if unretainedRules[index]._withUnsafeGuaranteedRef(hook) == .skip {
                isSkipping[index] = true
                skipStack.append((index, depth))
            }
            if context.isAborted { return }
        }
    }

    private mutating func leave(_ kind: ValidationHooks, _ hook: (ValidationRule) -> Void) {
        if !context.isAborted {
            for position in hookRanges[kind.rawValue.trailingZeroBitCount] {
                let index = hookRules[position]
                if isSkipping[index] { continue }
                context.currentRule = index
                unretainedRules[index]._withUnsafeGuaranteedRef(hook)
            }
        }
        // A rule that skipped this node is called again from its next sibling on.
        while let last = skipStack.last, last.depth == depth {
            isSkipping[last.rule] = false
            skipStack.removeLast()
        }
        depth -= 1
    }

    // MARK: Documents and definitions

    mutating func walk(_ document: Document) {
        enter(.document) { $0.enterDocument(document) }
        // Lists are read by index throughout, as in the rules' loops, where
        // `for … in` copied each element (a retain of every list it holds).
        for index in document.definitions.indices {
            if context.isAborted { return }
            switch document.definitions[index] {
            case .operation(let node): walk(node)
            case .fragment(let node): walk(node)
            default: walkTypeSystem(document.definitions[index])
            }
        }
        leave(.document) { $0.leaveDocument(document) }
    }

    private mutating func walk(_ node: OperationDefinition) {
        context.typeInfo.enterOperation(node)
        context.beginOperation()
        isInOperation = true
        enter(.operationDefinition) { $0.enterOperationDefinition(node) }
        for index in node.variableDefinitions.indices { walk(node.variableDefinitions[index]) }
        walk(node.directives, location: DirectiveLocation(node.operation))
        walk(node.selectionSet)
        context.operationVariableUsagesAreComplete = true
        leave(.operationDefinition) { $0.leaveOperationDefinition(node) }
        isInOperation = false
        context.typeInfo.leaveOperation()
    }

    private mutating func walk(_ node: VariableDefinition) {
        isInVariableDefinition = true
        defer { isInVariableDefinition = false }
        context.typeInfo.enterVariableDefinition(node)
        enter(.variableDefinition) { $0.enterVariableDefinition(node) }
        walk(node.type, inTypeSystemDefinition: false)
        if let defaultValue = node.defaultValue { walk(defaultValue) }
        walk(node.directives, location: .variableDefinition)
        leave(.variableDefinition) { $0.leaveVariableDefinition(node) }
        context.typeInfo.leaveVariableDefinition()
    }

    private mutating func walk(_ node: FragmentDefinition) {
        context.typeInfo.enterFragment(typeCondition: node.typeCondition)
        enter(.fragmentDefinition) { $0.enterFragmentDefinition(node) }
        walk(.named(node.typeCondition), inTypeSystemDefinition: false)
        walk(node.directives, location: .fragmentDefinition)
        walk(node.selectionSet)
        leave(.fragmentDefinition) { $0.leaveFragmentDefinition(node) }
        context.typeInfo.leaveFragment()
    }

    // MARK: Selections

    private mutating func walk(_ node: SelectionSet) {
        context.typeInfo.enterSelectionSet()
        enter(.selectionSet) { $0.enterSelectionSet(node) }
        for index in node.selections.indices {
            if context.isAborted { break }
            switch node.selections[index] {
            case .field(let field): walk(field)
            case .fragmentSpread(let spread): walk(spread)
            case .inlineFragment(let inline): walk(inline)
            }
        }
        leave(.selectionSet) { $0.leaveSelectionSet(node) }
        context.typeInfo.leaveSelectionSet()
    }

    private mutating func walk(_ node: Field) {
        context.typeInfo.enterField(node)
        enter(.field) { $0.enterField(node) }
        walk(node.arguments)
        walk(node.directives, location: .field)
        if let selectionSet = node.selectionSet { walk(selectionSet) }
        leave(.field) { $0.leaveField(node) }
        context.typeInfo.leaveField()
    }

    private mutating func walk(_ node: FragmentSpread) {
        enter(.fragmentSpread) { $0.enterFragmentSpread(node) }
        walk(node.directives, location: .fragmentSpread)
        leave(.fragmentSpread) { _ in }
    }

    private mutating func walk(_ node: InlineFragment) {
        context.typeInfo.enterFragment(typeCondition: node.typeCondition)
        enter(.inlineFragment) { $0.enterInlineFragment(node) }
        if let typeCondition = node.typeCondition { walk(.named(typeCondition), inTypeSystemDefinition: false) }
        walk(node.directives, location: .inlineFragment)
        walk(node.selectionSet)
        leave(.inlineFragment) { $0.leaveInlineFragment(node) }
        context.typeInfo.leaveFragment()
    }

    private mutating func walk(_ nodes: [Argument]) {
        for index in nodes.indices {
            let node = nodes[index]
            context.typeInfo.enterArgument(node)
            enter(.argument) { $0.enterArgument(node) }
            walk(node.value)
            leave(.argument) { $0.leaveArgument(node) }
            context.typeInfo.leaveArgument()
        }
    }

    private mutating func walk(_ nodes: [Directive], location: DirectiveLocation) {
        for index in nodes.indices {
            let node = nodes[index]
            context.typeInfo.enterDirective(node)
            enter(.directive) { $0.enterDirective(node, location: location) }
            walk(node.arguments)
            leave(.directive) { $0.leaveDirective(node) }
            context.typeInfo.leaveDirective()
        }
    }

    // MARK: Values and types

    private mutating func walk(_ node: Value) {
        switch node {
        case .variable(let variable):
            // No rule has a hook for variables; the operation's uses are
            // gathered here, so they need no walk of their own.
            if isInOperation && !isInVariableDefinition {
                context.operationVariableUsages.append(
                    .init(
                        node: variable, type: context.typeInfo.inputType, hasDefault: context.typeInfo.defaultValue != nil
                    ))
            }
        case .null(let null):
            enter(.nullValue) { $0.enterNullValue(null) }
            leave(.nullValue) { _ in }
        case .enum(let enumValue):
            context.typeInfo.enterEnumValue(enumValue)
            enter(.scalarValue) { $0.enterScalarValue(node) }
            leave(.scalarValue) { _ in }
            context.typeInfo.leaveEnumValue()
        case .int, .float, .string, .boolean:
            enter(.scalarValue) { $0.enterScalarValue(node) }
            leave(.scalarValue) { _ in }
        case .list(let list):
            context.typeInfo.enterListValue()
            enter(.listValue) { $0.enterListValue(list) }
            for index in list.values.indices { walk(list.values[index]) }
            leave(.listValue) { $0.leaveListValue(list) }
            context.typeInfo.leaveListValue()
        case .object(let object):
            enter(.objectValue) { $0.enterObjectValue(object) }
            for index in object.fields.indices {
                let field = object.fields[index]
                context.typeInfo.enterObjectField(field)
                enter(.objectField) { $0.enterObjectField(field) }
                walk(field.value)
                leave(.objectField) { $0.leaveObjectField(field) }
                context.typeInfo.leaveObjectField()
            }
            leave(.objectValue) { $0.leaveObjectValue(object) }
        }
    }

    private mutating func walk(_ node: TypeReference, inTypeSystemDefinition: Bool) {
        switch node {
        case .named(let named):
            enter(.namedType) { $0.enterNamedType(named, inTypeSystemDefinition: inTypeSystemDefinition) }
            leave(.namedType) { _ in }
        case .list(let list):
            walk(list.type, inTypeSystemDefinition: inTypeSystemDefinition)
        case .nonNull(let nonNull):
            walk(nonNull.type, inTypeSystemDefinition: inTypeSystemDefinition)
        }
    }

    // MARK: Type-system definitions in an executable document

    /// A type definition's or extension's parts, in graphql-js's visiting order.
    private mutating func typeSystemParts(_ parts: any TypeSystemParts, kind location: DirectiveLocation) {
        for interface in parts.interfaces { walk(.named(interface), inTypeSystemDefinition: true) }
        walk(parts.directives, location: location)
        for field in parts.fieldDefinitions {
            for argument in field.arguments {
                walk(argument.type, inTypeSystemDefinition: true)
                if let defaultValue = argument.defaultValue { walk(defaultValue) }
                walk(argument.directives, location: .argumentDefinition)
            }
            walk(field.type, inTypeSystemDefinition: true)
            walk(field.directives, location: .fieldDefinition)
        }
        for member in parts.unionMembers { walk(.named(member), inTypeSystemDefinition: true) }
        for value in parts.enumValues { walk(value.directives, location: .enumValue) }
        for field in parts.inputFields {
            walk(field.type, inTypeSystemDefinition: true)
            if let defaultValue = field.defaultValue { walk(defaultValue) }
            walk(field.directives, location: .inputFieldDefinition)
        }
    }

    /// SDL in a request is reported by ExecutableDefinitions; its type
    /// references and directives are still checked, as graphql-js checks them.
    private mutating func walkTypeSystem(_ definition: Definition) {
        func inputValues(_ values: [InputValueDefinition], location: DirectiveLocation) {
            for value in values {
                walk(value.type, inTypeSystemDefinition: true)
                if let defaultValue = value.defaultValue { walk(defaultValue) }
                walk(value.directives, location: location)
            }
        }
        func named(_ types: [NamedType]) {
            for type in types { walk(.named(type), inTypeSystemDefinition: true) }
        }
        switch definition {
        case .schema(let node):
            walk(node.directives, location: .schema)
            named(node.operationTypes.map(\.type))
        case .schemaExtension(let node):
            walk(node.directives, location: .schema)
            named(node.operationTypes.map(\.type))
        case .directive(let node):
            inputValues(node.arguments, location: .argumentDefinition)
        case .type(let type):
            typeSystemParts(type, kind: DirectiveLocation(type))
        case .typeExtension(let type):
            typeSystemParts(type, kind: DirectiveLocation(type))
        case .operation, .fragment:
            break
        }
    }
}

extension DirectiveLocation {
    /// Where a type definition's or extension's own directives stand.
    init(_ type: TypeDefinition) {
        switch type {
        case .scalar: self = .scalar
        case .object: self = .object
        case .interface: self = .interface
        case .union: self = .union
        case .enum: self = .enum
        case .inputObject: self = .inputObject
        }
    }

    init(_ type: TypeExtension) {
        switch type {
        case .scalar: self = .scalar
        case .object: self = .object
        case .interface: self = .interface
        case .union: self = .union
        case .enum: self = .enum
        case .inputObject: self = .inputObject
        }
    }

    init(_ operation: OperationType) {
        switch operation {
        case .query: self = .query
        case .mutation: self = .mutation
        case .subscription: self = .subscription
        }
    }
}
