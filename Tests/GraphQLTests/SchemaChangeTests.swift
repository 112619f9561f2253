import Foundation
import GraphQL
import Testing

/// Two schemas, the second made from the first by random edits, and what
/// graphql-js 16's findBreakingChanges and findDangerousChanges answer
/// (scripts/graphql-js/make-schema-change-fixtures.js).
struct SchemaChangeCase: Decodable, CustomTestStringConvertible, Sendable {
    struct Change: Decodable, Equatable, Sendable {
        var type: String
        var description: String
    }

    var old: String
    var new: String
    var breaking: [Change]
    var dangerous: [Change]

    var testDescription: String {
        (breaking + dangerous).map(\.type).joined(separator: ", ").prefix(90).description
    }

    static let all: [SchemaChangeCase] = {
        let url = Bundle.module.url(forResource: "schema-change-cases", withExtension: "json", subdirectory: "Fixtures")!
        return try! JSONDecoder().decode([SchemaChangeCase].self, from: Data(contentsOf: url))
    }()
}

@Suite struct SchemaChangeTests {
    @Test(arguments: SchemaChangeCase.all)
    func breakingAndDangerousChangesMatchGraphQLJS(_ testCase: SchemaChangeCase) throws {
        let old = try buildSchema(testCase.old)
        let new = try buildSchema(testCase.new)
        let changes = findSchemaChanges(old: old, new: new)
        #expect(
            changes.filter { $0.severity == .breaking }.map { SchemaChangeCase.Change(type: $0.type, description: $0.description) }
                == testCase.breaking)
        #expect(
            changes.filter { $0.severity == .dangerous }.map { SchemaChangeCase.Change(type: $0.type, description: $0.description) }
                == testCase.dangerous)
        // A schema does not change against itself.
        #expect(findSchemaChanges(old: old, new: try buildSchema(testCase.old)).isEmpty)
    }

    /// What graphql-js 16 leaves out, and graphql-js 17 calls safe.
    @Test func safeChangesAreNamed() throws {
        let old = try buildSchema(
            """
            "Old" type Query { a(x: Int, y: [Int!]): Int b: Int }
            directive @d(a: Int) on FIELD
            enum E { A }
            input I { f: Int! }
            """)
        let new = try buildSchema(
            """
            "New" type Query { a(x: Int = 1, y: [Int]): Int! b: Int "c" c: String }
            directive @d(a: Int, b: Int) repeatable on FIELD | QUERY
            directive @e on FIELD
            enum E { "the a" A }
            input I { f: Int }
            scalar S
            """)
        let changes = findSchemaChanges(old: old, new: new)
        #expect(changes.allSatisfy { $0.severity == .safe })
        #expect(
            changes.map { "\($0.type): \($0.description)" } == [
                "TYPE_ADDED: S was added.",
                "FIELD_ADDED: Query.c was added.",
                "ARG_DEFAULT_VALUE_ADDED: Query.a arg x added a defaultValue 1.",
                "ARG_CHANGED_KIND_SAFE: Query.a arg y has changed type from [Int!] to [Int].",
                "FIELD_CHANGED_KIND_SAFE: Query.a changed type from Int to Int!.",
                "DESCRIPTION_CHANGED: Description of Query has changed to \"New\".",
                "DESCRIPTION_CHANGED: Description of E.A has changed to \"the a\".",
                "FIELD_CHANGED_KIND_SAFE: I.f changed type from Int! to Int.",
                "DIRECTIVE_ADDED: @e was added.",
                "OPTIONAL_DIRECTIVE_ARG_ADDED: An optional arg b on directive d was added.",
                "DIRECTIVE_REPEATABLE_ADDED: Repeatable flag was added to d.",
                "DIRECTIVE_LOCATION_ADDED: QUERY was added to d.",
            ])
    }
}

/// Validation with no error limit (`maxErrors: .max`), as `huddle schema
/// check` runs it, once overflowed the overlapping-fields rule's cap.
@Suite struct UnlimitedValidationErrorsTests {
    @Test func noLimitIsNoOverflow() throws {
        let schema = try buildSchema("type Query { a(x: Int): Int b: Query }")
        let text = "{ a(x: 1) a: a(x: 2) b { a ...F } } fragment F on Query { a: b { a } }"
        let document = try parse(text)
        let errors = validate(schema: schema, document: document, source: Source(body: text), maxErrors: .max)
        #expect(errors.count == 2)
        #expect(errors.allSatisfy { $0.message.hasPrefix("Fields \"a\" conflict") })
    }
}

/// Each change names what changed by its schema coordinate (spec §2.14),
/// so tools can point at the line of the SDL.
@Suite struct SchemaChangeCoordinateTests {
    @Test func everyKindOfChangeHasTheCoordinateOfWhatChanged() throws {
        let old = try buildSchema(
            """
            directive @cached(ttl: Int, scope: String) repeatable on FIELD | QUERY
            type Query { user(id: ID!, active: Boolean = true): User old: Int }
            "A person."
            type User implements Node { id: ID! name: String role: Role }
            interface Node { id: ID! }
            enum Role { ADMIN MEMBER }
            union Result = User
            input Filter { name: String, gone: Int }
            scalar Gone
            """)
        let new = try buildSchema(
            """
            directive @cached(ttl: Int!) on FIELD
            type Query { user(id: ID!, active: Boolean = false, first: Int): User added: Int }
            "Someone."
            type User { id: ID! name: Int role: Role }
            interface Node { id: ID! }
            enum Role { ADMIN GUEST }
            union Result = User | Query
            input Filter { name: String, needed: Int! }
            """)
        let coordinates = findSchemaChanges(old: old, new: new).map { "\($0.type) \($0.coordinate)" }
        for expected in [
            "TYPE_REMOVED Gone", "FIELD_REMOVED Query.old", "FIELD_ADDED Query.added",
            "ARG_DEFAULT_VALUE_CHANGE Query.user(active:)", "OPTIONAL_ARG_ADDED Query.user(first:)",
            "FIELD_CHANGED_KIND User.name", "IMPLEMENTED_INTERFACE_REMOVED User", "DESCRIPTION_CHANGED User",
            "VALUE_REMOVED_FROM_ENUM Role.MEMBER", "VALUE_ADDED_TO_ENUM Role.GUEST", "TYPE_ADDED_TO_UNION Result",
            "FIELD_REMOVED Filter.gone", "REQUIRED_INPUT_FIELD_ADDED Filter.needed",
            "DIRECTIVE_ARG_REMOVED @cached(scope:)",
            "DIRECTIVE_REPEATABLE_REMOVED @cached", "DIRECTIVE_LOCATION_REMOVED @cached",
        ] {
            #expect(coordinates.contains(expected), "\(expected) not in \(coordinates)")
        }
    }
}
