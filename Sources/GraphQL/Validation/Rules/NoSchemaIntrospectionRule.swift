/// graphql-js's NoSchemaIntrospectionCustomRule, for servers that switch
/// introspection off: no field whose type is an introspection type
/// (`__schema`, `__type`, and each field below them). `__typename` stays,
/// since clients need it to tell the members of abstract types apart.
/// Not one of the `specifiedRules`; a server adds it.
public final class NoSchemaIntrospectionRule: ValidationRule {
    /// The rules a server validates with: the specified ones, and this one
    /// when introspection is switched off.
    public static func serverRules(allowingIntrospection: Bool) -> [ValidationRule.Type] {
        allowingIntrospection ? specifiedRules : specifiedRules + [NoSchemaIntrospectionRule.self]
    }

    override class var hooks: ValidationHooks { [.field] }

    override func enterField(_ node: Field) -> VisitAction {
        guard let type = context.typeInfo.type?.namedType, type.name.hasPrefix("__") else {
            return .continue
        }
        context.report(
            "GraphQL introspection has been disabled, but the requested query contained the field \"\(node.name.value)\".",
            node.location
        )
        return .continue
    }
}
