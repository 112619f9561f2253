/// Prints syntax trees back to GraphQL text, byte for byte as graphql-js 16's
/// `print()` does: two blank-line-separated definitions, two-space indents,
/// arguments wrapped one per line when a field's line would pass 80 columns.
///
/// The printer is written as graphql-js's is, bottom up: each node becomes a
/// string and its parent joins and indents those strings. Comments are not
/// part of the tree and so are not printed.
public enum Printer {
    static let maxLineLength = 80

    public static func print(_ document: Document) -> String {
        join(document.definitions.map(print), "\n\n")
    }

    public static func print(_ definition: Definition) -> String {
        switch definition {
        case .operation(let node): print(node)
        case .fragment(let node): print(node)
        case .schema(let node): print(node)
        case .type(let node): print(node)
        case .directive(let node): print(node)
        case .schemaExtension(let node): print(node)
        case .typeExtension(let node): print(node)
        }
    }

    // MARK: - Executable definitions

    public static func print(_ node: OperationDefinition) -> String {
        let variableDefinitions = node.variableDefinitions.map(print)
        let variables =
            hasMultilineItems(variableDefinitions)
            ? wrap("(\n", indent(join(variableDefinitions, "\n")), "\n)")
            : wrap("(", join(variableDefinitions, ", "), ")")
        let prefix = join(
            [
                node.operation.rawValue,
                join([node.name?.value ?? "", variables]),
                join(node.directives.map(print), " "),
            ], " ")
        let selectionSet = print(node.selectionSet)
        if let description = node.description {
            return print(description) + "\n" + prefix + " " + selectionSet
        }
        // Anonymous queries without variables or directives use the shorthand.
        return (prefix == "query" ? "" : prefix + " ") + selectionSet
    }

    public static func print(_ node: VariableDefinition) -> String {
        wrap("", node.description.map(print), "\n")
            + "$" + node.variable.name.value + ": " + print(node.type)
            + wrap(" = ", node.defaultValue.map(print))
            + wrap(" ", join(node.directives.map(print), " "))
    }

    public static func print(_ node: SelectionSet) -> String {
        block(node.selections.map(print))
    }

    public static func print(_ selection: Selection) -> String {
        switch selection {
        case .field(let node): print(node)
        case .fragmentSpread(let node): print(node)
        case .inlineFragment(let node): print(node)
        }
    }

    public static func print(_ node: Field) -> String {
        let prefix = wrap("", node.alias?.value, ": ") + node.name.value
        let arguments = node.arguments.map(print)
        var argumentsLine = prefix + wrap("(", join(arguments, ", "), ")")
        if argumentsLine.utf16.count > maxLineLength {
            argumentsLine = prefix + wrap("(\n", indent(join(arguments, "\n")), "\n)")
        }
        return join(
            [
                argumentsLine,
                join(node.directives.map(print), " "),
                node.selectionSet.map(print) ?? "",
            ], " ")
    }

    public static func print(_ node: Argument) -> String {
        node.name.value + ": " + print(node.value)
    }

    public static func print(_ node: FragmentSpread) -> String {
        "..." + node.name.value + wrap(" ", join(node.directives.map(print), " "))
    }

    public static func print(_ node: InlineFragment) -> String {
        join(
            [
                "...",
                wrap("on ", node.typeCondition?.name.value),
                join(node.directives.map(print), " "),
                print(node.selectionSet),
            ], " ")
    }

    public static func print(_ node: FragmentDefinition) -> String {
        wrap("", node.description.map(print), "\n")
            + "fragment \(node.name.value) on \(node.typeCondition.name.value) "
            + wrap("", join(node.directives.map(print), " "), " ")
            + print(node.selectionSet)
    }

    // MARK: - Values

