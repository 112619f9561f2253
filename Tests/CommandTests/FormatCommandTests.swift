import Foundation
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
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

    /// A front-end tree: a file in canonical form, one not, one that does
    /// not parse, one in node_modules and one in a hidden folder (both left out).
    func tree() throws -> String {
        let root = scratch.path("app")
        for folder in ["app", "app/src/queries", "app/node_modules/lib", "app/.cache"] {
            try FileManager.default.createDirectory(atPath: scratch.path(folder), withIntermediateDirectories: true)
        }
        _ = try file("app/src/queries/me.graphql", "query Me {\n  me {\n    id\n  }\n}\n")
        _ = try file("app/src/queries/feed.gql", "query Feed{feed(first:10){id}}")
        _ = try file("app/src/broken.graphql", "query { me { id }")
        _ = try file("app/node_modules/lib/x.graphql", "query{x}")
        _ = try file("app/.cache/y.graphql", "query{y}")
        return root
    }

    @Test func checkNamesTheFilesToFormatAndChangesNothing() throws {
        let root = try tree()
        let outcome = try HuddleCommand.run(["format", "--check", root])
        #expect(outcome.status == 1)
        // Each with what formatting would change, as `diff -u` shows it.
        let feed = "\(root)/src/queries/feed.gql"
        #expect(
            outcome.standardOutput == """
                \(feed): not in canonical form
                --- \(feed)
                +++ \(feed) (formatted)
                @@ -1 +1,5 @@
                -query Feed{feed(first:10){id}}
                \\ No newline at end of file
                +query Feed {
                +  feed(first: 10) {
                +    id
                +  }
                +}
                3 files, 1 to format

                """,
            "\(outcome.standardOutput)")
        #expect(
            outcome.standardError == "\(root)/src/broken.graphql:1:18: Syntax Error: Expected Name, found <EOF>.\n",
            "\(outcome.standardError)")
        #expect(try String(contentsOfFile: root + "/src/queries/feed.gql", encoding: .utf8) == "query Feed{feed(first:10){id}}")
    }

    @Test func writeRewritesThoseFilesAndLeavesOneThatDoesNotParse() throws {
        let root = try tree()
        let written = try HuddleCommand.run(["format", "--write", root])
        #expect(written.status == 1, "\(written.standardError)")
        #expect(written.standardOutput == "formatted \(root)/src/queries/feed.gql\n3 files, 1 formatted\n", "\(written.standardOutput)")
        #expect(
            try String(contentsOfFile: root + "/src/queries/feed.gql", encoding: .utf8)
                == "query Feed {\n  feed(first: 10) {\n    id\n  }\n}\n")
        #expect(try String(contentsOfFile: root + "/src/broken.graphql", encoding: .utf8) == "query { me { id }")
        // Once the broken file is mended, everything is in canonical form; globs name files too.
        _ = try file("app/src/broken.graphql", "query Mended {\n  me {\n    id\n  }\n}\n")
        let checked = try HuddleCommand.run(["format", "--check", root])
        #expect(checked.status == 0 && checked.standardOutput == "3 files, 0 to format\n", "\(checked.standardOutput)")
        let globbed = try HuddleCommand.run(["format", "--check", root + "/src/queries/*.g*ql", root + "/src/queries/me.graphql"])
        #expect(globbed.status == 0 && globbed.standardOutput == "2 files, 0 to format\n", "\(globbed.standardOutput)")
    }

    /// A formatter never loses a developer's text: comments stay, each
    /// beside what it was beside, and the check then passes.
    @Test func writeKeepsComments() throws {
        let path = try file(
            "commented.graphql",
            "# The home screen.\nquery Home { # top\n  me { id } # who\n  # the feed\n  feed(first: 10) { id }\n}\n")
        let written = try HuddleCommand.run(["format", "--write", path])
        #expect(written.status == 0, "\(written.standardError)")
        #expect(
            try String(contentsOfFile: path, encoding: .utf8) == """
                # The home screen.
                query Home { # top
                  me {
                    id
                  } # who
                  # the feed
                  feed(first: 10) {
                    id
                  }
                }

                """)
        let checked = try HuddleCommand.run(["format", "--check", path])
        #expect(checked.status == 0 && checked.standardOutput == "1 file, 0 to format\n", "\(checked.standardOutput)")
    }

    @Test func checkShowsTheChangesOfALongFileByHunks() throws {
        let fields = (1...30).map { "  f\($0)" }.joined(separator: "\n")
        let path = try file("long.graphql", "query Long {\n\(fields)\n}\n".replacingOccurrences(of: "  f15", with: "  f15(a:1)"))
        let outcome = try HuddleCommand.run(["format", "--check", path])
        #expect(outcome.status == 1)
        #expect(
            outcome.standardOutput == """
                \(path): not in canonical form
                --- \(path)
                +++ \(path) (formatted)
                @@ -13,7 +13,7 @@
                   f12
                   f13
                   f14
                -  f15(a:1)
                +  f15(a: 1)
                   f16
                   f17
                   f18
                1 file, 1 to format

                """, "\(outcome.standardOutput)")
    }

    @Test func badPathsAndFlagsAreRefused() throws {
        let root = try tree()
        let missing = try HuddleCommand.run(["format", "--check", root + "/nothing/*.graphql"])
        #expect(missing.status == 2)
        #expect(missing.standardError == "huddle format: no such file, folder or match: \(root)/nothing/*.graphql\n")
        #expect(try HuddleCommand.run(["format", "--check", "--write", root]).status == 2)
        #expect(try HuddleCommand.run(["format", "--check"]).status == 2)
        #expect(try HuddleCommand.run(["format", root + "/src/queries/me.graphql", root + "/src/broken.graphql"]).status == 2)
    }
}
