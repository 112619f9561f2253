import Foundation
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// `huddle execute`, run as a process over JSON fixture data.
@Suite struct ExecuteCommandTests {
    let scratch: ScratchDirectory

    init() throws {
        scratch = try ScratchDirectory("huddle-execute")
    }

    func file(_ name: String, _ contents: String) throws -> String {
        try scratch.file(name, contents)
    }

    @Test func executesOverJSONDataWithVariablesAndAnOperationName() throws {
        let schema = try file("s.graphql", "type Query { me: User greet(name: String!): String } type User { id: ID! name: String }")
        let data = try file("d.json", #"{"me": {"id": 7, "name": "Ana"}, "greet": "hello"}"#)
        let variables = try file("v.json", #"{"n": "x"}"#)
        let outcome = try HuddleCommand.run(
            ["execute", "--schema", schema, "--data", data, "--variables", variables, "--operation", "B", "-"],
            input: "query A { me { id } } query B($n: String!) { me { id name } greet(name: $n) }"
        )
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput == #"{"data":{"me":{"id":"7","name":"Ana"},"greet":"hello"}}"# + "\n")
    }

    @Test func errorsAreInTheResponseAndExitOne() throws {
        let schema = try file("s.graphql", "type Query { me: User } type User { id: ID! }")
        let data = try file("d.json", #"{"me": {}}"#)
        let outcome = try HuddleCommand.run(["execute", "--schema", schema, "--data", data, "-"], input: "{ me { id } }")
        #expect(outcome.status == 1)
        #expect(
            outcome.standardOutput
                == #"{"errors":[{"message":"Cannot return null for non-nullable field User.id.","locations":[{"line":1,"column":8}],"path":["me","id"]}],"data":{"me":null}}"#
                + "\n")
        let invalid = try HuddleCommand.run(["execute", "--schema", schema, "-"], input: "{ you }")
        #expect(invalid.status == 1)
        #expect(
            invalid.standardOutput
                == #"{"errors":[{"message":"Cannot query field \"you\" on type \"Query\".","locations":[{"line":1,"column":3}]}]}"# + "\n")
    }

    @Test func badDataIsAUsageError() throws {
        let schema = try file("s.graphql", "type Query { a: Int }")
        let data = try file("d.json", "{not json")
        let outcome = try HuddleCommand.run(["execute", "--schema", schema, "--data", data, "-"], input: "{ a }")
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("is not JSON"))
    }
}
