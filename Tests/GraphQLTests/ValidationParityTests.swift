import Foundation
import GraphQL
import Testing

/// A document and graphql-js 16's validation errors for it
/// (scripts/graphql-js/make-validation-fixtures.js).
struct ValidationCase: Decodable, CustomTestStringConvertible, Sendable {
    var query: String
    var errors: [ParseCase.ExpectedError]

    var testDescription: String { String(reflecting: query.count > 100 ? String(query.prefix(100)) + "…" : query) }

    static let all: [ValidationCase] = {
        let url = Bundle.module.url(forResource: "validation-cases", withExtension: "json", subdirectory: "Fixtures")!
        return try! JSONDecoder().decode([ValidationCase].self, from: Data(contentsOf: url))
    }()
}

enum ValidationFixtures {
    /// The repository's root, found from this file's place in it.
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// scripts/graphql-js/validation-schema.graphql, which graphql-js answered the fixtures against.
    static let schema: GraphQLSchema = {
        let url = repository.appendingPathComponent("scripts/graphql-js/validation-schema.graphql")
        return try! buildSchema(String(contentsOf: url, encoding: .utf8))
    }()

    static func errors(_ query: String, maxErrors: Int = 100) throws -> [GraphQLError] {
        let source = Source(body: query)
        return validate(schema: schema, document: try parse(source), source: source, maxErrors: maxErrors)
    }
}

@Suite struct ValidationParityTests {
    @Test func fixtureSchemaIsValid() {
        #expect(validateSchema(ValidationFixtures.schema).isEmpty)
    }

    @Test(arguments: ValidationCase.all)
    func errorsMatchGraphQLJS(_ testCase: ValidationCase) throws {
        let errors = try ValidationFixtures.errors(testCase.query)
        #expect(errors.map(\.asTuple) == testCase.errors.map(\.asTuple))
    }
}

/// NoDeprecatedUsageRule against graphql-js 16's NoDeprecatedCustomRule
/// (scripts/graphql-js/make-deprecation-fixtures.js), the warnings the
/// Playground shows.
@Suite struct DeprecationParityTests {
    static let schema: GraphQLSchema = {
        let url = Bundle.module.url(forResource: "deprecation-schema", withExtension: "graphql", subdirectory: "Fixtures")!
        return try! buildSchema(String(contentsOf: url, encoding: .utf8))
    }()

    static let cases: [ValidationCase] = {
        let url = Bundle.module.url(forResource: "deprecation-cases", withExtension: "json", subdirectory: "Fixtures")!
        return try! JSONDecoder().decode([ValidationCase].self, from: Data(contentsOf: url))
    }()

    @Test(arguments: cases)
    func warningsMatchGraphQLJS(_ testCase: ValidationCase) throws {
        let source = Source(body: testCase.query)
        let errors = validate(
            schema: Self.schema, document: try parse(source), source: source, rules: [NoDeprecatedUsageRule.self]
        )
        #expect(errors.map(\.asTuple) == testCase.errors.map(\.asTuple))
    }
}
