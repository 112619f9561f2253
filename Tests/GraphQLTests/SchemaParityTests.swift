import Foundation
import GraphQL
import Testing

/// One SDL document and graphql-js 16's answer (scripts/graphql-js/make-schema-fixtures.js).
struct SchemaCase: Decodable, CustomTestStringConvertible, Sendable {
    var sdl: String
    var buildErrors: [ParseCase.ExpectedError]?
    var validationErrors: [ParseCase.ExpectedError]?
    var printed: String?
    var typeNames: [String]?

    var testDescription: String { String(reflecting: sdl.count > 90 ? String(sdl.prefix(90)) + "…" : sdl) }

    static let all: [SchemaCase] = {
        let url = Bundle.module.url(forResource: "schema-cases", withExtension: "json", subdirectory: "Fixtures")!
        return try! JSONDecoder().decode([SchemaCase].self, from: Data(contentsOf: url))
    }()
}

extension ParseCase.ExpectedError {
    var asTuple: String {
        message + " @ " + locations.map { "\($0.line):\($0.column)" }.joined(separator: ",")
    }
}

extension GraphQLError {
    var asTuple: String {
        message + " @ " + locations.map { "\($0.line):\($0.column)" }.joined(separator: ",")
    }
}

@Suite struct SchemaParityTests {
    @Test(arguments: SchemaCase.all)
    func buildValidateAndPrintMatchGraphQLJS(_ testCase: SchemaCase) {
        let schema: GraphQLSchema
        do throws(SchemaBuildError) {
            schema = try buildSchema(testCase.sdl)
        } catch {
            // graphql-js reports SDL errors in the order its visitor meets them;
            // the builder meets them in another, so compare them as a set.
            #expect(error.errors.map(\.asTuple).sorted() == (testCase.buildErrors ?? []).map(\.asTuple).sorted())
            return
        }
        #expect(testCase.buildErrors == nil, "built a schema; graphql-js reports \(testCase.buildErrors!.map(\.message))")
        #expect(validateSchema(schema).map(\.asTuple) == (testCase.validationErrors ?? []).map(\.asTuple))
        #expect(printSchema(schema) == testCase.printed)
        #expect(schema.types.map(\.name) == testCase.typeNames)
    }
}
