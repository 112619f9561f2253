import Foundation
import GraphQL
import Testing

/// A schema's introspection as graphql-js 16 gives it, and what graphql-js
/// prints of buildClientSchema's schema (scripts/graphql-js/make-client-schema-fixtures.js).
struct ClientSchemaCase: Decodable, CustomTestStringConvertible, Sendable {
    var sdl: String
    var printed: String
    var introspection: GraphQLValue

    var testDescription: String { String(reflecting: sdl.count > 90 ? String(sdl.prefix(90)) + "…" : sdl) }

    enum Keys: String, CodingKey { case sdl, printed, introspection }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        sdl = try container.decode(String.self, forKey: .sdl)
        printed = try container.decode(String.self, forKey: .printed)
        introspection = .null
    }

    static let all: [ClientSchemaCase] = {
        let url = Bundle.module.url(forResource: "client-schema-cases", withExtension: "json", subdirectory: "Fixtures")!
        let data = try! Data(contentsOf: url)
        var cases = try! JSONDecoder().decode([ClientSchemaCase].self, from: data)
        // The introspection results read as the server reads JSON.
        guard case .list(let entries) = try! JSONReader().read(String(decoding: data, as: UTF8.self)) else { fatalError() }
        for index in cases.indices { cases[index].introspection = entries[index]["introspection"]! }
        return cases
    }()
}

/// buildClientSchema: against graphql-js 16 on its own introspection
/// results, and a schema read back from our introspection prints as the
/// schema did.
@Suite struct BuildClientSchemaTests {
    static let validCases = SchemaCase.all.filter { $0.buildErrors == nil && $0.validationErrors == nil && $0.printed != nil }

    func introspect(_ schema: GraphQLSchema, query: String = introspectionQuery) async throws -> GraphQLValue {
        let source = Source(body: query)
        let document = try parse(source, options: .trusted)
        #expect(validate(schema: schema, document: document, source: source).isEmpty)
        let result = await execute(
            schema: .readingFieldsByName(schema), document: document, source: source, limits: .unlimited)
        #expect(result.errors.isEmpty)
        return try JSONReader().read(result.json())
    }

    @Test(arguments: ClientSchemaCase.all)
    func graphQLJSIntrospectionBuildsWhatGraphQLJSBuilds(_ testCase: ClientSchemaCase) throws {
        let client = try buildClientSchema(testCase.introspection)
        #expect(validateSchema(client).isEmpty)
        #expect(printSchema(client) == testCase.printed)
    }

    @Test(arguments: validCases)
    func aSchemaReadBackFromItsIntrospectionPrintsTheSame(_ testCase: SchemaCase) async throws {
        let schema = try buildSchema(testCase.sdl)
        let client = try buildClientSchema(try await introspect(schema))
        #expect(validateSchema(client).isEmpty)
        #expect(printSchema(client) == printSchema(schema))
    }

    @Test(arguments: ["deprecation-schema"])
    func fixtureSchemasRoundTrip(_ name: String) async throws {
        let url = Bundle.module.url(forResource: name, withExtension: "graphql", subdirectory: "Fixtures")!
        let schema = try buildSchema(String(decoding: try Data(contentsOf: url), as: UTF8.self))
        #expect(validateSchema(schema).isEmpty)
        let client = try buildClientSchema(try await introspect(schema))
        #expect(printSchema(client) == printSchema(schema))
    }

    /// graphql-js 16's default query leaves out what older servers lack
    /// (and deprecated arguments); the schema it gives loses only that.
    @Test func theLegacyQueryBuildsTheSameTypes() async throws {
        let schema = try buildSchema(
            """
            "The root" type Query { a(x: Int = 3 @deprecated(reason: "old")): Int @deprecated, b: In }
            input In @oneOf { p: Int, q: String }
            scalar Url @specifiedBy(url: "https://url.spec.whatwg.org/")
            directive @tag(name: String) repeatable on FIELD_DEFINITION
            """)
        let client = try buildClientSchema(try await introspect(schema, query: legacyIntrospectionQuery))
        #expect(
            printSchema(client) == """
                directive @tag(name: String) on FIELD_DEFINITION

                \"""The root\"""
                type Query {
                  a: Int @deprecated
                  b: In
                }

                input In {
                  p: Int
                  q: String
                }

                scalar Url
                """)
    }

    @Test func anIncompleteResultIsGraphQLJSsError() {
        #expect(throws: SchemaBuildError.self) { try buildClientSchema(.object([.init("errors", .list([]))])) }
        do {
            _ = try buildClientSchema(.object([]))
        } catch {
            #expect(
                error.errors.map(\.message) == [
                    "Invalid or incomplete introspection result. Ensure that you are passing \"data\" property of introspection response and no \"errors\" was returned alongside: {}."
                ])
        }
    }
}
