import Foundation
import GraphQL
import Testing

/// The validation rules of incremental delivery against graphql-js 17
/// itself (scripts/graphql-js/make-incremental17-validation-fixtures.js):
/// seeded documents with @defer and @stream on root fields of mutations
/// and subscriptions, in subscriptions, with labels repeated or not static,
/// @stream on fields that are not lists, one response key streamed two
/// ways, the directives at wrong locations. Every error, its message and
/// its locations, in graphql-js 17's order.
@Suite struct IncrementalValidation17Tests {
    struct Case: Decodable, CustomTestStringConvertible, Sendable {
        var seed: Int
        var query: String
        var errors: String
        var testDescription: String { "seed \(seed)" }
    }

    struct Corpus: Decodable {
        var schema: String, graphql: String, cases: [Case]
    }

    static let corpus: Corpus = {
        let url = Bundle.module.url(
            forResource: "graphql-js-17-incremental-validation-cases", withExtension: "json", subdirectory: "Fixtures")!
        return try! JSONDecoder().decode(Corpus.self, from: Data(contentsOf: url))
    }()

    static let schema = try! buildSchema(corpus.schema)

    @Test func theCorpusIsFromGraphQLJS17AndMostlyInvalid() {
        #expect(Self.corpus.graphql.hasPrefix("17."))
        #expect(Self.corpus.cases.count >= 800)
        #expect(Self.corpus.cases.filter { $0.errors != "[]" }.count >= 500)
    }

    @Test(arguments: corpus.cases)
    func errorsMatchGraphQLJS17(_ testCase: Case) throws {
        try compare(testCase)
    }

    func compare(_ testCase: Case) throws {
        let source = Source(body: testCase.query)
        let document = try parse(source)
        let errors = validate(schema: Self.schema, document: document, source: source)
        #expect(graphQLJSErrorsJSON(errors) == testCase.errors)
    }

    /// The conflict graphql-js 16 let pass: a fragment reached through
    /// another, compared with the first fields that reached it and then
    /// skipped for the next (graphql-js 17's words and locations).
    @Test func aFragmentReachedAgainIsComparedWithEachSelection() throws {
        let schema = try buildSchema("type Query { me: User } type User { id: ID name: String friends(first: Int): [User] }")
        let text = """
            query Op { me { name } me { friends(first: 1) { id } ...F1 } }
            fragment F1 on User { ...F2 }
            fragment F2 on User { friends(first: 2) { id } }
            """
        let source = Source(body: text)
        let errors = validate(schema: schema, document: try parse(source), source: source)
        #expect(
            errors.map(\.message) == [
                "Fields \"friends\" conflict because they have differing arguments. Use different aliases on the fields to fetch both if this was intentional."
            ])
        #expect(errors.first?.locations.map { [$0.line, $0.column] } == [[1, 29], [3, 23]])
    }
}