    public static func print(_ value: Value) -> String {
        switch value {
        case .variable(let node): "$" + node.name.value
        case .int(let node): node.value
        case .float(let node): node.value
        case .string(let node): print(node)
        case .boolean(let node): node.value ? "true" : "false"
        case .null: "null"
        case .enum(let node): node.value
        case .list(let node): "[" + join(node.values.map(print), ", ") + "]"
        case .object(let node): "{" + join(node.fields.map { $0.name.value + ": " + print($0.value) }, ", ") + "}"
        }
    }

    public static func print(_ node: StringValue) -> String {
        node.isBlock ? BlockString.print(node.value) : printString(node.value)
    }

    /// A JSON-style string literal, escaping C0 and C1 controls, `"` and `\`.
    static func printString(_ value: String) -> String {
        var result = "\""
        result.reserveCapacity(value.utf8.count + 2)
        for scalar in value.unicodeScalars {
            switch scalar.value {
            case 0x08: result += "\\b"
            case 0x09: result += "\\t"
            case 0x0A: result += "\\n"
            case 0x0C: result += "\\f"
            case 0x0D: result += "\\r"
            case 0x22: result += "\\\""
            case 0x5C: result += "\\\\"
            case 0x00...0x1F, 0x7F...0x9F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.utf8.count) + hex
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    // MARK: - Directives and types

    public static func print(_ node: Directive) -> String {
        "@" + node.name.value + wrap("(", join(node.arguments.map(print), ", "), ")")
    }

    public static func print(_ type: TypeReference) -> String {
        switch type {
        case .named(let node): node.name.value
        case .list(let node): "[" + print(node.type) + "]"
        case .nonNull(let node): print(node.type) + "!"
        }
    }

    // MARK: - Type system definitions

    public static func print(_ node: SchemaDefinition) -> String {
        wrap("", node.description.map(print), "\n")
            + join(["schema", join(node.directives.map(print), " "), block(node.operationTypes.map(print))], " ")
    }

    public static func print(_ node: OperationTypeDefinition) -> String {
        node.operation.rawValue + ": " + node.type.name.value
    }

    public static func print(_ definition: TypeDefinition) -> String {
        switch definition {
        case .scalar(let node):
            wrap("", node.description.map(print), "\n")
                + join(["scalar", node.name.value, join(node.directives.map(print), " ")], " ")
        case .object(let node):
            wrap("", node.description.map(print), "\n")
                + join(
                    [
                        "type", node.name.value, implements(node.interfaces),
                        join(node.directives.map(print), " "), block(node.fields.map(print)),
                    ], " ")
        case .interface(let node):
            wrap("", node.description.map(print), "\n")
                + join(
                    [
                        "interface", node.name.value, implements(node.interfaces),
                        join(node.directives.map(print), " "), block(node.fields.map(print)),
                    ], " ")
        case .union(let node):
            wrap("", node.description.map(print), "\n")
                + join(
                    [
                        "union", node.name.value, join(node.directives.map(print), " "),
                        wrap("= ", join(node.types.map(\.name.value), " | ")),
                    ], " ")
        case .enum(let node):
            wrap("", node.description.map(print), "\n")
                + join(["enum", node.name.value, join(node.directives.map(print), " "), block(node.values.map(print))], " ")
        case .inputObject(let node):
            wrap("", node.description.map(print), "\n")
                + join(["input", node.name.value, join(node.directives.map(print), " "), block(node.fields.map(print))], " ")
        }
    }

    public static func print(_ node: FieldDefinition) -> String {
        wrap("", node.description.map(print), "\n")
            + node.name.value + argumentDefinitions(node.arguments)
            + ": " + print(node.type)
            + wrap(" ", join(node.directives.map(print), " "))
    }

    public static func print(_ node: InputValueDefinition) -> String {
        wrap("", node.description.map(print), "\n")
            + join(
                [
                    node.name.value + ": " + print(node.type),
                    wrap("= ", node.defaultValue.map(print)),
                    join(node.directives.map(print), " "),
                ], " ")
    }

    public static func print(_ node: EnumValueDefinition) -> String {
        wrap("", node.description.map(print), "\n")
            + join([node.name.value, join(node.directives.map(print), " ")], " ")
    }

    public static func print(_ node: DirectiveDefinition) -> String {
        wrap("", node.description.map(print), "\n")
            + "directive @" + node.name.value + argumentDefinitions(node.arguments)
            + (node.isRepeatable ? " repeatable" : "")
            + " on " + join(node.locations.map(\.value), " | ")
    }

    // MARK: - Type system extensions

    public static func print(_ node: SchemaExtension) -> String {
        join(["extend schema", join(node.directives.map(print), " "), block(node.operationTypes.map(print))], " ")
    }

    public static func print(_ definition: TypeExtension) -> String {
        switch definition {
        case .scalar(let node):
            join(["extend scalar", node.name.value, join(node.directives.map(print), " ")], " ")
        case .object(let node):
            join(
                [
                    "extend type", node.name.value, implements(node.interfaces),
                    join(node.directives.map(print), " "), block(node.fields.map(print)),
                ], " ")
        case .interface(let node):
            join(
                [
                    "extend interface", node.name.value, implements(node.interfaces),
                    join(node.directives.map(print), " "), block(node.fields.map(print)),
                ], " ")
        case .union(let node):
            join(
                [
                    "extend union", node.name.value, join(node.directives.map(print), " "),
                    wrap("= ", join(node.types.map(\.name.value), " | ")),
                ], " ")
        case .enum(let node):
            join(["extend enum", node.name.value, join(node.directives.map(print), " "), block(node.values.map(print))], " ")
        case .inputObject(let node):
            join(["extend input", node.name.value, join(node.directives.map(print), " "), block(node.fields.map(print))], " ")
        }
    }

    // MARK: - Layout helpers, as graphql-js defines them

    private static func implements(_ interfaces: [NamedType]) -> String {
        wrap("implements ", join(interfaces.map(\.name.value), " & "))
    }

    /// Argument definitions go one per line once any of them spans lines
    /// (which only a block-string description makes happen).
    private static func argumentDefinitions(_ arguments: [InputValueDefinition]) -> String {
        let printed = arguments.map(print)
        return hasMultilineItems(printed)
            ? wrap("(\n", indent(join(printed, "\n")), "\n)")
            : wrap("(", join(printed, ", "), ")")
    }

    /// Joins the non-empty parts.
    static func join(_ parts: [String], _ separator: String = "") -> String {
        var result = ""
        var first = true
        for part in parts where !part.isEmpty {
            if !first { result += separator }
            result += part
            first = false
        }
        return result
    }

    /// `{`, the items one per line and indented, `}`; nothing for no items.
    static func block(_ items: [String]) -> String {
        wrap("{\n", indent(join(items, "\n")), "\n}")
    }

    /// `start + text + end` when the text is non-empty, else nothing.
    static func wrap(_ start: String, _ text: String?, _ end: String = "") -> String {
        guard let text, !text.isEmpty else { return "" }
        return start + text + end
    }

    /// Two spaces before every line, block-string lines included, as graphql-js does.
    /// Byte by byte: a block nested d deep is indented d times, so this
    /// runs over most of what the printer writes, many times.
    static func indent(_ text: String) -> String {
        guard !text.isEmpty else { return "" }
        var text = text
        return text.withUTF8 { bytes in
            var newlines = 0
            for byte in bytes where byte == 0x0A { newlines += 1 }
            return String(unsafeUninitializedCapacity: bytes.count + 2 + 2 * newlines) { output in
                output[0] = 0x20
                output[1] = 0x20
                var count = 2
                for byte in bytes {
                    output[count] = byte
                    count += 1
                    if byte == 0x0A {
                        output[count] = 0x20
                        output[count + 1] = 0x20
                        count += 2
                    }
                }
                return count
            }
        }
    }

    private static func hasMultilineItems(_ items: [String]) -> Bool {
        items.contains { $0.utf8.contains(0x0A) }
    }
}
