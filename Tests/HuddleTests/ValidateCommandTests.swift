import Foundation
import Testing

/// `huddle validate`, run as a process, as front-end teams run it in their CI.
@Suite struct ValidateCommandTests {
    let schemaPath: String

    init() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("huddle-validate-\(UUID().uuidString).graphql")
        try Data("type Query { me: User } type User { id: ID! name: String }".utf8).write(to: url)
        schemaPath = url.path
    }

    @Test func aValidDocumentPrintsNoErrorsAndExitsZero() throws {
        let outcome = try HuddleCommand.run(["validate", "--schema", schemaPath, "-"], input: "{ me { id name } }")
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput == "{\"errors\":[]}\n")
    }

    @Test func anInvalidDocumentPrintsGraphQLJSErrorsAndExitsOne() throws {
        let outcome = try HuddleCommand.run(["validate", "--schema", schemaPath, "-"], input: "query Q($x: ID) { me { nam } }")
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput == #"""
            {"errors":[{"message":"Cannot query field \"nam\" on type \"User\". Did you mean \"name\"?","locations":[{"line":1,"column":24}]},{"message":"Variable \"$x\" is never used in operation \"Q\".","locations":[{"line":1,"column":9}]}]}

            """#)
    }

    @Test func aSyntaxErrorIsReportedAsOneError() throws {
        let document = FileManager.default.temporaryDirectory.appendingPathComponent("doc-\(UUID().uuidString).graphql")
        try Data("{ me {".utf8).write(to: document)
        let outcome = try HuddleCommand.run(["validate", "--schema", schemaPath, document.path])
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput == #"{"errors":[{"message":"Syntax Error: Expected Name, found <EOF>.","locations":[{"line":1,"column":7}]}]}"# + "\n")
    }

    @Test func usageAndSchemaProblemsExitTwo() throws {
        #expect(try HuddleCommand.run(["validate", "--schema", schemaPath]).status == 2)
        #expect(try HuddleCommand.run(["validate", "--schema", schemaPath, "/nonexistent.graphql"]).status == 2)
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID().uuidString).graphql")
        try Data("type Query { a: Missing }".utf8).write(to: broken)
        let outcome = try HuddleCommand.run(["validate", "--schema", broken.path, "-"], input: "{ a }")
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("Unknown type \"Missing\"."))
    }
}
