import Foundation
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// `huddle schema`, run as a process.
@Suite struct SchemaCommandTests {
    let scratch: ScratchDirectory

    init() throws {
        scratch = try ScratchDirectory("huddle-schema")
    }

    func file(_ contents: String) throws -> String {
        try scratch.file("\(UUID().uuidString).graphql", contents)
    }

    @Test func printsTheSchemaOfSeveralFiles() throws {
        let types = try file("type Query { me: User }\n")
        let user = try file("\"A person\" type User { id: ID! name: String @deprecated(reason: \"Use `names`.\") }\n")
        let outcome = try HuddleCommand.run(["schema", "--schema", types, "--schema", user])
        #expect(outcome.status == 0)
        #expect(
            outcome.standardOutput == """
                type Query {
                  me: User
                }

                \"""A person\"""
                type User {
                  id: ID!
                  name: String @deprecated(reason: "Use `names`.")
                }

                """)
    }

    @Test func listsEveryProblemWithItsFileAndExitsTwo() throws {
        let path = try file("type Query { a: Strin b: Missing }\n")
        let outcome = try HuddleCommand.run(["schema", "--schema", path])
        #expect(outcome.status == 2)
        #expect(outcome.standardOutput.isEmpty)
        #expect(
            outcome.standardError == """
                \(path):1:17: Unknown type "Strin". Did you mean "String"?
                \(path):1:26: Unknown type "Missing".

                """)
    }

    @Test func reportsTypeSystemValidationErrors() throws {
        let path = try file("type Query implements I { a: String }\ninterface I { a: Int }\n")
        let outcome = try HuddleCommand.run(["schema", "--schema", path])
        #expect(outcome.status == 2)
        #expect(outcome.standardError == "\(path):2:18: Interface field I.a expects type Int but Query.a is type String.\n")
    }

    @Test func aSyntaxErrorInTheSchemaExitsTwo() throws {
        let path = try file("type Query {")
        let outcome = try HuddleCommand.run(["schema", "--schema", path])
        #expect(outcome.status == 2)
        #expect(outcome.standardError == "\(path):1:13: Syntax Error: Expected Name, found <EOF>.\n")
    }

    @Test func anUnreadableFileIsAUsageError() throws {
        let outcome = try HuddleCommand.run(["schema", "--schema", "/nonexistent/schema.graphql"])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("cannot read /nonexistent/schema.graphql"))
    }
}
