import Foundation
import GraphQL
import HuddleCore
import Testing

/// Huddle's own SDL files are the API contract: each must parse, and each
/// must already be in the canonical form `huddle format` prints. The binary
/// carries them (and the migrations) as built; a folder given at run time
/// is read through symbolic links, and one without SDL is one clear error.
@Suite struct SchemaFilesTests {
    let directory: SchemaDirectory
    let url: URL

    init() throws {
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        url = packageRoot.appendingPathComponent("Schema")
        directory = SchemaDirectory(url: url)
    }

    @Test func everySchemaFileParsesAndIsCanonical() throws {
        let sources = try directory.sources()
        #expect(!sources.isEmpty)
        for source in sources {
            let document = try parse(source, options: .trusted)
            #expect(Printer.print(document) + "\n" == source.body, "\(source.name) is not in canonical form")
        }
    }

    /// Byte for byte, so the embedded migrations have the files' checksums.
    @Test func theEmbeddedSchemaIsTheFolderAsBuilt() throws {
        let embedded = try SchemaDirectory.embedded.files()
        let folder = try directory.files()
        #expect(embedded.map(\.path) == folder.map(\.path))
        #expect(embedded.map(\.text) == folder.map(\.text))
        #expect(try SchemaDirectory.embedded.migrations() == directory.migrations())
        #expect(try SchemaDirectory.embedded.migrations().first?.name == "0001_accounts.sql")
        #expect(try SchemaDirectory.embedded.sources().map(\.name) == directory.sources().map(\.name))
    }

    @Test func aFolderBehindSymbolicLinksReadsTheSame() throws {
        let directoryBox = try ScratchDirectory("schema-links")
        do {
            let scratch = directoryBox.url
            // The folder itself a link (a container's config mount), and a
            // subfolder a link inside a real folder.
            let linked = scratch.appendingPathComponent("Schema")
            try FileManager.default.createSymbolicLink(at: linked, withDestinationURL: url)
            #expect(try SchemaDirectory(url: linked).files().map(\.path) == directory.files().map(\.path))
            let mixed = scratch.appendingPathComponent("mixed")
            try FileManager.default.createDirectory(at: mixed, withIntermediateDirectories: false)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path) {
                try FileManager.default.createSymbolicLink(
                    at: mixed.appendingPathComponent(name), withDestinationURL: url.appendingPathComponent(name))
            }
            let resolved = try SchemaDirectory.resolve(mixed.path)
            #expect(try resolved.sources().map(\.body) == directory.sources().map(\.body))
            #expect(try resolved.migrations() == directory.migrations())
        }
    }

    @Test func aFolderWithoutSDLIsOneClearError() throws {
        let directoryBox = try ScratchDirectory("schema-empty")
        do {
            let scratch = directoryBox.url
            #expect {
                try SchemaDirectory.resolve(scratch.path)
            } throws: { "\($0)".contains("holds no .graphql file") }
            #expect {
                try SchemaDirectory.resolve(scratch.appendingPathComponent("missing").path)
            } throws: { "\($0)".contains("does not exist") }
            // The environment variable names a folder too; nothing named: the embedded schema.
            #expect(try SchemaDirectory.resolve(nil, environment: ["HUDDLE_SCHEMA_DIR": url.path]).url == url)
            #expect(try SchemaDirectory.resolve(nil, environment: [:]).url == nil)
            // A folder that lacks an app's SDL says which.
            try FileManager.default.createDirectory(at: scratch.appendingPathComponent("shared"), withIntermediateDirectories: false)
            try "type Query { a: Int }\n".write(to: scratch.appendingPathComponent("shared/a.graphql"), atomically: true, encoding: .utf8)
            #expect {
                try SchemaDirectory(url: scratch).sources(in: ["shared", "prolific"])
            } throws: { "\($0)".contains("has no SDL in prolific/") }
        }
    }

    @Test func locatesSchemaFromANestedWorkingDirectory() throws {
        let nested = url.deletingLastPathComponent().appendingPathComponent("Sources/huddle")
        #expect(SchemaDirectory.locate(from: nested)?.url?.standardizedFileURL == url.standardizedFileURL)
    }
}
