import Foundation
import GraphQL
import Testing

/// The kitchen-sink documents with random small edits, each answered by
/// graphql-js 16 (scripts/graphql-js/make-mutation-fixtures.js): a broad,
/// seeded sweep over error paths that hand-written cases miss.
struct MutationCase: Decodable, CustomTestStringConvertible, Sendable {
    var base: Int
    var edits: [Edit]
    var printed: String?
    var error: ParseCase.ExpectedError?

    struct Edit: Decodable, Sendable {
        var position: Int
        var removed: Int
        var inserted: String

        init(from decoder: Decoder) throws {
            var container = try decoder.unkeyedContainer()
            position = try container.decode(Int.self)
            removed = try container.decode(Int.self)
            inserted = try container.decode(String.self)
        }
    }

    static let bases: [String] = ["kitchen-sink", "schema-kitchen-sink"].map { name in
        let url = Bundle.module.url(forResource: name, withExtension: "graphql", subdirectory: "Fixtures")!
        return try! String(contentsOf: url, encoding: .utf8)
    }

    static let all: [MutationCase] = {
        let url = Bundle.module.url(forResource: "mutation-cases", withExtension: "json", subdirectory: "Fixtures")!
        return try! JSONDecoder().decode([MutationCase].self, from: Data(contentsOf: url))
    }()

    /// The edited document: the edits replayed over the base's code points, as JavaScript's splice did.
    var source: String {
        var scalars = Array(Self.bases[base].unicodeScalars)
        for edit in edits {
            let end = min(edit.position + edit.removed, scalars.count)
            scalars.replaceSubrange(edit.position..<end, with: edit.inserted.unicodeScalars)
        }
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars)
        return text
    }

    var testDescription: String {
        "\(base == 0 ? "kitchen-sink" : "schema-kitchen-sink") \(edits.map { "\($0.position)-\($0.removed)+\(String(reflecting: $0.inserted))" }.joined(separator: " "))"
    }
}

@Suite struct MutationDifferentialTests {
    @Test func corpusIsLoaded() {
        #expect(MutationCase.all.count >= 400)
        #expect(MutationCase.all.contains { $0.printed != nil } && MutationCase.all.contains { $0.error != nil })
    }

    @Test(arguments: MutationCase.all)
    func editedDocumentParsesAsGraphQLJSParsesIt(_ testCase: MutationCase) {
        let options = ParseOptions(maxTokens: nil, maxSourceBytes: nil)
        do {
            let document = try parse(Source(body: testCase.source), options: options)
            #expect(testCase.error == nil, "parsed, expected \(testCase.error?.message ?? "")")
            #expect(Printer.print(document) == testCase.printed)
        } catch {
            #expect(error.message == testCase.error?.message)
            #expect(error.locations == testCase.error?.locations.map { SourceLocation(line: $0.line, column: $0.column) })
        }
    }
}
