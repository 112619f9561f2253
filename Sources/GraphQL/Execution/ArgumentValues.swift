/// CoerceArgumentValues (spec §6.4.1): a field's or directive's arguments,
/// from literals and variables, with graphql-js 16's messages. An error here
/// is a field error: it nulls the field, not the whole response. `node` is
/// the field or directive the arguments belong to, where a missing one is reported.
public enum ArgumentValues {
    public static func coerce(
        definitions: [GraphQLInputValue],
        arguments: [Argument],
        variableValues: [String: GraphQLValue],
        node: Location = .none,
        source: Source? = nil
    ) throws(GraphQLError) -> [String: GraphQLValue] {
        var coerced: [String: GraphQLValue] = [:]
        func error(_ message: String, _ location: Location) -> GraphQLError {
            GraphQLError(message: message, locations: source.map { [$0.location(at: location.start)] } ?? [])
        }
        for definition in definitions {
            let name = definition.name
            let type = definition.type
            guard let argument = arguments.first(where: { $0.name.value == name }) else {
                if let defaultValue = definition.defaultValue {
                    coerced[name] = defaultValue
                } else if type.isNonNull {
                    throw error("Argument \"\(name)\" of required type \"\(type)\" was not provided.", node)
                }
                continue
            }
            let literal = argument.value
            var isNull = false
            if case .null = literal { isNull = true }
            if case .variable(let variable) = literal {
                guard let value = variableValues[variable.name.value] else {
                    if let defaultValue = definition.defaultValue {
                        coerced[name] = defaultValue
                    } else if type.isNonNull {
                        throw error(
                            "Argument \"\(name)\" of required type \"\(type)\" was provided the variable \"$\(variable.name.value)\" which was not provided a runtime value.",
                            literal.location
                        )
                    }
                    continue
                }
                isNull = value == .null
            }
            if isNull && type.isNonNull {
                throw error("Argument \"\(name)\" of non-null type \"\(type)\" must not be null.", literal.location)
            }
            guard let value = valueFromAST(literal, type, variables: variableValues) else {
                throw error("Argument \"\(name)\" has invalid value \(Printer.print(literal)).", literal.location)
            }
            coerced[name] = value
        }
        return coerced
    }
}
