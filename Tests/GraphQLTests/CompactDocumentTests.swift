import Foundation
import GraphQL
import Testing

/// `compactDocument` keeps what a document says and drops what it does not:
/// every document graphql-js 16 accepts in the parse fixtures, and both
/// kitchen sinks, parse to the same tree (and print the same) compacted.
@Suite struct CompactDocumentTests {
    static let untracked = ParseOptions(maxTokens: nil, maxSourceBytes: nil, recordsLocations: false)

    static let documents: [String] =
        ParseCase.accepted.map(\.source)
        + ["kitchen-sink", "schema-kitchen-sink"].map { name in
            try! String(
                contentsOf: Bundle.module.url(forResource: name, withExtension: "graphql", subdirectory: "Fixtures")!, encoding: .utf8)
        }

    @Test func aCompactDocumentParsesToTheSameTree() throws {
        for text in Self.documents {
            let compact = try compactDocument(text)
            #expect(
                try parse(Source(body: compact), options: Self.untracked) == parse(Source(body: text), options: Self.untracked), "\(text)")
            #expect(try compactDocument(compact) == compact)
            #expect(compact.utf8.count <= text.utf8.count)
        }
    }

    @Test func commentsWhiteSpaceAndCommasGoStringsStay() throws {
        let text =
            "# a comment\n\u{FEFF}query  Q ( $a : Int = 1 , $b: [Int]) {\n  a: f(x: 1.5, y: \"  kept  # too \", z: \"\"\"\n  block\n  \"\"\") ...F ... on T { g } }\n# end"
        let compact = try compactDocument(text)
        #expect(
            compact
                == "query Q($a:Int=1$b:[Int]){a:f(x:1.5 y:\"  kept  # too \"z:\"\"\"\n  block\n  \"\"\")...F ...on T{g}}",
            "\(compact.debugDescription)")
        let padded = String(repeating: "# padding\n", count: 100_000) + "query Q1 { __typename }"
        #expect(try compactDocument(padded) == "query Q1{__typename}")
        #expect(throws: GraphQLError.self) { try compactDocument("{ \"unterminated }") }
    }
}
