import Foundation
import Testing

/// `huddle format`, run as a process.
@Suite struct FormatCommandTests {
    let scratch: ScratchDirectory

    init() throws {
        scratch = try ScratchDirectory("huddle-format")
    }

    func file(_ name: String, _ contents: String) throws -> String {
        try scratch.file(name, contents)
    }

    @Test func formatsStandardInputWhenNoFileIsGiven() throws {
        let outcome = try HuddleCommand.run(["format"], input: "query Q($id:ID!){session(id:$id){id,players{username}}}")
        #expect(outcome.status == 0)
        #expect(
            outcome.standardOutput == """
                query Q($id: ID!) {
                  session(id: $id) {
                    id
                    players {
                      username
                    }
                  }
                }

                """)
        #expect(outcome.standardError.isEmpty)
    }

    @Test func dashMeansStandardInput() throws {
        let outcome = try HuddleCommand.run(["format", "-"], input: "type A{b:C}")
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput == "type A {\n  b: C\n}\n")
    }

    @Test func formatsAFile() throws {
        let path = try file("schema.graphql", "\"\"\"Docs\"\"\" scalar DateTime  extend scalar DateTime @d")
        let outcome = try HuddleCommand.run(["format", path])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput == "\"\"\"Docs\"\"\"\nscalar DateTime\n\nextend scalar DateTime @d\n")
    }

    @Test func reportsASyntaxErrorInAFileWithItsLocation() throws {
        let path = try file("broken.graphql", "query {\n  a(b: 00)\n}\n")
        let outcome = try HuddleCommand.run(["format", path])
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.standardError == "\(path):2:9: Syntax Error: Invalid number, unexpected digit after 0: \"0\".\n")
    }

    @Test func reportsASyntaxErrorOnStandardInput() throws {
        let outcome = try HuddleCommand.run(["format"], input: "{ a(b: \"\\uD800\") }")
        #expect(outcome.status == 1)
        #expect(outcome.standardError == "<stdin>:1:9: Syntax Error: Invalid Unicode escape sequence: \"\\uD800\".\n")
    }

    @Test func emptyInputIsASyntaxError() throws {
        let outcome = try HuddleCommand.run(["format"], input: "")
        #expect(outcome.status == 1)
        #expect(outcome.standardError == "<stdin>:1:1: Syntax Error: Unexpected <EOF>.\n")
    }

    @Test func aMissingFileIsAnIOError() throws {
        let outcome = try HuddleCommand.run(["format", scratch.path("none.graphql")])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("cannot read"))
    }

    @Test func formattingIsIdempotent() throws {
        let first = try HuddleCommand.run(["format"], input: "{a(x:\"\"\"\n  block\n    text\n\"\"\"){...on T{b}}}")
        let second = try HuddleCommand.run(["format"], input: first.standardOutput)
        #expect(first.status == 0)
        #expect(second.standardOutput == first.standardOutput)
    }
}
