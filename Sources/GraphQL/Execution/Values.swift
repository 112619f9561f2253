/// CoerceVariableValues (spec §6.4.1) and input coercion (§3.5, §3.10):
/// the variables a request sends, checked and converted against the types
/// the operation declares, with graphql-js 16's messages.
public enum VariableValues {
    /// graphql-js stops after this many variable errors, as execute() does.
    public static let maxErrors = 50

    /// The coerced variables, or the request errors that stop execution.
    public static func coerce(
        schema: GraphQLSchema,
        definitions: [VariableDefinition],
        inputs: [GraphQLValue.Member],
        source: Source? = nil,
        maxErrors: Int = VariableValues.maxErrors
    ) -> Result<[String: GraphQLValue], VariableErrors> {
        var errors: [GraphQLError] = []
        var coerced: [String: GraphQLValue] = [:]
        func report(_ message: String, _ location: Location) -> Bool {
            if errors.count >= maxErrors {
                errors.append(
                    GraphQLError(
                        message: "Too many errors processing variables, error limit reached. Execution aborted."
                    ))
                return false
            }
            errors.append(GraphQLError(message: message, locations: source.map { [$0.location(at: location.start)] } ?? []))
            return true
        }
        definitionLoop: for definition in definitions {
            let name = definition.variable.name.value
            guard let type = typeFromAST(schema, definition.type), type.isInputType else {
                let message =
                    "Variable \"$\(name)\" expected value of type \"\(Printer.print(definition.type))\" which cannot be used as an input type."
                if !report(message, definition.type.location) { break }
                continue
            }
            guard let input = inputs.last(where: { $0.name == name })?.value else {
                if let defaultValue = definition.defaultValue {
                    coerced[name] = valueFromAST(defaultValue, type)
                } else if type.isNonNull {
                    if !report("Variable \"$\(name)\" of required type \"\(type)\" was not provided.", definition.location) { break }
                }
                continue
            }
            if input == .null && type.isNonNull {
                if !report("Variable \"$\(name)\" of non-null type \"\(type)\" must not be null.", definition.location) { break }
                continue
            }
            var aborted = false
            let value = InputCoercion.coerce(input, type) { path, invalid, message in
                guard !aborted else { return }
                var prefix = "Variable \"$\(name)\" got invalid value \(inspect(invalid))"
                if !path.isEmpty { prefix += " at \"\(name)\(printPath(path))\"" }
                if !report(prefix + "; " + message, definition.location) { aborted = true }
            }
            if aborted { break definitionLoop }
            if let value { coerced[name] = value }
        }
        return errors.isEmpty ? .success(coerced) : .failure(VariableErrors(errors: errors))
    }
}

/// The errors that keep an operation from running: a request error, with no `data`.
public struct VariableErrors: Error, Sendable {
    public var errors: [GraphQLError]
}

/// One step into an input value: a field name or a list index.
public enum PathComponent: Sendable, Hashable {
    case key(String)
    case index(Int)
}

/// `.a[0].b`, as graphql-js's printPathArray writes a path.
func printPath(_ path: [PathComponent]) -> String {
    path.map {
        switch $0 {
        case .key(let key): "." + key
        case .index(let index): "[\(index)]"
        }
    }.joined()
}

/// coerceInputValue: an external value (from JSON variables) as a value of
/// an input type. Each problem goes to `onError` with its path, the value at
/// fault and a message; the result is nil when the value cannot be used.
enum InputCoercion {
    typealias OnError = (_ path: [PathComponent], _ invalid: GraphQLValue?, _ message: String) -> Void

    static func coerce(_ input: GraphQLValue, _ type: GraphQLType, onError: OnError) -> GraphQLValue? {
        var path: [PathComponent] = []
        return coerce(input, type, &path, onError)
    }

