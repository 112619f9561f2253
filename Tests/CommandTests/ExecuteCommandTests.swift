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

    /// `--incremental`: a line per result, in graphql-js 17's shape.
    @Test func deliversDeferAndStreamInPartsAsJSONLines() throws {
        let schema = try file("s.graphql", "type Query { me: User } type User { id: ID! name: String pets: [String] }")
        let data = try file("d.json", #"{"me": {"id": 7, "name": "Ana", "pets": ["Rex", "Tom", "Kit"]}}"#)
        let deferred = try HuddleCommand.run(
            ["execute", "--incremental", "--schema", schema, "--data", data, "-"],
            input: #"{ me { id ... @defer(label: "more") { name } pets @stream(initialCount: 1) } }"#)
        #expect(deferred.status == 0, "\(deferred.standardError)")
        let lines = deferred.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count >= 2, "\(deferred.standardOutput)")
        #expect(
            lines.first
                == #"{"data":{"me":{"id":"7","pets":["Rex"]}},"pending":[{"id":"0","path":["me"],"label":"more"},{"id":"1","path":["me","pets"]}],"hasNext":true}"#,
            "\(deferred.standardOutput)")
        // graphql-js 17 writes a subsequent result's hasNext first.
        #expect(lines.last?.hasPrefix(#"{"hasNext":false,"#) == true, "\(deferred.standardOutput)")
        // Every part arrives: the deferred name, the streamed pets, each completed.
        let rest = lines.dropFirst().joined(separator: "\n")
        #expect(rest.contains(#"{"data":{"name":"Ana"},"id":"0"}"#), "\(rest)")
        #expect(rest.contains(#""Tom""#) && rest.contains(#""Kit""#) && rest.contains(#"{"id":"0"}"#) && rest.contains(#"{"id":"1"}"#))
        // Nothing deferred: the one result, as without the flag.
        let plain = try HuddleCommand.run(["execute", "--incremental", "--schema", schema, "--data", data, "-"], input: "{ me { id } }")
        #expect(plain.status == 0 && plain.standardOutput == #"{"data":{"me":{"id":"7"}}}"# + "\n", "\(plain)")
        // An error in a deferred part fails the command.
        let broken = try file("b.json", #"{"me": {"id": 7}}"#)
        let strict = try file("t.graphql", "type Query { me: User } type User { id: ID! name: String! }")
        let failing = try HuddleCommand.run(
            ["execute", "--incremental", "--schema", strict, "--data", broken, "-"], input: "{ me { id ... @defer { name } } }")
        #expect(failing.status == 1, "\(failing)")
        #expect(failing.standardOutput.contains("Cannot return null for non-nullable field User.name."), "\(failing.standardOutput)")
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
