import Foundation
import GraphQL
import HuddlePostgres

/// Huddle's own schema: the SDL files of `Schema/`, a folder for what the
/// apps share (`shared`) and one per app, which are the contract with the
/// front ends, and `migrations/`. The binary carries the folder as it was
/// built (`embedded`); a folder given at run time (`--schema-dir`,
/// `HUDDLE_SCHEMA_DIR`) replaces it, for development.
public struct SchemaDirectory: Sendable {
    /// The folder read, or nil for the schema built into the binary.
    public let url: URL?

    /// A folder on disk; symbolic links in it (or to it) are followed.
    public init(url: URL) {
        self.url = url
    }

    private init() {
        url = nil
    }

    /// The schema this binary was built with.
    public static let embedded = SchemaDirectory()

    /// The environment variable naming a schema folder to use instead of the embedded one.
    public static let environmentVariable = "HUDDLE_SCHEMA_DIR"

    /// The folder `path` names (else `HUDDLE_SCHEMA_DIR`'s), checked; the
    /// embedded schema when neither is given.
    public static func resolve(
        _ path: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> SchemaDirectory {
        guard let path = path ?? environment[environmentVariable].flatMap({ $0.isEmpty ? nil : $0 }) else { return .embedded }
        let directory = SchemaDirectory(url: URL(fileURLWithPath: path))
        try directory.check()
        return directory
    }

    /// `Schema/` in the working directory or one of the three above it
    /// (the package's own, for tests and the private cluster's place).
    public static func locate(from workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        -> SchemaDirectory?
    {
        var candidate = workingDirectory
        for _ in 0..<4 {
            let schema = candidate.appendingPathComponent("Schema", isDirectory: true)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: schema.path, isDirectory: &isDirectory), isDirectory.boolValue {
                return SchemaDirectory(url: schema)
            }
            candidate.deleteLastPathComponent()
        }
        return nil
    }

    /// What a folder given at run time lacks, as one clear error.
    public struct SchemaFolderError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Throws unless the folder exists and holds SDL.
    public func check() throws {
        guard let url else { return }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw SchemaFolderError(description: "the schema folder \(url.path) does not exist or is not a folder")
        }
        guard try files().contains(where: { $0.path.hasSuffix(".graphql") }) else {
            throw SchemaFolderError(
                description:
                    "the schema folder \(url.path) holds no .graphql file (it should hold shared/ and a folder per app, each with SDL files)"
            )
        }
    }

    /// Every `.graphql` and `.sql` file, by path relative to the folder,
    /// sorted, so that every build and run reads them in one order.
    public func files() throws -> [(path: String, text: String)] {
        guard let url else { return EmbeddedSchema.files }
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
        try collect(url, prefix: "")
        return files.sorted { $0.path < $1.path }
    }

    /// Where the schema comes from, for messages.
    public var origin: String { url?.path ?? "the schema built into huddle" }

    /// The SDL of `folders` (every folder but `migrations` for nil), each
    /// file a `Source` named `Schema/FOLDER/FILE`.
    public func sources(in folders: [String]? = nil) throws -> [Source] {
        let all = try files().filter { $0.path.hasSuffix(".graphql") }
        if let folders {
            for folder in folders where !all.contains(where: { $0.path.hasPrefix(folder + "/") }) {
                throw SchemaFolderError(description: "\(origin) has no SDL in \(folder)/")
            }
        }
        return all.filter { file in
            guard let slash = file.path.firstIndex(of: "/") else { return false }
            let folder = String(file.path[..<slash])
            return folder != "migrations" && (folders?.contains(folder) ?? true)
        }
        .map { Source(body: $0.text, name: "Schema/" + $0.path) }
    }

    /// The SDL of the shared core and of `apps`.
    package func sources(mounting apps: [any App.Type]) throws -> [Source] {
        try sources(in: ([Shared.self] + apps).map { $0.schemaFolder })
    }

    /// The migrations in `migrations/`, in order.
    public func migrations() throws -> [Migration] {
        let prefix = "migrations/"
        let files = try files().filter { $0.path.hasPrefix(prefix) && $0.path.hasSuffix(".sql") }
        return try PostgresMigrator.migrations(
            files.map { (String($0.path.dropFirst(prefix.count)), $0.text) },
            from: url.map { $0.appendingPathComponent("migrations").path } ?? "Schema/migrations")
    }
}
