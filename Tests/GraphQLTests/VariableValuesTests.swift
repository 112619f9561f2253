import Foundation
import GraphQL
import Testing

/// Variable values and graphql-js 16's answer for them
/// (scripts/graphql-js/make-variables-fixtures.js).
struct VariablesCase: Decodable, CustomTestStringConvertible, Sendable {
    var definitions: String
    var variables: String
    var coerced: String?
    var errors: [ParseCase.ExpectedError]?

    var testDescription: String { "(\(definitions)) \(variables)" }

    static let all: [VariablesCase] = {
        let url = Bundle.module.url(forResource: "variables-cases", withExtension: "json", subdirectory: "Fixtures")!
        return try! JSONDecoder().decode([VariablesCase].self, from: Data(contentsOf: url))
    }()
}

@Suite struct VariableValuesTests {
    func coerce(_ definitions: String, _ variables: String, schema: GraphQLSchema = ValidationFixtures.schema)
        throws -> (definitions: [VariableDefinition], result: Result<[String: GraphQLValue], VariableErrors>)
    {
        let source = Source(body: "query Q(\(definitions)) { dog { name } }")
        guard case .operation(let operation) = try parse(source).definitions[0] else { throw GraphQLError(message: "no operation") }
        guard case .object(let inputs) = try JSONReader().read(variables) else { throw GraphQLError(message: "not an object") }
        let result = VariableValues.coerce(
            schema: schema, definitions: operation.variableDefinitions, inputs: inputs, source: source
        )
        return (operation.variableDefinitions, result)
    }

    @Test(arguments: VariablesCase.all)
    func coercionMatchesGraphQLJS(_ testCase: VariablesCase) throws {
        let (definitions, result) = try coerce(testCase.definitions, testCase.variables)
        switch result {
        case .success(let values):
            // graphql-js's object lists the variables in definition order.
            let members = definitions.compactMap { definition in
                values[definition.variable.name.value].map { GraphQLValue.Member(definition.variable.name.value, $0) }
            }
            #expect(GraphQLValue.object(members).json == testCase.coerced)
            #expect(testCase.errors == nil)
        case .failure(let failure):
            #expect(failure.errors.map(\.asTuple) == (testCase.errors ?? []).map(\.asTuple))
        }
    }

    @Test func oneOfVariablesTakeExactlyOneNonNullField() throws {
        let schema = try buildSchema("type Query { pick(by: By): Int } input By @oneOf { id: ID name: String }")
        func messages(_ variables: String) throws -> [String] {
            guard case .failure(let failure) = try coerce("$by: By", variables, schema: schema).result else { return [] }
            return failure.errors.map(\.message)
        }
        #expect(try messages(#"{"by": {"id": 1}}"#).isEmpty)
        #expect(
            try messages(#"{"by": {}}"#) == [
                "Variable \"$by\" got invalid value {}; Exactly one key must be specified for OneOf type \"By\"."
            ])
        #expect(
            try messages(#"{"by": {"id": 1, "name": "x"}}"#) == [
                "Variable \"$by\" got invalid value { id: 1, name: \"x\" }; Exactly one key must be specified for OneOf type \"By\"."
            ])
        #expect(
            try messages(#"{"by": {"id": null}}"#) == [
                "Variable \"$by\" got invalid value null at \"by.id\"; Field \"id\" must be non-null."
            ])
    }

    @Test func errorsStopAtFiftyWithGraphQLJSMessage() throws {
        let definitions = (0..<51).map { "$v\($0): Int!" }.joined(separator: ", ")
        guard case .failure(let failure) = try coerce(definitions, "{}").result else {
            Issue.record("expected errors")
            return
        }
        #expect(failure.errors.count == 51)
        #expect(failure.errors.last?.message == "Too many errors processing variables, error limit reached. Execution aborted.")
        guard case .failure(let fifty) = try coerce((0..<50).map { "$v\($0): Int!" }.joined(separator: ", "), "{}").result else {
            Issue.record("expected errors")
            return
        }
        #expect(fifty.errors.count == 50)
    }
}

@Suite struct JSONTests {
    @Test(arguments: [
        (#"{"a":[1,-2,3.5,1e3,-0.5e-2,true,false,null,"x"]}"#, #"{"a":[1,-2,3.5,1000,-0.005,true,false,null,"x"]}"#),
        (#" { "b" : { "c" : [ ] , "d" : { } } } "#, #"{"b":{"c":[],"d":{}}}"#),
        (#"["\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00\u0001"]"#, #"["\"\\/\b\f\n\r\té😀\u0001"]"#),
        (#"{"a":1,"b":2,"a":3}"#, #"{"a":3,"b":2}"#),
        ("9007199254740993", "9007199254740993"),
        ("1.7976931348623157e308", "1.7976931348623157e+308"),
        ("123456789012345678901234567890", "1.2345678901234568e+29"),
    ])
    func readsAndWritesJSONAsJavaScriptDoes(_ input: String, _ output: String) throws {
        #expect(try JSONReader().read(input).json == output)
    }

    @Test(arguments: ["", "{", "[1,]", "{\"a\" 1}", "01", "1.", "-", "\"\u{1}\"", "\"\\x\"", "tru", "[1] 2", "{'a':1}", "NaN"])
    func rejectsMalformedJSON(_ input: String) {
        #expect(throws: JSONReader.Error.self) { try JSONReader().read(input) }
    }

    @Test func nestingIsBounded() {
        #expect(throws: JSONReader.Error.self) { try JSONReader().read(String(repeating: "[", count: 100_000)) }
        #expect((try? JSONReader(maxDepth: 3).read("[[[1]]]")) != nil)
        #expect((try? JSONReader(maxDepth: 3).read("[[[[1]]]]")) == nil)
    }

    @Test func writesNumbersAsJavaScript() {
        let cases: [(Double, String)] = [
            (0, "0"), (-0.0, "0"), (1, "1"), (1.5, "1.5"), (0.1, "0.1"), (1e21, "1e+21"), (1e20, "100000000000000000000"),
            (1e-7, "1e-7"), (0.000001, "0.000001"), (123.456, "123.456"), (-2.5e-10, "-2.5e-10"), (Double.leastNonzeroMagnitude, "5e-324"),
        ]
        for (value, text) in cases {
            #expect(GraphQLValue.float(value).json == text)
        }
        #expect(GraphQLValue.float(.nan).json == "null")
    }
}
