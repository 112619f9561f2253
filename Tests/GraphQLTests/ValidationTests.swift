import Foundation
import GraphQL
import Testing

/// Validation behaviour beyond graphql-js 16: the September 2025 rules, the
/// error limit, hostile shapes, and the introspection types.
@Suite struct ValidationTests {
    func messages(_ query: String, maxErrors: Int = 100) throws -> [String] {
        try ValidationFixtures.errors(query, maxErrors: maxErrors).map(\.message)
    }

    // MARK: September 2025 additions

    @Test func operationTypesMustExistInTheSchema() throws {
        let schema = try buildSchema("type Query { a: Int }")
        let source = Source(body: "mutation M { a } subscription S { a } query Q { a }")
        let errors = validate(schema: schema, document: try parse(source), source: source)
        #expect(
            errors.map(\.message) == [
                "The mutation operation is not supported by the schema.",
                "The subscription operation is not supported by the schema.",
            ])
        #expect(errors.map(\.locations) == [[SourceLocation(line: 1, column: 1)], [SourceLocation(line: 1, column: 18)]])
    }

    @Test func subscriptionRootSelectionsCannotBeSkippedOrIncluded() throws {
        let errors = try ValidationFixtures.errors(
            "subscription S($b: Boolean!) { dogBarked @skip(if: $b) { name } ...F } fragment F on Subscription { catMeowed @include(if: $b) { name } }"
        )
        #expect(
            errors.map(\.message) == [
                "Subscription \"S\" must not use `@skip` or `@include` directives in the top level selection."
            ])
        #expect(errors[0].locations == [SourceLocation(line: 1, column: 42), SourceLocation(line: 1, column: 111)])
        #expect(try messages("subscription { dogBarked { name @skip(if: true) } }").isEmpty)
        #expect(
            try messages("subscription { ... @include(if: true) { dogBarked { name } } }") == [
                "Anonymous Subscription must not use `@skip` or `@include` directives in the top level selection."
            ])
    }

    @Test func oneOfInputObjectsTakeExactlyOneNonNullField() throws {
        let schema = try buildSchema(
            """
            type Query { pick(by: By): Int }
            input By @oneOf { id: ID name: String }
            """)
        func messages(_ query: String) throws -> [String] {
            let source = Source(body: query)
            return validate(schema: schema, document: try parse(source), source: source).map(\.message)
        }
        #expect(try messages("{ pick(by: {id: 1}) }").isEmpty)
        #expect(try messages("{ pick(by: {}) }") == ["OneOf Input Object \"By\" must specify exactly one key."])
        #expect(try messages("{ pick(by: {id: 1, name: \"x\"}) }") == ["OneOf Input Object \"By\" must specify exactly one key."])
        #expect(try messages("{ pick(by: {id: null}) }") == ["Field \"By.id\" must be non-null."])
        #expect(
            try messages("query ($v: ID) { pick(by: {id: $v}) }")
                == ["Variable \"v\" must be non-nullable to be used for OneOf Input Object \"By\"."])
        #expect(try messages("query ($v: ID!) { pick(by: {id: $v}) }").isEmpty)
    }

    // MARK: The error limit

    /// `{ a0 a1 ... }` on Dog: one FieldsOnCorrectType error per unknown field.
    func unknownFields(_ count: Int) -> String {
        "{ dog { " + (0..<count).map { "unknown\($0)" }.joined(separator: " ") + " } }"
    }

    @Test func exactlyAHundredErrorsAreAllReported() throws {
        let errors = try messages(unknownFields(100))
        #expect(errors.count == 100)
        #expect(!errors.contains { $0.hasPrefix("Too many") })
    }

    @Test func theHundredAndFirstErrorAbortsValidation() throws {
        let errors = try messages(unknownFields(101))
        #expect(errors.count == 101)
        #expect(errors.last == "Too many validation errors, error limit reached. Validation aborted.")
        #expect(errors.dropLast().allSatisfy { $0.hasPrefix("Cannot query field") })
    }

    @Test func theLimitIsConfigurable() throws {
        #expect(try messages(unknownFields(3), maxErrors: 2).count == 3)
        #expect(try messages(unknownFields(2), maxErrors: 2).count == 2)
    }

    // MARK: Field merging's quick answer

    /// A selection set whose repeated response names are each the same
    /// plain field of one type is answered without the full check; each
    /// case at its edge gives graphql-js 16's answer (scripts/graphql-js, 16.x).
    @Test(arguments: [
        ("{ catOrDog { ... on Cat { name } ... on Dog { name } } }", false, [String]()),
        ("{ catOrDog { ... on Cat { volume: meowsVolume } ... on Dog { volume: barkVolume } } }", false, []),
        ("{ dog { name ... on Pet { name } ...F } } fragment F on Dog { name }", false, []),
        (
            "{ dog { name: nickname ... on Dog { name } } }", false,
            [
                "Fields \"name\" conflict because \"nickname\" and \"name\" are different fields. Use different aliases on the fields to fetch both if this was intentional."
            ]
        ),
        ("{ pet { name ... on Dog { name @include(if: true) } } }", false, []),
        // A fragment spread after a repeated name takes the full check.
        ("{ dog { name ... on Dog { name } ...F } } fragment F on Dog { name }", false, []),
        (
            "{ dog { name ... on Dog { name } ...F } } fragment F on Dog { name: nickname }", false,
            Array(
                repeating:
                    "Fields \"name\" conflict because \"name\" and \"nickname\" are different fields. Use different aliases on the fields to fetch both if this was intentional.",
                count: 2)
        ),
        (
            "{ box { ... on A { v } ... on B { v } } }", true,
            [
                "Fields \"v\" conflict because they return conflicting types \"String\" and \"String!\". Use different aliases on the fields to fetch both if this was intentional."
            ]
        ),
        ("{ box { ... on A { w } ... on B { w } id ... on Box { id } } }", true, []),
        (
            "{ box { id ... on A { id: v } } }", true,
            [
                "Fields \"id\" conflict because \"id\" and \"v\" are different fields. Use different aliases on the fields to fetch both if this was intentional."
            ]
        ),
    ])
    func repeatedPlainFieldsMergeOnlyWhenTheyAreTheSameFieldOfOneType(query: String, onBoxes: Bool, expected: [String]) throws {
        if onBoxes {
            let schema = try buildSchema(
                "type Query { box: Box } interface Box { id: ID } type A implements Box { id: ID v: String w: [String] } type B implements Box { id: ID v: String! w: [String] }"
            )
            let source = Source(body: query)
            #expect(validate(schema: schema, document: try parse(source), source: source).map(\.message) == expected)
        } else {
            #expect(try messages(query) == expected)
        }
    }

    // MARK: Hostile shapes (their timing is in the benchmark)

    @Test func fiveThousandRepeatedFieldsAreValid() throws {
        #expect(try messages("{ dog { " + String(repeating: "name ", count: 5_000) + "} }").isEmpty)
    }

    @Test func fiveThousandRepeatedFieldsWithOneConflictReportEveryPairUpToTheLimit() throws {
        let errors = try messages("{ dog { " + String(repeating: "name ", count: 5_000) + "name: nickname } }")
        #expect(errors.count == 101)
        #expect(
            errors[0]
                == "Fields \"name\" conflict because \"name\" and \"nickname\" are different fields. Use different aliases on the fields to fetch both if this was intentional."
        )
    }

    @Test func nestedInlineFragmentsWithOneResponseNameAreValid() throws {
        let inner = String(repeating: "... on Dog { name } ", count: 100)
        let source = Source(body: "{ dog { " + String(repeating: "... on Dog { \(inner)} ", count: 200) + "} }")
        // Over the default token limit, which a server applies first; here the validator alone is under test.
        let document = try parse(source, options: .trusted)
        #expect(validate(schema: ValidationFixtures.schema, document: document, source: source).isEmpty)
    }

    @Test func deeplyNestedFragmentChainsAreValid() throws {
        let count = 200
        var query = "{ dog { ...F0 } }"
        for index in 0..<count {
            let next = index + 1 < count ? "...F\(index + 1) " : ""
            query += " fragment F\(index) on Dog { name mother { \(next)name } \(next)}"
        }
        #expect(try messages(query).isEmpty)
    }

    @Test func selfReferencingFragmentsAreReportedOnce() throws {
        let errors = try messages("{ dog { ...A } } fragment A on Dog { ...A ...A mother { ...A } }")
        #expect(
            errors == [
                "Cannot spread fragment \"A\" within itself.",
                "Cannot spread fragment \"A\" within itself.",
                "Cannot spread fragment \"A\" within itself.",
            ])
    }

    // MARK: Introspection

    @Test func theFullIntrospectionQueryIsValid() throws {
        #expect(try messages(IntrospectionQuery.text).isEmpty)
    }

    @Test func introspectionFieldsAreTypeChecked() throws {
        #expect(
            try messages(
                "{ __type(name: \"Dog\") { name isOneOf specifiedByURL inputFields(includeDeprecated: true) { isDeprecated deprecationReason } } __schema { description } }"
            ).isEmpty)
        #expect(
            try messages("{ __type { name } }") == [
                "Field \"__type\" argument \"name\" of type \"String!\" is required, but it was not provided."
            ])
        #expect(try messages("{ dog { __schema { description } } }") == ["Cannot query field \"__schema\" on type \"Dog\"."])
    }
}

/// The introspection query GraphiQL and codegen send, with every September
/// 2025 field: scripts/bench/introspection.graphql, which the benchmark runs too.
enum IntrospectionQuery {
    static let text: String = {
        let url = ValidationFixtures.repository.appendingPathComponent("scripts/bench/introspection.graphql")
        return try! String(contentsOf: url, encoding: .utf8)
    }()
}
