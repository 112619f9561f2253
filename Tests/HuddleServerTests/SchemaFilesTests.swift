import Foundation
import GraphQL
import HuddleCore
import PostgresTestSupport
import Prolific
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Huddle's own SDL files are the API contract: each must parse, and each
/// must already be in the canonical form `huddle format` prints. The binary
/// carries them (and the migrations) as built; a folder given at run time
/// is read through symbolic links, and one without SDL is one clear error.
@Suite struct SchemaFilesTests {
    let directory: SchemaDirectory
    let url: URL

    init() throws {
        url = TestSchema.folder
        directory = TestSchema.everything
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
        let embedded = SchemaDirectory.embedded(mounting: everyApp)
        #expect(try embedded.files().map(\.path) == directory.files().map(\.path))
        #expect(try embedded.files().map(\.text) == directory.files().map(\.text))
        #expect(try embedded.migrations() == directory.migrations())
        #expect(try embedded.migrations().first?.path == "shared/0001_accounts.sql")
        #expect(try embedded.sources().map(\.name) == directory.sources().map(\.name))
    }

    /// Each app's target carries its own folder and no other: the core
    /// carries only `shared/`.
    @Test func eachTargetEmbedsOnlyItsOwnFolder() throws {
        #expect(Shared.schemaFiles.contains { $0.path == "accounts.graphql" })
        #expect(Shared.schemaFiles.contains { $0.path == "migrations/0001_accounts.sql" })
        for app in everyApp {
            let onDisk = try FileManager.default.subpathsOfDirectory(atPath: url.appendingPathComponent(app.schemaFolder).path)
                .filter { $0.hasSuffix(".graphql") || $0.hasSuffix(".sql") }.sorted()
            #expect(app.schemaFiles.map(\.path).sorted() == onDisk, "\(app.schemaFolder)")
        }
        // The shared core's migrations run first; each app's after, in the order the apps are mounted.
        #expect(
            try directory.migrations().map(\.app).reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
                == ["shared"] + everyApp.map { $0.schemaFolder })
    }

    @Test func aFolderBehindSymbolicLinksReadsTheSame() throws {
        let directoryBox = try ScratchDirectory("schema-links")
        do {
            let scratch = directoryBox.url
            // The folder itself a link (a container's config mount), and a
            // subfolder a link inside a real folder.
            let linked = scratch.appendingPathComponent("Schema")
            try FileManager.default.createSymbolicLink(at: linked, withDestinationURL: url)
            #expect(
                try SchemaDirectory(url: linked, mounting: everyApp).files().map(\.path) == directory.files().map(\.path))
            let mixed = scratch.appendingPathComponent("mixed")
            try FileManager.default.createDirectory(at: mixed, withIntermediateDirectories: false)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path) {
                try FileManager.default.createSymbolicLink(
                    at: mixed.appendingPathComponent(name), withDestinationURL: url.appendingPathComponent(name))
            }
            let resolved = try SchemaDirectory.resolve(mixed.path, mounting: everyApp)
            #expect(try resolved.sources().map(\.body) == directory.sources().map(\.body))
            #expect(try resolved.migrations() == directory.migrations())
        }
    }

    @Test func aFolderWithoutSDLIsOneClearError() throws {
        let directoryBox = try ScratchDirectory("schema-empty")
        do {
            let scratch = directoryBox.url
            #expect {
                try SchemaDirectory.resolve(scratch.path, mounting: everyApp)
            } throws: { "\($0)".contains("has no SDL in shared/") }
            #expect {
                try SchemaDirectory.resolve(scratch.appendingPathComponent("missing").path, mounting: everyApp)
            } throws: { "\($0)".contains("does not exist") }
            // The environment variable names a folder too; nothing named: the embedded schema.
            #expect(try SchemaDirectory.resolve(nil, mounting: everyApp, environment: ["HUDDLE_SCHEMA_DIR": url.path]).url == url)
            #expect(try SchemaDirectory.resolve(nil, mounting: everyApp, environment: [:]).url == nil)
            // A folder that lacks an app's SDL says which.
            try FileManager.default.createDirectory(at: scratch.appendingPathComponent("shared"), withIntermediateDirectories: false)
            try "type Query { a: Int }\n".write(to: scratch.appendingPathComponent("shared/a.graphql"), atomically: true, encoding: .utf8)
            #expect {
                try SchemaDirectory(url: scratch, mounting: [Prolific.self]).sources()
            } throws: { "\($0)".contains("has no SDL in prolific/") }
        }
    }

    @Test func locatesSchemaFromANestedWorkingDirectory() throws {
        let nested = url.deletingLastPathComponent().appendingPathComponent("Sources/huddle")
        #expect(SchemaDirectory.locate(from: nested)?.standardizedFileURL == url.standardizedFileURL)
    }
}
