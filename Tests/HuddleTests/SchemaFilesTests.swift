import Foundation
import GraphQL
import HuddleCore
import Testing

/// Huddle's own SDL files are the API contract: each must parse, and each
/// must already be in the canonical form `huddle format` prints.
@Suite struct SchemaFilesTests {
    let directory: SchemaDirectory

    init() throws {
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        directory = SchemaDirectory(url: packageRoot.appendingPathComponent("Schema"))
    }

    @Test func everySchemaFileParsesAndIsCanonical() throws {
        let sources = try directory.sources()
        #expect(!sources.isEmpty)
        for source in sources {
            let document = try parse(source, options: .trusted)
            #expect(Printer.print(document) + "\n" == source.body, "\(source.name) is not in canonical form")
        }
    }

    @Test func locatesSchemaFromANestedWorkingDirectory() throws {
        let nested = directory.url.deletingLastPathComponent().appendingPathComponent("Sources/huddle")
        #expect(SchemaDirectory.locate(from: nested)?.url.standardizedFileURL == directory.url.standardizedFileURL)
    }
}
