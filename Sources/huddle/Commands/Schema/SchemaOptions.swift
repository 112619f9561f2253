import ArgumentParser
import Foundation
import GraphQL
import HuddleCore

/// The schema folder to use instead of the one built into `huddle`.
struct SchemaFolderOption: ParsableArguments {
    @Option(
        name: .customLong("schema-dir"),
        help:
            "A Schema/ folder (shared/ and a folder per app, each with SDL and migrations/) to use instead of the one built into huddle (HUDDLE_SCHEMA_DIR)."
    )
    var path: String?

    /// The folder, checked, or the embedded schema; exit 2 with the reason.
    func directory() throws -> SchemaDirectory {
        do {
            return try SchemaDirectory.resolve(path, mounting: mountedApps)
        } catch {
            throw CommandFailure.usage("\(error)")
        }
    }
}

/// Options that choose the schema: SDL files, a live endpoint, or Huddle's own.
struct SchemaOptions: ParsableArguments {
    @Option(
        name: .customLong("schema"),
        help: "An SDL file (repeat for several), or an http(s) URL to introspect. Default: Huddle's own schema.")
    var files: [String] = []

    @Option(name: .customLong("header"), help: "With a --schema URL: a header to send ('Authorization: Bearer …'); repeat for several.")
    var headers: [String] = []

    @OptionGroup var folder: SchemaFolderOption

    init() {}

    init(files: [String], headers: [String], folder: SchemaFolderOption) {
        self.files = files
        self.headers = headers
        self.folder = folder
    }

    /// The SDL sources, or exit 2 with the reason on standard error. The
    /// built-in schema is the one `huddle serve` serves, `@defer` and `@stream` included.
    func sources() throws -> [Source] {
        if files.isEmpty {
            do {
                return try folder.directory().sources() + [incrementalDeliveryDirectives]
            } catch let failure as CommandFailure {
                throw failure
            } catch {
                throw CommandFailure.usage("\(error)")
            }
        }
        return try files.map { file in
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CommandFailure.usage("cannot read \(file)")
            }
            return Source(body: String(decoding: data, as: UTF8.self), name: file)
        }
    }

    /// The schema one argument names: `builtin` (Huddle's own, or
    /// --schema-dir's), an http(s) URL to introspect, an SDL file, or a
    /// folder of SDL files (.graphql and .gql, searched).
    func schema(named spec: String) throws -> GraphQLSchema {
        if spec == "builtin" {
            return try SchemaOptions(files: [], headers: [], folder: folder).schema()
        }
        if RemoteSchema.isURL(spec) {
            return try SchemaOptions(files: [spec], headers: headers, folder: folder).schema()
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: spec, isDirectory: &isFolder) else {
            throw CommandFailure.usage("no such schema: \(spec) (an SDL file or folder, a URL, or builtin)")
        }
        let files = isFolder.boolValue ? ((try? DocumentFiles.collect([spec])) ?? []) : [spec]
        if files.isEmpty { throw CommandFailure.usage("no .graphql or .gql files in \(spec)") }
        return try SchemaOptions(files: files, headers: [], folder: folder).schema()
    }

    /// The built and validated schema, or exit 2 listing every problem.
    /// `headersServeAnother`: the command names another schema by URL, and
    /// the headers are for that one.
    /// `withIncrementalDelivery`: SDL that does not declare `@defer` and
    /// `@stream` gets graphql-js 17's definitions of them.
    func schema(headersServeAnother: Bool = false, withIncrementalDelivery: Bool = false) throws -> GraphQLSchema {
        var schema: GraphQLSchema
        if let url = files.first(where: RemoteSchema.isURL) {
            guard files.count == 1 else { throw CommandFailure.usage("a --schema URL goes alone, without SDL files") }
            schema = try RemoteSchema.fetch(url, headers: headers)
        } else {
            if !headers.isEmpty && !headersServeAnother { throw CommandFailure.usage("--header goes with a --schema URL") }
            let sources = try sources()
            do throws(SchemaBuildError) {
                schema = try buildSchema(sources)
                if withIncrementalDelivery, schema.directive(named: "defer") == nil, schema.directive(named: "stream") == nil {
                    schema = try buildSchema(sources + [incrementalDeliveryDirectives])
                }
            } catch {
                throw CommandFailure.schema(error.errors)
            }
        }
        let problems = validateSchema(schema)
        if !problems.isEmpty { throw CommandFailure.schema(problems) }
        return schema
    }
}

/// A failure that ends a command with exit status 2 and a message on standard error.
enum CommandFailure: Error {
    case usage(String)
    case schema([GraphQLError])

    func report(command: String) -> ExitCode {
        switch self {
        case .usage(let message):
            FileHandle.standardError.write(Data("huddle \(command): \(message)\n".utf8))
        case .schema(let errors):
            for error in errors {
                let place = [error.sourceName, error.locations.first.map { "\($0.line):\($0.column)" }]
                    .compactMap { $0 }.joined(separator: ":")
                FileHandle.standardError.write(Data(((place.isEmpty ? "" : place + ": ") + error.message + "\n").utf8))
            }
        }
        return ExitCode(2)
    }
}
