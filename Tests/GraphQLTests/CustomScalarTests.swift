import GraphQL
import Testing

/// The custom-scalar hook (graphql-js's GraphQLScalarType functions): a
/// registered coercion serialises results, parses variables and literals,
/// and makes validation refuse the literals it rejects; a scalar without
/// one passes values through unchanged.
@Suite struct CustomScalarTests {
    /// Odd integers; results are written as text, `"7"`.
    static let odd = ScalarCoercion(
        serialize: { value in
            guard case .int(let int) = value, int % 2 != 0 else { return .failure(.init("Odd cannot represent value: \(value.inspected)")) }
            return .success(.string(String(int)))
        },
        parseValue: { value in
            guard case .int(let int) = value, int % 2 != 0 else { return .failure(.init("Odd cannot represent value: \(value.inspected)")) }
            return .success(value)
        }
    )

    static func schema(registering: Bool = true) throws -> ExecutableSchema {
        var builder = ExecutableSchema.Builder(
            schema: try buildSchema(
                """
                scalar Odd
                scalar Free
                type Query { echo(value: Odd): Odd list(values: [Odd]): [Odd] raw(value: Free): Free result: Odd }
                """))
        if registering { builder.scalar("Odd", odd) }
        builder.resolve("Query", "echo") { input in .value(input.argument("value") ?? .null) }
        builder.resolve("Query", "list") { input in .value(input.argument("values") ?? .null) }
        builder.resolve("Query", "raw") { input in .value(input.argument("value") ?? .null) }
        builder.resolve("Query", "result") { _ in .value(.int(4)) }
        return try builder.build()
    }

    func run(_ query: String, variables: String = "{}", schema: ExecutableSchema? = nil) async throws -> String {
        let schema = try schema ?? Self.schema()
        let source = Source(body: query)
        let document = try parse(source)
        let errors = validate(schema: schema.schema, document: document, source: source)
        if !errors.isEmpty { return ExecutionResult(data: nil, errors: errors).json() }
        guard case .object(let members) = try JSONReader().read(variables) else { return "" }
        return await execute(schema: schema, document: document, source: source, variables: members).json()
    }

    @Test func literalsAndVariablesAreParsedAndResultsSerialised() async throws {
        #expect(try await run("{ echo(value: 7) }") == #"{"data":{"echo":"7"}}"#)
        #expect(try await run("query ($v: Odd) { echo(value: $v) }", variables: #"{"v": 9}"#) == #"{"data":{"echo":"9"}}"#)
        // A list literal with a variable in it is parsed item by item.
        #expect(try await run("query ($v: Odd) { list(values: [1, $v]) }", variables: #"{"v": 3}"#) == #"{"data":{"list":["1","3"]}}"#)
    }

    @Test func aLiteralTheScalarRefusesIsAValidationError() async throws {
        #expect(
            try await run("{ echo(value: 8) }")
                == #"{"errors":[{"message":"Odd cannot represent value: 8","locations":[{"line":1,"column":15}]}]}"#)
        #expect(
            try await run(#"{ echo(value: "7") }"#)
                == #"{"errors":[{"message":"Odd cannot represent value: \"7\"","locations":[{"line":1,"column":15}]}]}"#)
    }

    @Test func aVariableTheScalarRefusesIsARequestError() async throws {
        #expect(
            try await run("query ($v: Odd) { echo(value: $v) }", variables: #"{"v": 2}"#)
                == #"{"errors":[{"message":"Variable \"$v\" got invalid value 2; Odd cannot represent value: 2","locations":[{"line":1,"column":8}]}]}"#
        )
    }

    @Test func aResultTheScalarRefusesIsAFieldError() async throws {
        #expect(
            try await run("{ result }")
                == #"{"errors":[{"message":"Odd cannot represent value: 4","locations":[{"line":1,"column":3}],"path":["result"]}],"data":{"result":null}}"#
        )
    }

    @Test func aScalarWithoutACoercionPassesValuesThrough() async throws {
        #expect(try await run(#"{ raw(value: {a: [1, "b"]}) }"#) == #"{"data":{"raw":{"a":[1,"b"]}}}"#)
        #expect(try await run("{ echo(value: 8) }", schema: try Self.schema(registering: false)) == #"{"data":{"echo":8}}"#)
    }

    @Test func onlyACustomScalarOfTheSchemaTakesACoercion() throws {
        var builder = ExecutableSchema.Builder(schema: try buildSchema("scalar Odd type Query { a: Int }"))
        builder.readFieldsByName("Query")
        builder.scalar("Int", Self.odd)
        builder.scalar("Even", Self.odd)
        #expect { try builder.build() } throws: { error in
            "\(error)" == "\"Int\" is not a custom scalar of the schema.\n\"Even\" is not a custom scalar of the schema."
        }
    }
}
