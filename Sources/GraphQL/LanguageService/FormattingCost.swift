/// What printing a document costs, measured on its tree before it is
/// printed, so that an editor's "format" can be refused before the work.
///
/// The printer (graphql-js's, bottom up) writes every line with two spaces
/// per enclosing block, and copies each line again each time a block
/// around it is indented: a document of n lines nested d deep writes about
/// n·d bytes and copies about n·d² — a small, deeply nested document
/// becomes megabytes and seconds.
public struct FormattingCost: Sendable, Hashable {
    /// About the bytes the printed document has.
    public var bytes = 0
    /// About the bytes the printer copies while indenting.
    public var copied = 0

    public init(of document: Document) {
        for definition in document.definitions {
            switch definition {
            case .operation(var node):
                let selections = node.selectionSet
                node.selectionSet.selections = []
                line(Printer.print(node).utf8.count + 2, depth: 0)
                add(selections, depth: 1)
            case .fragment(var node):
                let selections = node.selectionSet
                node.selectionSet.selections = []
                line(Printer.print(node).utf8.count + 2, depth: 0)
                add(selections, depth: 1)
            default:
                // Type-system definitions are flat: as long as their text, about.
                line(Printer.print(definition).utf8.count, depth: 0)
            }
        }
    }

    private mutating func add(_ selectionSet: SelectionSet, depth: Int) {
        for selection in selectionSet.selections {
            switch selection {
            case .field(var field):
                let children = field.selectionSet
                field.selectionSet = nil
                line(Printer.print(field).utf8.count + 2, depth: depth)
                if let children { add(children, depth: depth + 1) }
            case .fragmentSpread(let spread):
                line(Printer.print(spread).utf8.count, depth: depth)
            case .inlineFragment(let fragment):
                line(6 + (fragment.typeCondition?.name.value.utf8.count ?? 0) + 16 * fragment.directives.count, depth: depth)
                add(fragment.selectionSet, depth: depth + 1)
            }
        }
        // The closing brace.
        line(1, depth: depth - 1)
    }

    private mutating func line(_ length: Int, depth: Int) {
        let written = 2 * depth + length + 1
        bytes += written
        copied += written * depth
    }
}
