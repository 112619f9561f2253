import Foundation
import GraphQL
import Testing

/// Field Selection Merging against graphql-js 17 itself
/// (scripts/graphql-js/make-overlapping-fields17-fixtures.js): seeded
/// documents whose fields share response names across chains of fragments,
/// fragments spread in several selections, inline fragments on exclusive
/// object types and on interfaces, with aliases, differing arguments and
/// return types. Every error, its message and its locations, in graphql-js
/// 17's order; graphql-js 16 differs on about one in eight, mostly the
/// conflicts its memo of fragment pairs lets pass.
@Suite struct OverlappingFields17Tests {
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
            forResource: "graphql-js-17-overlapping-fields-cases", withExtension: "json", subdirectory: "Fixtures")!
        return try! JSONDecoder().decode(Corpus.self, from: Data(contentsOf: url))
    }()

    static let schema = try! buildSchema(corpus.schema)

    @Test func theCorpusIsFromGraphQLJS17AndHalfConflicting() {
        #expect(Self.corpus.graphql.hasPrefix("17."))
        #expect(Self.corpus.cases.count >= 1000)
        #expect(Self.corpus.cases.filter { $0.errors.contains("conflict because") }.count >= 400)
        #expect(Self.corpus.cases.filter { $0.errors == "[]" }.count >= 400)
    }

    @Test(arguments: corpus.cases)
    func errorsMatchGraphQLJS17(_ testCase: Case) throws {
        let source = Source(body: testCase.query)
        let document = try parse(source)
        let errors = validate(schema: Self.schema, document: document, source: source)
        #expect(graphQLJSErrorsJSON(errors) == testCase.errors)
    }
}

/// What the rule costs stays bounded on chains of fragments, where
/// graphql-js 17's walk is quadratic, and the conflicts are found still.
@Suite struct OverlappingFieldsBoundsTests {
    static let schema = try! buildSchema(
        "type Query { me: User } type User { id: ID name: String nick: String best: User friends(first: Int): [User] }")

    /// `count` fragments, each spreading the next twice, at two depths.
    static func chain(_ count: Int, last: String = "name") -> String {
        (0..<count).map { index in
            let next = index < count - 1 ? "...C\(index + 1) " : ""
            let own = index == count - 1 ? last : "name"
            return "fragment C\(index) on User { \(own) best { \(next)name } \(next)}"
        }.joined(separator: "\n")
    }

    static func errors(_ text: String) throws -> [String] {
        let source = Source(body: text)
        return validate(schema: schema, document: try parse(source, options: .trusted), source: source).map(\.message)
    }

    @Test func aLongChainOfFragmentsMerges() throws {
        #expect(try Self.errors("{ me { ...C0 } }\n" + Self.chain(600)) == [])
    }

    @Test func aConflictAtTheEndOfALongChainIsFound() throws {
        let errors = try Self.errors("{ me { ...C0 } }\n" + Self.chain(600, last: "name: nick"))
        #expect(!errors.isEmpty)
        #expect(errors.allSatisfy { $0.contains("\"name\" and \"nick\" are different fields") }, "\(errors)")
    }

    /// graphql-js 16's memo misses this conflict, and graphql-js 17's walk
    /// runs out of its budget on the chain beside it: the spec's verdict
    /// is reported.
    @Test func theConflictGraphQLJS16MissesIsFoundPastTheWalksBudget() throws {
        let text = """
            { me { name } me { friends(first: 1) { id } ...F1 ...C0 } }
            fragment F1 on User { ...F2 }
            fragment F2 on User { friends(first: 2) { id } }
            """
        let errors = try Self.errors(text + "\n" + Self.chain(400))
        #expect(errors.contains { $0.contains("\"friends\" conflict because they have differing arguments") }, "\(errors)")
    }

    /// Documents a review found the rule wrong on, each with graphql-js 17's
    /// errors (scripts/graphql-js/make-overlapping-fields17-hostile-fixtures.js):
    /// depth and work budgets, graphql-js's weak memo, fragment cycles (a
    /// stack overflow once), identical fields conflicting through a spread,
    /// `@stream` not declared.
    struct HostileCase: Decodable, CustomTestStringConvertible, Sendable {
        var name: String
        var schema: String
        var query: String
        var errors: String
        var testDescription: String { name }
    }

    static let hostileCases: [HostileCase] = {
        struct Corpus: Decodable { var graphql: String, cases: [HostileCase] }
        let url = Bundle.module.url(
            forResource: "graphql-js-17-overlapping-fields-hostile-cases", withExtension: "json", subdirectory: "Fixtures")!
        return try! JSONDecoder().decode(Corpus.self, from: Data(contentsOf: url)).cases
    }()

    @Test(arguments: hostileCases)
    func hostileDocumentsMatchGraphQLJS17(_ testCase: HostileCase) throws {
        let source = Source(body: testCase.query)
        let schema = try buildSchema(testCase.schema)
        let errors = validate(schema: schema, document: try parse(source, options: .trusted), source: source)
        #expect(graphQLJSErrorsJSON(errors) == testCase.errors)
    }
}
