import GraphQL
import HuddleCore
import Testing

/// An app's screens measured against the default operation limits, as
/// the server measures an operation before it runs (ScreenCostTests in
/// each app's tests): every screen at its largest page must fit, with room.
package struct ScreenCost {
    package let schema: GraphQLSchema

    package init(mounting apps: [any App.Type]) {
        schema = try! buildSchema(TestSchema.directory(mounting: apps).sources())
    }

    package func measure(_ query: String, variables: [GraphQLValue.Member] = []) throws -> OperationCost {
        let source = Source(body: query)
        let document = try parse(source)
        let errors = validate(schema: schema, document: document, source: source)
        #expect(errors.isEmpty, "\(errors)")
        guard case .success(let operation) = selectOperation(document, nil),
            case .success(let values) = VariableValues.coerce(
                schema: schema, definitions: operation.variableDefinitions, inputs: variables, source: source
            )
        else { throw GraphQLError(message: "no operation") }
        return OperationCost.measure(
            schema: schema, document: document, operation: operation, variableValues: values,
            defaultListSize: ExecutionLimits.default.defaultListSize
        )
    }

    /// `screen` fits the default limits, and one twice as large would too.
    package func expectFits(_ name: String, _ query: String, variables: [GraphQLValue.Member] = []) throws {
        let measured = try measure(query, variables: variables)
        print(
            "screen \(name): cost \(measured.cost), depth \(measured.depth), aliases \(measured.aliases), root fields \(measured.rootFields)"
        )
        #expect(ExecutionLimits.default.refusal(of: measured) == nil, "\(name): cost \(measured.cost), depth \(measured.depth)")
        #expect(measured.cost * 2 <= ExecutionLimits.default.maxCost!, "\(name): cost \(measured.cost)")
        #expect(measured.depth + 2 <= ExecutionLimits.default.maxDepth!, "\(name): depth \(measured.depth)")
    }
}
