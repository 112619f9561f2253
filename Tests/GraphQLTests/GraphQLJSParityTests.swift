import Foundation
import GraphQL
import Testing

/// One case answered by graphql-js 16 (scripts/graphql-js/make-parse-fixtures.js).
struct ParseCase: Decodable, CustomTestStringConvertible, Sendable {
    struct ExpectedError: Decodable, Sendable {
        struct Location: Decodable, Sendable {
            var line: Int
            var column: Int
        }
        var message: String
        var locations: [Location]
    }

    var name: String?
    var source: String
    var maxTokens: Int?
    var printed: String?
    var error: ExpectedError?

    var testDescription: String { name ?? String(reflecting: source) }

    var options: ParseOptions {
        ParseOptions(maxTokens: maxTokens, maxSourceBytes: nil)
    }

    static let all: [ParseCase] = {
        let url = Bundle.module.url(forResource: "parse-cases", withExtension: "json", subdirectory: "Fixtures")!
        return try! JSONDecoder().decode([ParseCase].self, from: Data(contentsOf: url))
    }()

    static var accepted: [ParseCase] { all.filter { $0.printed != nil } }
    static var rejected: [ParseCase] { all.filter { $0.error != nil } }
}

/// Our parser and printer against graphql-js 16's own answers for the same input.
@Suite struct GraphQLJSParityTests {
    @Test(arguments: ParseCase.rejected)
    func syntaxErrorMatchesGraphQLJS(_ testCase: ParseCase) {
        let expected = testCase.error!
        do {
            let document = try parse(Source(body: testCase.source), options: testCase.options)
            Issue.record("parsed, expected \(expected.message); printed: \(Printer.print(document))")
        } catch {
            #expect(error.message == expected.message)
            #expect(error.locations == expected.locations.map { SourceLocation(line: $0.line, column: $0.column) })
        }
    }

    @Test(arguments: ParseCase.accepted)
    func printMatchesGraphQLJS(_ testCase: ParseCase) throws {
        let document = try parse(Source(body: testCase.source), options: testCase.options)
        #expect(Printer.print(document) == testCase.printed)
    }

    /// parse(print(parse(x))) == parse(x), locations aside.
    @Test(arguments: ParseCase.accepted)
    func printedDocumentParsesToTheSameTree(_ testCase: ParseCase) throws {
        let options = ParseOptions(maxTokens: nil, maxSourceBytes: nil, recordsLocations: false)
        let original = try parse(Source(body: testCase.source), options: options)
        let printed = Printer.print(original)
        let reparsed = try parse(Source(body: printed), options: options)
        #expect(reparsed == original)
        #expect(Printer.print(reparsed) == printed)
    }
}
