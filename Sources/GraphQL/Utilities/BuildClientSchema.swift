import Formats

/// The introspection query a client sends to learn a server's schema: every
/// part of the September 2025 introspection (descriptions, `specifiedByURL`,
/// repeatable directives, deprecated arguments and input fields, `isOneOf`).
/// Lists nest as deep as graphql-js 16's `getIntrospectionQuery()`.
public let introspectionQuery = makeIntrospectionQuery(september2025: true)

/// graphql-js 16's default introspection query, which servers that predate
/// the newer fields still answer.
public let legacyIntrospectionQuery = makeIntrospectionQuery(september2025: false)

private func makeIntrospectionQuery(september2025 newer: Bool) -> String {
    let deprecated = newer ? "(includeDeprecated: true)" : ""
    let newerInputValue = newer ? " isDeprecated deprecationReason" : ""
    return """
        query IntrospectionQuery {
          __schema {
            \(newer ? "description " : "")queryType { name } mutationType { name } subscriptionType { name }
            types { ...FullType }
            directives { name description \(newer ? "isRepeatable " : "")locations args\(deprecated) { ...InputValue } }
          }
        }
        fragment FullType on __Type {
          kind name description\(newer ? " specifiedByURL isOneOf" : "")
          fields(includeDeprecated: true) { name description args\(deprecated) { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason }
          inputFields\(deprecated) { ...InputValue }
          interfaces { ...TypeRef }
          enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
          possibleTypes { ...TypeRef }
        }
        fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue\(newerInputValue) }
        fragment TypeRef on __Type {
          kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } }
        }
        """
}

/// Builds a schema from an introspection result, as graphql-js's
/// `buildClientSchema` does: `result` is the response's `data` (holding
/// `__schema`) or the whole response. The schema serves validation and
/// printing; its fields have no resolvers.
///
/// The result is written back as SDL and built by `buildSchema`, so the
/// schema holds exactly what its SDL would; the built-in scalars and
/// directives come from the builder, not from the result.
public func buildClientSchema(_ result: GraphQLValue) throws(SchemaBuildError) -> GraphQLSchema {
    let sdl: String
    do throws(IntrospectionSDL.Incomplete) {
        sdl = try IntrospectionSDL(result).text()
    } catch {
        throw SchemaBuildError(errors: [GraphQLError(message: error.message, locations: [])])
    }
    return try buildSchema([Source(body: sdl, name: "introspection")])
}

/// The SDL that an introspection result describes.
struct IntrospectionSDL {
    struct Incomplete: Error {
        var message: String
    }

    let schema: GraphQLValue
    private static let builtinScalars: Set<String> = ["String", "Int", "Float", "Boolean", "ID"]
    private static let builtinDirectives: Set<String> = ["skip", "include", "deprecated", "specifiedBy", "oneOf"]

    init(_ result: GraphQLValue) throws(Incomplete) {
        let data = result["data"] ?? result
        guard let schema = data["__schema"], case .object = schema else {
            throw Incomplete(
                message:
                    "Invalid or incomplete introspection result. Ensure that you are passing \"data\" property of introspection response and no \"errors\" was returned alongside: "
                    + Self.brief(result) + ".")
        }
        self.schema = schema
    }

    func text() throws(Incomplete) -> String {
        var parts: [String] = []
        guard let queryType = schema["queryType"]?["name"]?.text else {
            throw Incomplete(message: "Invalid or incomplete schema, unknown type: the query type.")
        }
        var roots = "  query: \(queryType)"
        if let mutation = schema["mutationType"]?["name"]?.text { roots += "\n  mutation: \(mutation)" }
        if let subscription = schema["subscriptionType"]?["name"]?.text { roots += "\n  subscription: \(subscription)" }
        parts.append(description(schema["description"], indent: "") + "schema {\n\(roots)\n}")
        guard case .list(let types)? = schema["types"] else {
            throw Incomplete(message: "Invalid or incomplete introspection result: the schema has no types.")
        }
        for type in types {
            guard let name = type["name"]?.text else {
                throw Incomplete(message: "Invalid or incomplete introspection result: a type has no name.")
            }
            if name.hasPrefix("__") || Self.builtinScalars.contains(name) { continue }
            parts.append(try typeDefinition(type, name: name))
        }
        if case .list(let directives)? = schema["directives"] {
            for directive in directives {
                guard let name = directive["name"]?.text, !Self.builtinDirectives.contains(name) else { continue }
                var line = description(directive["description"], indent: "") + "directive @\(name)"
                line += try arguments(directive["args"])
                if directive["isRepeatable"] == .boolean(true) { line += " repeatable" }
                let locations = list(directive["locations"]).compactMap(\.text)
                guard !locations.isEmpty else {
                    throw Incomplete(message: "Introspection result missing directive locations: @\(name).")
                }
                line += " on " + locations.joined(separator: " | ")
                parts.append(line)
            }
        }
        return parts.joined(separator: "\n\n") + "\n"
    }

