/// Fragment Spread Type Existence and Variable types (spec §5.5.1.2,
/// §5.8.2): every type a document names exists in the schema.
final class KnownTypeNamesRule: ValidationRule {
    override class var hooks: ValidationHooks { [.namedType] }

    private lazy var definedTypes: Set<String> = {
        var names: Set<String> = []
        for case .type(let type) in context.document.definitions { names.insert(type.name.value) }
        return names
    }()

    private static let standardTypeNames = [
        "String", "Int", "Float", "Boolean", "ID",
        "__Schema", "__Directive", "__DirectiveLocation", "__Type", "__Field", "__InputValue", "__EnumValue", "__TypeKind",
    ]

    override func enterNamedType(_ node: NamedType, inTypeSystemDefinition: Bool) -> VisitAction {
        let name = node.name.value
        guard context.schema.type(named: name) == nil, !definedTypes.contains(name) else { return .continue }
        if inTypeSystemDefinition && Self.standardTypeNames.contains(name) { return .continue }
        var candidates = context.schema.types.map(\.name) + definedTypes.sorted()
        if inTypeSystemDefinition { candidates = Self.standardTypeNames + candidates }
        let suggestions = Suggestions.list(for: name, from: candidates)
        context.report("Unknown type \"\(name)\"." + Suggestions.didYouMean(suggestions), node.location)
        return .continue
    }
}
