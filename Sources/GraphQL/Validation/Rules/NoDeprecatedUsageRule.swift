/// graphql-js's NoDeprecatedCustomRule: each use of a deprecated field,
/// argument, input field or enum value, with its reason. Not one of the
/// `specifiedRules` (using a deprecated element is allowed); editors run it
/// to warn.
public final class NoDeprecatedUsageRule: ValidationRule {
    override class var hooks: ValidationHooks { [.field, .argument, .objectField, .scalarValue] }

    override func enterField(_ node: Field) -> VisitAction {
        let typeInfo = context.typeInfo
        if let field = typeInfo.fieldDefinition, let reason = field.deprecationReason, let parent = typeInfo.parentType {
            context.report("The field \(parent.name).\(field.name) is deprecated. \(reason)", node.location)
        }
        return .continue
    }

    override func enterArgument(_ node: Argument) -> VisitAction {
        let typeInfo = context.typeInfo
        guard let argument = typeInfo.argument, let reason = argument.deprecationReason else { return .continue }
        if let directive = typeInfo.directive {
            context.report(
                "Directive \"@\(directive.name)\" argument \"\(argument.name)\" is deprecated. \(reason)", node.location
            )
        } else if let parent = typeInfo.parentType, let field = typeInfo.fieldDefinition {
            context.report(
                "Field \"\(parent.name).\(field.name)\" argument \"\(argument.name)\" is deprecated. \(reason)", node.location
            )
        }
        return .continue
    }

    override func enterObjectField(_ node: ObjectField) -> VisitAction {
        guard let object = context.typeInfo.parentInputType?.namedType, object.kind == .inputObject,
            let field = object.inputField(named: node.name.value), let reason = field.deprecationReason
        else { return .continue }
        context.report("The input field \(object.name).\(field.name) is deprecated. \(reason)", node.location)
        return .continue
    }

    override func enterScalarValue(_ node: Value) -> VisitAction {
        guard case .enum = node, let value = context.typeInfo.enumValue, let reason = value.deprecationReason,
            let type = context.typeInfo.inputType?.namedType
        else { return .continue }
        context.report("The enum value \"\(type.name).\(value.name)\" is deprecated. \(reason)", node.location)
        return .continue
    }
}
