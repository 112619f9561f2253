import Foundation
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// `huddle schema diff` and `huddle schema check`, run as processes.
@Suite struct SchemaDiffCommandTests {
    let scratch: ScratchDirectory
    let old: String
    let new: String

    init() throws {
        scratch = try ScratchDirectory("huddle-schema-diff")
        old = try scratch.file(
            "old.graphql",
            """
            type Query { me: User, user(id: ID!): User, search(first: Int = 10): [User!]! }
            type User { id: ID! name: String friends: [User!]! role: Role }
            enum Role { ADMIN MEMBER }
            """)
        new = try scratch.file(
            "new.graphql",
            """
            type Query { me: User, user(id: ID!, active: Boolean!): User, search(first: Int = 20): [User!]! }
            type User { id: ID! username: String friends(first: Int): [User!]! role: Role }
            enum Role { ADMIN MEMBER GUEST }
            """)
    }

    @Test func diffClassifiesEveryChangeAndExitsOneWhenOneBreaks() throws {
        let outcome = try HuddleCommand.run(["schema", "diff", old, new])
        #expect(outcome.status == 1, "\(outcome.standardError)")
        #expect(
            outcome.standardOutput == """
                breaking  REQUIRED_ARG_ADDED        A required arg active on Query.user was added.
                dangerous ARG_DEFAULT_VALUE_CHANGE  Query.search arg first has changed defaultValue from 10 to 20.
                breaking  FIELD_REMOVED             User.name was removed.
                dangerous OPTIONAL_ARG_ADDED        An optional arg first on User.friends was added.
                dangerous VALUE_ADDED_TO_ENUM       GUEST was added to enum type Role.
                safe      FIELD_ADDED               User.username was added.
                6 changes: 2 breaking, 3 dangerous, 1 safe

                """, "\(outcome.standardOutput)")
        let reverse = try HuddleCommand.run(["schema", "diff", "--format", "json", new, old])
        #expect(reverse.status == 1)
        #expect(
            reverse.standardOutput.hasPrefix(
                #"{"changes":[{"severity":"breaking","type":"ARG_REMOVED","coordinate":"Query.user(active:)","description":"Query.user arg active was removed."}"#
            ))
        #expect(reverse.standardOutput.hasSuffix(#""breaking":4,"dangerous":1,"safe":1}"# + "\n"), "\(reverse.standardOutput)")
    }

    @Test func aSchemaAgainstItselfHasNoChangesAndBuiltinNamesHuddlesOwn() throws {
        let same = try HuddleCommand.run(["schema", "diff", old, old])
        #expect(same.status == 0 && same.standardOutput == "no changes\n")
        let builtin = try HuddleCommand.run(["schema", "diff", "builtin", "builtin"])
        #expect(builtin.status == 0 && builtin.standardOutput == "no changes\n", "\(builtin.standardError)")
        // Huddle's schema printed to a file is the same schema.
        let printed = try scratch.file("huddle.graphql", try HuddleCommand.run(["schema"]).standardOutput)
        let roundTrip = try HuddleCommand.run(["schema", "diff", "builtin", printed])
        #expect(roundTrip.status == 0 && roundTrip.standardOutput == "no changes\n", "\(roundTrip.standardOutput)")
        // Only safe changes: exit 0.
        let added = try scratch.file("added.graphql", try String(contentsOfFile: old, encoding: .utf8) + "\nscalar Extra\n")
        let safe = try HuddleCommand.run(["schema", "diff", old, added])
        #expect(safe.status == 0)
        #expect(safe.standardOutput == "safe      TYPE_ADDED  Extra was added.\n1 change: 0 breaking, 0 dangerous, 1 safe\n")
    }

    @Test func badSchemasAreUsageErrors() throws {
        let missing = try HuddleCommand.run(["schema", "diff", old, scratch.path("none.graphql")])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("no such schema"))
        let broken = try scratch.file("broken.graphql", "type Query { a: Missing }")
        let invalid = try HuddleCommand.run(["schema", "diff", old, broken])
        #expect(invalid.status == 2)
        #expect(invalid.standardError.contains("Unknown type \"Missing\"."))
        #expect(try HuddleCommand.run(["schema", "diff", old]).status == 2)
    }

    /// `--header` is for whichever schema is named by URL: `builtin` or the
    /// current schema beside it does not refuse it.
    @Test func headersGoToTheSchemaNamedByURL() throws {
        let closed = "http://127.0.0.1:\(freePort())/graphql"
        let diff = try HuddleCommand.run(["schema", "diff", "--header", "Authorization: Bearer x", "builtin", closed])
        #expect(diff.status == 2)
        #expect(diff.standardError.contains("cannot connect to 127.0.0.1"), "\(diff.standardError)")
        let check = try HuddleCommand.run(["schema", "check", "--header", "Authorization: Bearer x", "--against", closed, old])
        #expect(check.status == 2)
        #expect(check.standardError.contains("cannot connect to 127.0.0.1"), "\(check.standardError)")
        // With no URL anywhere, a header is still a mistake.
        let validate = try HuddleCommand.run(["validate", "--header", "A: b", "--schema", old, "-"], input: "{ me { id } }")
        #expect(validate.standardError == "huddle validate: --header goes with a --schema URL\n")
    }

    /// A front-end tree whose operations a new schema breaks in two places,
    /// and one error already there that the check does not count.
    @Test func checkNamesTheOperationsANewSchemaBreaks() throws {
        let root = scratch.url.appendingPathComponent("web")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("src"), withIntermediateDirectories: true)
        try Data(
            """
            import { gql } from '@apollo/client';
            export const PROFILE = gql`
              query Profile {
                me {
                  ...Person
                  friends { id }
                }
              }
            `;
            export const USER = gql`query User($id: ID!) { user(id: $id) { id } }`;
            export const OLD = gql`query Old { me { nickname } }`;
            """.utf8
        ).write(to: root.appendingPathComponent("src/Profile.tsx"))
        try Data("fragment Person on User {\n  id\n  name\n}\n".utf8).write(to: root.appendingPathComponent("src/person.graphql"))
        let outcome = try HuddleCommand.run(["schema", "check", "--schema", old, "--against", new, "src"], in: root)
        #expect(outcome.status == 1, "\(outcome.standardError)")
        #expect(
            outcome.standardOutput == """
                src/Profile.tsx:10:48: Field "user" argument "active" of type "Boolean!" is required, but it was not provided. (in query User)
                src/person.graphql:3:3: Cannot query field "name" on type "User". (in fragment Person, used by query Profile)
                breaking  REQUIRED_ARG_ADDED        A required arg active on Query.user was added.
                dangerous ARG_DEFAULT_VALUE_CHANGE  Query.search arg first has changed defaultValue from 10 to 20.
                breaking  FIELD_REMOVED             User.name was removed.
                dangerous OPTIONAL_ARG_ADDED        An optional arg first on User.friends was added.
                dangerous VALUE_ADDED_TO_ENUM       GUEST was added to enum type Role.
                2 operations and 1 fragment broken (2 files, 3 operations, 1 fragment; 1 error already there, not counted)

                """, "\(outcome.standardOutput)")
        let json = try HuddleCommand.run(["schema", "check", "--format", "json", "--schema", old, "--against", new, "src"], in: root)
        #expect(
            json.standardOutput.contains(
                #""rule":"FieldsOnCorrectTypeRule","severity":"error","definition":"fragment Person","usedBy":["query Profile"],"locations":[{"file":"src/person.graphql","line":3,"column":3}]"#
            )
        )
        #expect(
            json.standardOutput.hasSuffix(
                #""brokenOperations":2,"brokenFragments":1,"brokenOperationNames":["query Profile","query User"],"errorsAlreadyThere":1}"#
                    + "\n"))
        // Against the schema it has, nothing breaks.
        let same = try HuddleCommand.run(["schema", "check", "--schema", old, "--against", old, "src"], in: root)
        #expect(same.status == 0)
        #expect(
            same.standardOutput
                == "0 operations and 0 fragments broken (2 files, 3 operations, 1 fragment; 1 error already there, not counted)\n")
    }

    /// A broken fragment spread through another breaks every operation that reaches it.
    @Test func aBrokenFragmentNamesTheOperationsThatReachIt() throws {
        let root = scratch.url.appendingPathComponent("fragments")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Data(
            """
            query One { me { ...Outer } }
            query Two { me { friends { ...Outer } } }
            query Three { me { id } }
            fragment Outer on User { id ...Inner }
            fragment Inner on User { name }
            """.utf8
        ).write(to: root.appendingPathComponent("ops.graphql"))
        let outcome = try HuddleCommand.run(["schema", "check", "--schema", old, "--against", new, "ops.graphql"], in: root)
        #expect(outcome.status == 1)
        #expect(
            outcome.standardOutput.hasPrefix(
                #"ops.graphql:5:26: Cannot query field "name" on type "User". (in fragment Inner, used by query One, query Two)"# + "\n"),
            "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.hasSuffix("2 operations and 1 fragment broken (1 file, 3 operations, 2 fragments)\n"))
    }
}
