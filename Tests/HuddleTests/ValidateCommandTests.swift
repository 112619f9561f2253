import Foundation
import Testing

/// `huddle validate`, run as a process, as front-end teams run it in their CI.
@Suite struct ValidateCommandTests {
    let scratch: ScratchDirectory
    let schemaPath: String

    init() throws {
        scratch = try ScratchDirectory("huddle-validate")
        schemaPath = try scratch.file("schema.graphql", "type Query { me: User } type User { id: ID! name: String }")
    }

    @Test func aValidDocumentPrintsNoErrorsAndExitsZero() throws {
        let outcome = try HuddleCommand.run(["validate", "--schema", schemaPath, "-"], input: "{ me { id name } }")
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput == "{\"errors\":[]}\n")
    }

    @Test func anInvalidDocumentPrintsGraphQLJSErrorsAndExitsOne() throws {
        let outcome = try HuddleCommand.run(["validate", "--schema", schemaPath, "-"], input: "query Q($x: ID) { me { nam } }")
        #expect(outcome.status == 1)
        #expect(
            outcome.standardOutput == #"""
                {"errors":[{"message":"Cannot query field \"nam\" on type \"User\". Did you mean \"name\"?","locations":[{"line":1,"column":24}]},{"message":"Variable \"$x\" is never used in operation \"Q\".","locations":[{"line":1,"column":9}]}]}

                """#)
    }

    @Test func aSyntaxErrorIsReportedAsOneError() throws {
        let document = try scratch.file("doc.graphql", "{ me {")
        let outcome = try HuddleCommand.run(["validate", "--schema", schemaPath, document])
        #expect(outcome.status == 1)
        #expect(
            outcome.standardOutput
                == #"{"errors":[{"message":"Syntax Error: Expected Name, found <EOF>.","locations":[{"line":1,"column":7}]}]}"# + "\n")
    }

    @Test func usageAndSchemaProblemsExitTwo() throws {
        #expect(try HuddleCommand.run(["validate", "--schema", schemaPath]).status == 2)
        #expect(try HuddleCommand.run(["validate", "--schema", schemaPath, "/nonexistent.graphql"]).status == 2)
        let broken = try scratch.file("broken.graphql", "type Query { a: Missing }")
        let outcome = try HuddleCommand.run(["validate", "--schema", broken, "-"], input: "{ a }")
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("Unknown type \"Missing\"."))
    }
}
