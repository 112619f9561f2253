/// Leaf Field Selections (spec §5.3.3): scalars and enums have no
/// selections; objects, interfaces and unions need one.
final class ScalarLeafsRule: ValidationRule {
    override class var hooks: ValidationHooks { [.field] }

    override func enterField(_ node: Field) -> VisitAction {
        guard let type = context.typeInfo.type else { return .continue }
        let name = node.name.value
        if type.namedType.isLeafType {
            if let selectionSet = node.selectionSet {
                context.report(
                    "Field \"\(name)\" must not have a selection since type \"\(type)\" has no subfields.",
                    selectionSet.location
                )
            }
        } else if node.selectionSet == nil {
            context.report(
                "Field \"\(name)\" of type \"\(type)\" must have a selection of subfields. Did you mean \"\(name) { ... }\"?",
                node.location
            )
        }
        return .continue
    }
}