    private static func coerce(
        _ input: GraphQLValue?, _ type: GraphQLType, _ path: inout [PathComponent], _ onError: OnError
    ) -> GraphQLValue? {
        switch type {
        case .nonNull(let inner):
            if let input, input != .null { return coerce(input, inner, &path, onError) }
            onError(path, input, "Expected non-nullable type \"\(type)\" not to be null.")
            return nil
        case .list(let itemType):
            guard let input else { return .null }
            switch input {
            case .null:
                return .null
            case .list(let items):
                var coerced: [GraphQLValue] = []
                coerced.reserveCapacity(items.count)
                for (index, item) in items.enumerated() {
                    path.append(.index(index))
                    // graphql-js keeps the item even when it fails (as undefined); errors stop execution anyway.
                    coerced.append(coerce(item, itemType, &path, onError) ?? .null)
                    path.removeLast()
                }
                return .list(coerced)
            default:
                return coerce(input, itemType, &path, onError).map { .list([$0]) }
            }
        case .named(let named):
            guard let input, input != .null else { return .null }
            switch named.kind {
            case .inputObject:
                return coerceInputObject(input, named, &path, onError)
            case .scalar, .enum:
                switch parseValue(input, named) {
                case .success(let value): return value
                case .failure(let error):
                    onError(path, input, error.message)
                    return nil
                }
            case .object, .interface, .union:
                return nil
            }
        }
    }

    private static func coerceInputObject(
        _ input: GraphQLValue, _ type: GraphQLNamedType, _ path: inout [PathComponent], _ onError: OnError
    ) -> GraphQLValue? {
        let members: [GraphQLValue.Member]
        switch input {
        case .object(let objectMembers):
            members = objectMembers
        case .list(let items):
            // A JavaScript array is object-like too: graphql-js reads it as an object keyed "0", "1", ...
            members = items.enumerated().map { .init(String($0.offset), $0.element) }
        default:
            onError(path, input, "Expected type \"\(type.name)\" to be an object.")
            return nil
        }
        var coerced: [GraphQLValue.Member] = []
        for field in type.inputFields {
            guard let value = members.last(where: { $0.name == field.name })?.value else {
                if let defaultValue = field.defaultValue {
                    coerced.append(.init(field.name, defaultValue))
                } else if field.type.isNonNull {
                    onError(path, input, "Field \"\(field.name)\" of required type \"\(field.type)\" was not provided.")
                }
                continue
            }
            path.append(.key(field.name))
            let fieldValue = coerce(value, field.type, &path, onError)
            path.removeLast()
            coerced.append(.init(field.name, fieldValue ?? .null))
        }
        for member in members where type.inputField(named: member.name) == nil {
            let suggestions = Suggestions.list(for: member.name, from: type.inputFields.map(\.name))
            onError(path, input, "Field \"\(member.name)\" is not defined by type \"\(type.name)\"." + Suggestions.didYouMean(suggestions))
        }
        if type.isOneOf {
            if coerced.count != 1 {
                onError(path, input, "Exactly one key must be specified for OneOf type \"\(type.name)\".")
            }
            if let first = coerced.first, first.value == .null {
                onError(path + [.key(first.name)], .null, "Field \"\(first.name)\" must be non-null.")
            }
        }
        return .object(coerced)
    }

