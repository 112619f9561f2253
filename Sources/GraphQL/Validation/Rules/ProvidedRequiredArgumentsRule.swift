/// Required Arguments (spec §5.4.2.1): non-null arguments without a default must be given.
final class ProvidedRequiredArgumentsRule: ValidationRule {
    override class var hooks: ValidationHooks { [.field, .directive] }

    override func leaveField(_ node: Field) {
        guard let field = context.typeInfo.fieldDefinition else { return }
        // Few fields have required arguments, and few arguments are given:
        // a scan of them, not a set made for every field.
        for argument in field.arguments where argument.isRequired && !node.arguments.contains(where: { $0.name.value == argument.name }) {
            context.report(
                "Field \"\(field.name)\" argument \"\(argument.name)\" of type \"\(argument.type)\" is required, but it was not provided.",
                node.location
            )
        }
    }

    override func leaveDirective(_ node: Directive) {
        guard let required = context.directive(named: node.name.value)?.requiredArguments, !required.isEmpty else { return }
        for argument in required where !node.arguments.contains(where: { $0.name.value == argument.name }) {
            context.report(
                "Directive \"@\(node.name.value)\" argument \"\(argument.name)\" of type \"\(argument.type)\" is required, but it was not provided.",
                node.location
            )
        }
    }
}
