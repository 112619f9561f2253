/// Executable Definitions (spec §5.1.1): a request holds only operations and fragments.
final class ExecutableDefinitionsRule: ValidationRule {
    override class var hooks: ValidationHooks { [.document] }

    override func enterDocument(_ node: Document) -> VisitAction {
        for definition in node.definitions {
            let name: String
            switch definition {
            case .operation, .fragment: continue
            case .schema, .schemaExtension: name = "schema"
            case .type(let type): name = "\"\(type.name.value)\""
            case .typeExtension(let type): name = "\"\(type.name.value)\""
            case .directive(let directive): name = "\"\(directive.name.value)\""
            }
            context.report("The \(name) definition is not executable.", definition.location)
        }
        return .skip
    }
}
