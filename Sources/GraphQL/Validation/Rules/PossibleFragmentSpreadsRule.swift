/// Fragment Spread Is Possible (spec §5.5.2.3): some object must be able to
/// be of both the fragment's type and the type it is spread in.
final class PossibleFragmentSpreadsRule: ValidationRule {
    override class var hooks: ValidationHooks { [.inlineFragment, .fragmentSpread] }

    override func enterInlineFragment(_ node: InlineFragment) -> VisitAction {
        guard let fragmentType = context.typeInfo.type?.namedType, fragmentType.isCompositeType,
            let parentType = context.typeInfo.parentType, parentType.isCompositeType,
            !doTypesOverlap(context.schema, fragmentType, parentType)
        else { return .continue }
        context.report(
            "Fragment cannot be spread here as objects of type \"\(parentType.name)\" can never be of type \"\(fragmentType.name)\".",
            node.location
        )
        return .continue
    }

    override func enterFragmentSpread(_ node: FragmentSpread) -> VisitAction {
        let name = node.name.value
        guard let fragment = context.fragment(named: name),
            let fragmentType = context.schema.type(named: fragment.typeCondition.name.value), fragmentType.isCompositeType,
            let parentType = context.typeInfo.parentType,
            !doTypesOverlap(context.schema, fragmentType, parentType)
        else { return .continue }
        context.report(
            "Fragment \"\(name)\" cannot be spread here as objects of type \"\(parentType.name)\" can never be of type \"\(fragmentType.name)\".",
            node.location
        )
        return .continue
    }
}

/// Whether two composite types have a possible object type in common.
func doTypesOverlap(_ schema: GraphQLSchema, _ typeA: GraphQLNamedType, _ typeB: GraphQLNamedType) -> Bool {
    if typeA === typeB { return true }
    if typeA.isAbstractType {
        if typeB.isAbstractType {
            return schema.possibleTypes(of: typeA).contains { schema.isSubType(typeB, $0) }
        }
        return schema.isSubType(typeA, typeB)
    }
    if typeB.isAbstractType { return schema.isSubType(typeB, typeA) }
    return false
}
