/// Lone Anonymous Operation (spec §5.2.2.1): an operation without a name
/// must be the only one in the document.
final class LoneAnonymousOperationRule: ValidationRule {
    override class var hooks: ValidationHooks { [.document, .operationDefinition] }

    private var operationCount = 0

    override func enterDocument(_ node: Document) -> VisitAction {
        operationCount = node.definitions.filter { if case .operation = $0 { true } else { false } }.count
        return .continue
    }

    override func enterOperationDefinition(_ node: OperationDefinition) -> VisitAction {
        if node.name == nil && operationCount > 1 {
            context.report("This anonymous operation must be the only defined operation.", node.location)
        }
        return .continue
    }
}
