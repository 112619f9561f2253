import Foundation
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// `huddle validate`, run as a process, as front-end teams run it in their CI.
@Suite struct ValidateCommandTests {
    let scratch: ScratchDirectory
    let schemaPath: String

    init() throws {
        scratch = try ScratchDirectory("huddle-validate")
        schemaPath = try scratch.file("schema.graphql", "type Query { me: User } type User { id: ID! name: String }")
    }

    @Test func aValidDocumentPrintsASummaryAndExitsZero() throws {
        let outcome = try HuddleCommand.run(["validate", "--schema", schemaPath, "-"], input: "{ me { id name } }")
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput == "no errors (1 file, 1 operation, 0 fragments)\n")
        let json = try HuddleCommand.run(["validate", "--format", "json", "--schema", schemaPath, "-"], input: "{ me { id } }")
        #expect(json.status == 0)
        #expect(json.standardOutput == #"{"errors":[],"warnings":[],"files":1,"operations":1,"fragments":0}"# + "\n")
    }

    @Test func anInvalidDocumentPrintsGraphQLJSErrorsAndExitsOne() throws {
        let input = "query Q($x: ID) { me { nam } }"
        let outcome = try HuddleCommand.run(["validate", "--schema", schemaPath, "-"], input: input)
        #expect(outcome.status == 1)
        #expect(
            outcome.standardOutput == #"""
                <stdin>:1:9: Variable "$x" is never used in operation "Q".
                <stdin>:1:24: Cannot query field "nam" on type "User". Did you mean "name"?
                2 errors in 1 file (1 file, 1 operation, 0 fragments)

                """#)
        let json = try HuddleCommand.run(["validate", "--format", "json", "--schema", schemaPath, "-"], input: input)
        #expect(
            json.standardOutput == #"""
                {"errors":[{"message":"Variable \"$x\" is never used in operation \"Q\".","rule":"NoUnusedVariablesRule","severity":"error","locations":[{"file":"<stdin>","line":1,"column":9}]},{"message":"Cannot query field \"nam\" on type \"User\". Did you mean \"name\"?","rule":"FieldsOnCorrectTypeRule","severity":"error","locations":[{"file":"<stdin>","line":1,"column":24}]}],"warnings":[],"files":1,"operations":1,"fragments":0}

                """#)
    }

    @Test func aSyntaxErrorIsReportedAsOneError() throws {
        let document = try scratch.file("doc.graphql", "{ me {")
        let outcome = try HuddleCommand.run(["validate", "--schema", schemaPath, document])
        #expect(outcome.status == 1)
        #expect(
            outcome.standardOutput
                == "\(document):1:7: Syntax Error: Expected Name, found <EOF>.\n1 error in 1 file (1 file, 0 operations, 0 fragments)\n")
    }

    @Test func usageAndSchemaProblemsExitTwo() throws {
        #expect(try HuddleCommand.run(["validate", "--schema", schemaPath]).status == 2)
        #expect(try HuddleCommand.run(["validate", "--schema", schemaPath, "/nonexistent.graphql"]).status == 2)
        #expect(try HuddleCommand.run(["validate", "--schema", schemaPath, "--max-errors", "0", "-"], input: "{ me { id } }").status == 2)
        let broken = try scratch.file("broken.graphql", "type Query { a: Missing }")
        let outcome = try HuddleCommand.run(["validate", "--schema", broken, "-"], input: "{ a }")
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("Unknown type \"Missing\"."))
        let empty = scratch.path("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let nothing = try HuddleCommand.run(["validate", "--schema", schemaPath, empty])
        #expect(nothing.status == 2)
        #expect(nothing.standardError == "huddle validate: no .graphql, .gql, .js, .jsx, .ts, .tsx or .vue files in \(empty)\n")
        #expect(try HuddleCommand.run(["validate", "--header", "A: b", "--schema", schemaPath, "-"], input: "{ me { id } }").status == 2)
    }

    @Test func errorsStopAtTheLimitAsGraphQLJSStops() throws {
        let input = "{ me { a b c } }"
        let outcome = try HuddleCommand.run(["validate", "--schema", schemaPath, "--max-errors", "2", "-"], input: input)
        #expect(outcome.status == 1)
        #expect(
            outcome.standardOutput == #"""
                <stdin>:1:8: Cannot query field "a" on type "User".
                <stdin>:1:10: Cannot query field "b" on type "User".
                Too many validation errors, error limit reached. Validation aborted.
                3 errors in 1 file (1 file, 1 operation, 0 fragments)

                """#)
        let atLimit = try HuddleCommand.run(["validate", "--schema", schemaPath, "--max-errors", "3", "-"], input: input)
        #expect(!atLimit.standardOutput.contains("Too many"))
    }

    // MARK: A front-end project

    /// A small front-end tree: operations in TypeScript, TSX, Vue and
    /// `.graphql` files, a fragment shared across them, things in comments,
    /// strings, regular expressions and JSX text that look like tags, and
    /// one error of each kind: a syntax error in a template, an unknown
    /// field in a template and in a `.graphql` file, an operation name used
    /// twice across files, an unknown and an unused fragment.
    func project() throws -> URL {
        let root = scratch.url.appendingPathComponent("web")
        for folder in ["src/components", "src/graphql", "node_modules/lib", ".next"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: root.appendingPathComponent(name))
        }
        try write(
            "schema.graphql",
            """
            type Query { me: User, user(id: ID!): User }
            type User { id: ID! name: String friends: [User!]! }
            """)
        try write("src/graphql/user.graphql", "fragment UserBits on User {\n  id\n  name\n}\n")
        try write("src/graphql/unused.graphql", "fragment Unused on User {\n  id\n}\n")
        try write("src/graphql/friends.graphql", "query Friends {\n  me {\n    friends {\n      nickname\n    }\n  }\n}\n")
        try write(
            "src/components/Profile.tsx",
            """
            import { gql } from '@apollo/client';
            import { USER_BITS } from '../graphql';
            // gql`{ inAComment }`
            const label = "gql`{ inAString }`";
            const pattern = /`gql/g;
            export function Profile() {
              return <p>Don't {label}</p>;
            }
            export const ME = gql`
              query Me {
                me {
                  ...UserBits
                  nam
                }
              }
              ${USER_BITS}
            `;
            export const BROKEN = gql`
              query Broken {
                me { id
            `;
            """)
        try write(
            "src/components/Friend.ts",
            "import { graphql } from './gql';\n"
                + "export const FRIEND = graphql(`query Friend($id: ID!) { user(id: $id) { ...UserBits ...Missing } }`);\n"
                + "export const RAW = /* GraphQL */ `query Raw { me { id } }`;\n")
        try write(
            "src/components/Menu.vue",
            """
            <template>
              <p>Don't {{ gql`{ inTheTemplate }` }}</p>
            </template>
            <script setup lang="ts">
            const ME = gql`query Me { me { id } }`;
            </script>
            """)
        try write("node_modules/lib/index.js", "export default gql`{ notOurs }`;\n")
        try write(".next/page.js", "export default gql`{ built }`;\n")
        return root
    }

    @Test func aProjectIsValidatedAsOneWithEachErrorAtItsPlace() throws {
        let root = try project()
        let outcome = try HuddleCommand.run(["validate", "--schema", "schema.graphql", "."], in: root)
        #expect(outcome.status == 1, "\(outcome.standardError)")
        #expect(
            outcome.standardOutput == #"""
                ./src/components/Friend.ts:2:88: Unknown fragment "Missing".
                ./src/components/Menu.vue:5:22: There can be only one operation named "Me".
                  ./src/components/Profile.tsx:10:9: also here
                ./src/components/Profile.tsx:13:7: Cannot query field "nam" on type "User". Did you mean "name"?
                ./src/components/Profile.tsx:21:1: Syntax Error: Expected Name, found <EOF>.
                ./src/graphql/friends.graphql:4:7: Cannot query field "nickname" on type "User". Did you mean "name"?
                ./src/graphql/unused.graphql:1:1: Fragment "Unused" is never used.
                6 errors in 5 files (6 files, 5 operations, 2 fragments)

                """#, "\(outcome.standardOutput)")
    }

    @Test func jsonOutputNamesTheFileOfEachPlace() throws {
        let root = try project()
        let outcome = try HuddleCommand.run(["validate", "--format", "json", "--schema", "schema.graphql", "src/components"], in: root)
        #expect(outcome.status == 1)
        // Without src/graphql, UserBits is unknown where it is spread.
        #expect(
            outcome.standardOutput == #"""
                {"errors":[{"message":"Unknown fragment \"UserBits\".","rule":"KnownFragmentNamesRule","severity":"error","locations":[{"file":"src/components/Friend.ts","line":2,"column":76}]},{"message":"Unknown fragment \"Missing\".","rule":"KnownFragmentNamesRule","severity":"error","locations":[{"file":"src/components/Friend.ts","line":2,"column":88}]},{"message":"There can be only one operation named \"Me\".","rule":"UniqueOperationNamesRule","severity":"error","locations":[{"file":"src/components/Menu.vue","line":5,"column":22},{"file":"src/components/Profile.tsx","line":10,"column":9}]},{"message":"Unknown fragment \"UserBits\".","rule":"KnownFragmentNamesRule","severity":"error","locations":[{"file":"src/components/Profile.tsx","line":12,"column":10}]},{"message":"Cannot query field \"nam\" on type \"User\". Did you mean \"name\"?","rule":"FieldsOnCorrectTypeRule","severity":"error","locations":[{"file":"src/components/Profile.tsx","line":13,"column":7}]},{"message":"Syntax Error: Expected Name, found <EOF>.","rule":"SyntaxError","severity":"error","locations":[{"file":"src/components/Profile.tsx","line":21,"column":1}]}],"warnings":[],"files":3,"operations":4,"fragments":0}

                """#, "\(outcome.standardOutput)")
    }

    @Test func aMendedProjectPassesAndGlobsPickFiles() throws {
        let root = try project()
        func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: root.appendingPathComponent(name))
        }
        try write("src/graphql/unused.graphql", "query UsesIt {\n  me {\n    ...Unused\n  }\n}\nfragment Unused on User {\n  id\n}\n")
        try write("src/graphql/friends.graphql", "query Friends {\n  me {\n    friends {\n      name\n    }\n  }\n}\n")
        try write(
            "src/components/Friend.ts",
            "export const FRIEND = graphql(`query Friend($id: ID!) { user(id: $id) { ...UserBits } }`);\n")
        try write("src/components/Menu.vue", "<script>\nconst MENU = gql`query Menu { me { id } }`;\n</script>\n")
        let profile = try String(contentsOf: root.appendingPathComponent("src/components/Profile.tsx"), encoding: .utf8)
        try write(
            "src/components/Profile.tsx",
            profile.replacingOccurrences(of: "      nam\n", with: "").replacingOccurrences(
                of: "    me { id\n", with: "    me { id }\n  }\n"))
        let outcome = try HuddleCommand.run(["validate", "--schema", "schema.graphql", "src"], in: root)
        #expect(outcome.status == 0, "\(outcome.standardOutput)")
        #expect(outcome.standardOutput == "no errors (6 files, 6 operations, 2 fragments)\n")
        let globbed = try HuddleCommand.run(
            ["validate", "--schema", "schema.graphql", "src/graphql/*.graphql", "src/components/*.ts"], in: root)
        #expect(globbed.status == 0, "\(globbed.standardOutput)")
        #expect(globbed.standardOutput == "no errors (4 files, 3 operations, 2 fragments)\n")
    }

    @Test func formatChecksEmbeddedDocumentsAndRewritesOnlyGraphQLFiles() throws {
        let root = try project()
        func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: root.appendingPathComponent(name))
        }
        try write(
            "src/components/Canonical.ts",
            """
            export const FEED = gql`
              query Feed {
                me {
                  ...UserBits
                }
              }

              ${USER_BITS}
            `;
            """)
        try write("src/graphql/friends.graphql", "query Friends { me { friends { name } } }")
        let profile = try String(contentsOf: root.appendingPathComponent("src/components/Profile.tsx"), encoding: .utf8)
        let checked = try HuddleCommand.run(["format", "--check", "src"], in: root)
        #expect(checked.status == 1)
        #expect(
            checked.standardOutput == """
                src/components/Friend.ts:2:32: embedded document not in canonical form
                src/components/Friend.ts:3:35: embedded document not in canonical form
                src/components/Menu.vue:5:16: embedded document not in canonical form
                src/graphql/friends.graphql: not in canonical form
                --- src/graphql/friends.graphql
                +++ src/graphql/friends.graphql (formatted)
                @@ -1 +1,7 @@
                -query Friends { me { friends { name } } }
                \\ No newline at end of file
                +query Friends {
                +  me {
                +    friends {
                +      name
                +    }
                +  }
                +}
                7 files (6 embedded documents), 4 to format

                """, "\(checked.standardOutput)")
        #expect(checked.standardError == "src/components/Profile.tsx:21:1: Syntax Error: Expected Name, found <EOF>.\n")
        let written = try HuddleCommand.run(["format", "--write", "src"], in: root)
        #expect(written.status == 1)
        #expect(written.standardOutput.contains("src/components/Menu.vue:5:16: embedded document not in canonical form (not rewritten)\n"))
        #expect(written.standardOutput.contains("formatted src/graphql/friends.graphql\n"))
        #expect(try String(contentsOf: root.appendingPathComponent("src/components/Profile.tsx"), encoding: .utf8) == profile)
    }
}
