/// Required Arguments (spec §5.4.2.1): non-null arguments without a default must be given.
final class ProvidedRequiredArgumentsRule: ValidationRule {
    override class var hooks: ValidationHooks { [.field, .directive] }

    private lazy var requiredDirectiveArguments: [String: [(name: String, type: String)]] = {
        var map: [String: [(name: String, type: String)]] = [:]
        for directive in context.schema.directives {
            map[directive.name] = directive.arguments.filter(\.isRequired).map { ($0.name, $0.type.description) }
        }
        for case .directive(let definition) in context.document.definitions {
            map[definition.name.value] = definition.arguments.filter { argument in
                if case .nonNull = argument.type { return argument.defaultValue == nil }
                return false
            }.map { ($0.name.value, Printer.print($0.type)) }
        }
        return map
    }()

    override func leaveField(_ node: Field) {
        guard let field = context.typeInfo.fieldDefinition else { return }
        let provided = Set(node.arguments.map(\.name.value))
        for argument in field.arguments where !provided.contains(argument.name) && argument.isRequired {
            context.report(
                "Field \"\(field.name)\" argument \"\(argument.name)\" of type \"\(argument.type)\" is required, but it was not provided.",
                node.location
            )
        }
    }

    override func leaveDirective(_ node: Directive) {
        guard let required = requiredDirectiveArguments[node.name.value] else { return }
        let provided = Set(node.arguments.map(\.name.value))
        for argument in required where !provided.contains(argument.name) {
            context.report(
                "Directive \"@\(node.name.value)\" argument \"\(argument.name)\" of type \"\(argument.type)\" is required, but it was not provided.",
                node.location
            )
        }
    }
}
