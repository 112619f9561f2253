/// printSchema: the schema as SDL, byte for byte as graphql-js 16 prints it.
/// Built-in scalars, directives and introspection types are left out.
public func printSchema(_ schema: GraphQLSchema) -> String {
    let builtins = Builtins.shared
    return SchemaPrinter.print(
        schema,
        directives: schema.directives.filter { !builtins.isSpecifiedDirective($0) },
        types: schema.types.filter { !builtins.isSpecifiedScalar($0) && !builtins.isIntrospectionType($0) }
    )
}

/// `printSchema`, declaring too the specified directives that graphql-js 16
/// does not know and the schema has: `@oneOf` (September 2025) when an
/// input type uses it, `@defer` and `@stream` (incremental delivery) when
/// the schema offers them. What a server serves as its SDL file, so that
/// tools built on graphql-js 16 (whose `buildSchema` refuses an unknown
/// directive) read it, as graphql-js 17 prints them when asked.
public func printSchemaForOlderTools(_ schema: GraphQLSchema) -> String {
    let builtins = Builtins.shared
    let usesOneOf = schema.types.contains { $0.kind == .inputObject && $0.isOneOf }
    let newer: Set<String> = usesOneOf ? ["oneOf", "defer", "stream"] : ["defer", "stream"]
    return SchemaPrinter.print(
        schema,
        directives: schema.directives.filter { !builtins.isSpecifiedDirective($0) || newer.contains($0.name) },
        types: schema.types.filter { !builtins.isSpecifiedScalar($0) && !builtins.isIntrospectionType($0) }
    )
}

/// The built-in directives and introspection types as SDL.
public func printIntrospectionSchema(_ schema: GraphQLSchema) -> String {
    let builtins = Builtins.shared
    return SchemaPrinter.print(
        schema,
        directives: schema.directives.filter { builtins.isSpecifiedDirective($0) },
        types: schema.types.filter { builtins.isIntrospectionType($0) }
    )
}

enum SchemaPrinter {
    static func print(_ schema: GraphQLSchema, directives: [GraphQLDirective], types: [GraphQLNamedType]) -> String {
        ([schemaDefinition(schema)] + directives.map(directive) + types.map(type))
            .compactMap { $0 }
            .filter { !$0.isEmpty }
            .joined(separator: "\n\n")
    }

    /// Printed only when it says something: a description, or root types
    /// not named Query, Mutation and Subscription.
    static func schemaDefinition(_ schema: GraphQLSchema) -> String? {
        let commonNames =
            (schema.queryType.map { $0.name == "Query" } ?? true)
            && (schema.mutationType.map { $0.name == "Mutation" } ?? true)
            && (schema.subscriptionType.map { $0.name == "Subscription" } ?? true)
        if schema.description == nil && commonNames { return nil }
        var operationTypes: [String] = []
        if let query = schema.queryType { operationTypes.append("  query: \(query.name)") }
        if let mutation = schema.mutationType { operationTypes.append("  mutation: \(mutation.name)") }
        if let subscription = schema.subscriptionType { operationTypes.append("  subscription: \(subscription.name)") }
        return description(schema.description) + "schema {\n" + operationTypes.joined(separator: "\n") + "\n}"
    }

    static func type(_ type: GraphQLNamedType) -> String {
        switch type.kind {
        case .scalar:
            return description(type.description) + "scalar \(type.name)" + specifiedBy(type.specifiedByURL)
        case .object:
            return description(type.description) + "type \(type.name)" + implements(type) + fields(type)
        case .interface:
            return description(type.description) + "interface \(type.name)" + implements(type) + fields(type)
        case .union:
            let members = type.unionMembers.isEmpty ? "" : " = " + type.unionMembers.map(\.name).joined(separator: " | ")
            return description(type.description) + "union " + type.name + members
        case .enum:
            let values = type.enumValues.enumerated().map { index, value in
                description(value.description, indentation: "  ", firstInBlock: index == 0)
                    + "  " + value.name + deprecated(value.deprecationReason)
            }
            return description(type.description) + "enum \(type.name)" + block(values)
        case .inputObject:
            let fields = type.inputFields.enumerated().map { index, field in
                description(field.description, indentation: "  ", firstInBlock: index == 0) + "  " + inputValue(field)
            }
            return description(type.description) + "input \(type.name)" + (type.isOneOf ? " @oneOf" : "") + block(fields)
        }
    }

    static func implements(_ type: GraphQLNamedType) -> String {
        type.interfaces.isEmpty ? "" : " implements " + type.interfaces.map(\.name).joined(separator: " & ")
    }

    static func fields(_ type: GraphQLNamedType) -> String {
        block(
            type.fields.enumerated().map { index, field in
                description(field.description, indentation: "  ", firstInBlock: index == 0)
                    + "  " + field.name + arguments(field.arguments, indentation: "  ")
                    + ": " + field.type.description + deprecated(field.deprecationReason)
            })
    }

    static func block(_ items: [String]) -> String {
        items.isEmpty ? "" : " {\n" + items.joined(separator: "\n") + "\n}"
    }

    static func arguments(_ arguments: [GraphQLInputValue], indentation: String = "") -> String {
        if arguments.isEmpty { return "" }
        if arguments.allSatisfy({ ($0.description ?? "").isEmpty }) {
            return "(" + arguments.map(inputValue).joined(separator: ", ") + ")"
        }
        return "(\n"
            + arguments.enumerated().map { index, argument in
                description(argument.description, indentation: "  " + indentation, firstInBlock: index == 0)
                    + "  " + indentation + inputValue(argument)
            }.joined(separator: "\n") + "\n" + indentation + ")"
    }

    static func inputValue(_ value: GraphQLInputValue) -> String {
        var declaration = value.name + ": " + value.type.description
        if let defaultValue = value.defaultValue, let literal = astFromValue(defaultValue, value.type) {
            declaration += " = " + Printer.print(literal)
        }
        return declaration + deprecated(value.deprecationReason)
    }

    static func directive(_ directive: GraphQLDirective) -> String {
        description(directive.description) + "directive @" + directive.name + arguments(directive.arguments)
            + (directive.isRepeatable ? " repeatable" : "")
            + " on " + directive.locations.map(\.rawValue).joined(separator: " | ")
    }

    static func deprecated(_ reason: String?) -> String {
        guard let reason else { return "" }
        if reason != "No longer supported" {
            return " @deprecated(reason: \(Printer.printString(reason)))"
        }
        return " @deprecated"
    }

    static func specifiedBy(_ url: String?) -> String {
        url.map { " @specifiedBy(url: \(Printer.printString($0)))" } ?? ""
    }

    static func description(_ text: String?, indentation: String = "", firstInBlock: Bool = true) -> String {
        guard let text else { return "" }
        let literal = BlockString.isPrintable(text) ? BlockString.print(text) : Printer.printString(text)
        let prefix = !indentation.isEmpty && !firstInBlock ? "\n" + indentation : indentation
        return prefix + literal.replacing("\n", with: "\n" + indentation) + "\n"
    }
}
