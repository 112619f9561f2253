import Foundation
import GraphQL
import HuddlePostgres

/// Huddle's own schema, `Schema/`: a folder for what the apps share
/// (`shared`) and one per app, each holding SDL files (the contract with
/// the front ends) and its migrations (`migrations/`). The binary carries
/// each folder in the target that owns it (`App.schemaFiles`); a folder
/// given at run time (`--schema-dir`, `HUDDLE_SCHEMA_DIR`) replaces them
/// all, for development. Either way only the shared core's folder and the
/// mounted apps' are read.
public struct SchemaDirectory: Sendable {
    /// The folder read, or nil for the schema built into the binary.
    public let url: URL?
    /// Whose folders are read, in order: the shared core's, then each app's.
    package let parts: [any App.Type]

    /// A folder on disk (symbolic links in it, or to it, are followed), for
    /// the shared core and `apps`.
    package init(url: URL?, mounting apps: [any App.Type]) {
        self.url = url
        parts = [Shared.self] + apps.filter { ObjectIdentifier($0) != ObjectIdentifier(Shared.self) }
    }

    /// The schema this binary was built with, for the shared core and `apps`.
    package static func embedded(mounting apps: [any App.Type]) -> SchemaDirectory {
        SchemaDirectory(url: nil, mounting: apps)
    }

    /// The environment variable naming a schema folder to use instead of the embedded one.
    public static let environmentVariable = "HUDDLE_SCHEMA_DIR"

    /// The folder `path` names (else `HUDDLE_SCHEMA_DIR`'s), checked; the
    /// embedded schema when neither is given.
    package static func resolve(
        _ path: String?, mounting apps: [any App.Type],
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> SchemaDirectory {
        guard let path = path ?? environment[environmentVariable].flatMap({ $0.isEmpty ? nil : $0 }) else {
            return .embedded(mounting: apps)
        }
        let directory = SchemaDirectory(url: URL(fileURLWithPath: path), mounting: apps)
        try directory.check()
        return directory
    }

    /// `Schema/` in the working directory or one of the three above it
    /// (the package's own, for tests and the private cluster's place).
    public static func locate(from workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        -> URL?
    {
        var candidate = workingDirectory
        for _ in 0..<4 {
            let schema = candidate.appendingPathComponent("Schema", isDirectory: true)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: schema.path, isDirectory: &isDirectory), isDirectory.boolValue {
                return schema
            }
            candidate.deleteLastPathComponent()
        }
        return nil
    }

    /// What a folder given at run time lacks, as one clear error.
    public struct SchemaFolderError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Throws unless the folder exists and each part's folder in it holds SDL.
    public func check() throws {
        guard let url else { return }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw SchemaFolderError(description: "the schema folder \(url.path) does not exist or is not a folder")
        }
        _ = try sources()
    }

    /// Every `.graphql` and `.sql` file of the parts, by path relative to
    /// the schema folder (`playmate/sessions.graphql`,
    /// `playmate/migrations/0001_sessions.sql`): each part's sorted, the
    /// parts in order, so that every build and run reads them in one order.
    public func files() throws -> [(path: String, text: String)] {
        try parts.flatMap { part in try files(of: part).map { (part.schemaFolder + "/" + $0.path, $0.text) } }
    }

    /// One part's files, by path relative to its folder.
    private func files(of part: any App.Type) throws -> [(path: String, text: String)] {
        guard let url else { return part.schemaFiles.sorted { $0.path < $1.path } }
        var files: [(path: String, text: String)] = []
        func collect(_ folder: URL, prefix: String) throws {
            // Resolved first: a folder that is a symbolic link (a container's
            // config mount) lists what it points to.
            let folder = folder.resolvingSymlinksInPath()
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
                let item = folder.appendingPathComponent(name).resolvingSymlinksInPath()
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: item.path, isDirectory: &isDirectory) else { continue }
                if isDirectory.boolValue {
                    try collect(item, prefix: prefix + name + "/")
                } else if name.hasSuffix(".graphql") || name.hasSuffix(".sql") {
                    files.append((prefix + name, String(decoding: try Data(contentsOf: item), as: UTF8.self)))
                }
            }
        }
        let folder = url.appendingPathComponent(part.schemaFolder)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw SchemaFolderError(
                description: "\(origin) has no SDL in \(part.schemaFolder)/ (it should hold shared/ and a folder per app)")
        }
        try collect(folder, prefix: "")
        return files.sorted { $0.path < $1.path }
    }

    /// Where the schema comes from, for messages.
    public var origin: String { url?.path ?? "the schema built into huddle" }

    /// The SDL of every part, each file a `Source` named `Schema/PART/FILE`.
    public func sources() throws -> [Source] {
        try parts.flatMap { part in try sources(of: part) }
    }

    /// The SDL of the shared core and of `apps`, which must be among the parts.
    package func sources(mounting apps: [any App.Type]) throws -> [Source] {
        let folders = Set(([Shared.self] + apps).map { $0.schemaFolder })
        return try parts.filter { folders.contains($0.schemaFolder) }.flatMap { part in try sources(of: part) }
    }

    private func sources(of part: any App.Type) throws -> [Source] {
        let sdl = try files(of: part).filter { $0.path.hasSuffix(".graphql") && !$0.path.hasPrefix("migrations/") }
        guard !sdl.isEmpty else { throw SchemaFolderError(description: "\(origin) has no SDL in \(part.schemaFolder)/") }
        return sdl.map { Source(body: $0.text, name: "Schema/\(part.schemaFolder)/\($0.path)") }
    }

    /// The migrations of every part, in the order they run: the shared
    /// core's, then each app's, each in version order.
    public func migrations() throws -> [Migration] {
        try parts.flatMap { part in
            let prefix = "migrations/"
            let files = try files(of: part).filter { $0.path.hasPrefix(prefix) && $0.path.hasSuffix(".sql") }
            return try PostgresMigrator.migrations(
                files.map { (String($0.path.dropFirst(prefix.count)), $0.text) }, app: part.schemaFolder,
                from: (url?.path ?? "Schema") + "/\(part.schemaFolder)/migrations")
        }
    }
}