    /// The built-in scalars' and enums' parseValue; custom scalars take any value.
    static func parseValue(_ input: GraphQLValue, _ type: GraphQLNamedType) -> Result<GraphQLValue, ParseValueError> {
        if type.kind == .enum {
            guard case .string(let name) = input else {
                let text = inspect(input)
                return .failure(
                    ParseValueError(
                        "Enum \"\(type.name)\" cannot represent non-string value: \(text)." + enumHint(type, text)
                    ))
            }
            guard type.enumValue(named: name) != nil else {
                return .failure(ParseValueError("Value \"\(name)\" does not exist in \"\(type.name)\" enum." + enumHint(type, name)))
            }
            return .success(.enum(name))
        }
        switch type.name {
        case "Int":
            // JavaScript numbers: 1.0 is an integer, and so is 1e20 (too large for Int).
            let isInteger =
                switch input {
                case .int: true
                case .float(let double): double.isFinite && double.rounded() == double
                default: false
                }
            guard isInteger else {
                return .failure(ParseValueError("Int cannot represent non-integer value: \(inspect(input))"))
            }
            let integer: Int32? =
                switch input {
                case .int(let int): Int32(exactly: int)
                case .float(let double): Int32(exactly: double)
                default: nil
                }
            guard let integer else {
                return .failure(ParseValueError("Int cannot represent non 32-bit signed integer value: \(inspect(input))"))
            }
            return .success(.int(Int(integer)))
        case "Float":
            switch input {
            case .int(let int): return .success(.float(Double(int)))
            case .float(let double) where double.isFinite: return .success(.float(double))
            default: return .failure(ParseValueError("Float cannot represent non numeric value: \(inspect(input))"))
            }
        case "String":
            guard case .string = input else {
                return .failure(ParseValueError("String cannot represent a non string value: \(inspect(input))"))
            }
            return .success(input)
        case "Boolean":
            guard case .boolean = input else {
                return .failure(ParseValueError("Boolean cannot represent a non boolean value: \(inspect(input))"))
            }
            return .success(input)
        case "ID":
            switch input {
            case .string: return .success(input)
            case .int(let int): return .success(.string(String(int)))
            case .float(let double) where double.isFinite && double.rounded() == double:
                return .success(.string(JavaScriptNumber.format(double)))
            default: return .failure(ParseValueError("ID cannot represent value: \(inspect(input))"))
            }
        default:
            guard let coercion = type.scalarCoercion else { return .success(input) }
            return coercion.parseValue(input).mapError { ParseValueError($0.message) }
        }
    }

    private static func enumHint(_ type: GraphQLNamedType, _ text: String) -> String {
        Suggestions.didYouMean(Suggestions.list(for: text, from: type.enumValues.map(\.name)), subject: "the enum value")
    }

    struct ParseValueError: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }
}

/// graphql-js's inspect(): a value as it appears in messages. Strings are
/// quoted, objects written `{ a: 1 }`, lists cut after ten items, and
/// anything nested deeper than two levels summarised as `[Array]` or `[Object]`.
func inspect(_ value: GraphQLValue?) -> String {
    inspectValue(value)
}

extension GraphQLValue {
    /// The value as graphql-js's inspect() writes it in messages, for custom
    /// scalars' errors to read like the built-in ones.
    public var inspected: String { inspectValue(self) }
}

private func inspectValue(_ value: GraphQLValue?) -> String {
    guard let value else { return "undefined" }
    return inspect(value, depth: 0)
}

private func inspect(_ value: GraphQLValue, depth: Int) -> String {
    switch value {
    case .null: return "null"
    case .boolean(let boolean): return boolean ? "true" : "false"
    case .int(let int): return String(int)
    case .float(let double): return JavaScriptNumber.format(double)
    case .string(let string), .enum(let string): return string.json
    case .list(let items):
        if items.isEmpty { return "[]" }
        if depth > 1 { return "[Array]" }
        var parts = items.prefix(10).map { inspect($0, depth: depth + 1) }
        let remaining = items.count - 10
        if remaining == 1 { parts.append("... 1 more item") } else if remaining > 1 { parts.append("... \(remaining) more items") }
        return "[" + parts.joined(separator: ", ") + "]"
    case .object(let members):
        if members.isEmpty { return "{}" }
        if depth > 1 { return "[Object]" }
        return "{ " + members.map { $0.name + ": " + inspect($0.value, depth: depth + 1) }.joined(separator: ", ") + " }"
    }
}

extension String {
    /// The string as a JSON string literal.
    var json: String {
        var writer = JSONWriter(capacity: utf8.count + 2)
        writer.string(self)
        return writer.text
    }
}