    private func typeDefinition(_ type: GraphQLValue, name: String) throws(Incomplete) -> String {
        let head = description(type["description"], indent: "")
        switch type["kind"]?.text {
        case "SCALAR":
            let url = type["specifiedByURL"]?.text.map { " @specifiedBy(url: \(JSONText.quoted($0)))" } ?? ""
            return head + "scalar \(name)\(url)"
        case "OBJECT", "INTERFACE":
            let keyword = type["kind"]?.text == "OBJECT" ? "type" : "interface"
            let interfaces = try list(type["interfaces"]).map { (reference) throws(Incomplete) in try typeReference(reference) }
            var text = head + "\(keyword) \(name)"
            if !interfaces.isEmpty { text += " implements " + interfaces.joined(separator: " & ") }
            let fields = try list(type["fields"]).map { (field) throws(Incomplete) in
                guard let fieldName = field["name"]?.text else { throw Incomplete(message: "A field of \(name) has no name.") }
                return description(field["description"], indent: "  ") + "  " + fieldName + (try arguments(field["args"]))
                    + ": " + (try typeReference(field["type"])) + deprecation(field)
            }
            return fields.isEmpty ? text : text + " {\n" + fields.joined(separator: "\n") + "\n}"
        case "UNION":
            let members = try list(type["possibleTypes"]).map { (reference) throws(Incomplete) in try typeReference(reference) }
            return head + "union \(name)" + (members.isEmpty ? "" : " = " + members.joined(separator: " | "))
        case "ENUM":
            let values = list(type["enumValues"]).compactMap { value -> String? in
                guard let valueName = value["name"]?.text else { return nil }
                return description(value["description"], indent: "  ") + "  " + valueName + deprecation(value)
            }
            return head + "enum \(name)" + (values.isEmpty ? "" : " {\n" + values.joined(separator: "\n") + "\n}")
        case "INPUT_OBJECT":
            let oneOf = type["isOneOf"] == .boolean(true) ? " @oneOf" : ""
            let fields = try list(type["inputFields"]).map { (field) throws(Incomplete) in try inputValue(field, indent: "  ") }
            return head + "input \(name)\(oneOf)" + (fields.isEmpty ? "" : " {\n" + fields.joined(separator: "\n") + "\n}")
        default:
            throw Incomplete(
                message:
                    "Invalid or incomplete introspection result. Ensure that a full introspection query is used in order to build a client schema: "
                    + Self.brief(type) + ".")
        }
    }

    private func arguments(_ args: GraphQLValue?) throws(Incomplete) -> String {
        let values = try list(args).map { (argument) throws(Incomplete) in try inputValue(argument, indent: "") }
        return values.isEmpty ? "" : "(" + values.joined(separator: ", ") + ")"
    }

    private func inputValue(_ value: GraphQLValue, indent: String) throws(Incomplete) -> String {
        guard let name = value["name"]?.text else { throw Incomplete(message: "An input value has no name.") }
        var text = description(value["description"], indent: indent) + indent + name + ": " + (try typeReference(value["type"]))
        if let defaultValue = value["defaultValue"]?.text { text += " = " + defaultValue }
        return text + deprecation(value)
    }

    private func typeReference(_ reference: GraphQLValue?) throws(Incomplete) -> String {
        guard let reference else { throw Incomplete(message: "Decorated type deeper than introspection query.") }
        switch reference["kind"]?.text {
        case "NON_NULL": return try typeReference(reference["ofType"]) + "!"
        case "LIST": return "[" + (try typeReference(reference["ofType"])) + "]"
        default:
            guard let name = reference["name"]?.text else { throw Incomplete(message: "Unknown type reference: \(Self.brief(reference)).") }
            return name
        }
    }

    private func deprecation(_ element: GraphQLValue) -> String {
        guard let reason = element["deprecationReason"]?.text else { return "" }
        return " @deprecated(reason: \(JSONText.quoted(reason)))"
    }

    /// A description as a GraphQL string literal (JSON's escapes are GraphQL's).
    private func description(_ value: GraphQLValue?, indent: String) -> String {
        guard let text = value?.text else { return "" }
        return indent + JSONText.quoted(text) + "\n"
    }

    private func list(_ value: GraphQLValue?) -> [GraphQLValue] {
        if case .list(let items)? = value { return items }
        return []
    }

    private static func brief(_ value: GraphQLValue) -> String {
        var writer = JSONWriter(capacity: 256)
        writer.value(value)
        let text = writer.text
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }
}

extension GraphQLValue {
    /// The string this value holds, if it is one.
    fileprivate var text: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
