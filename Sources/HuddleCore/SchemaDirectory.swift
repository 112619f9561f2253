import Foundation
import GraphQL

/// Huddle's own schema: the SDL files in `Schema/`, a folder for what the
/// apps share (`shared`) and one per app, which are the contract with the
/// front ends.
public struct SchemaDirectory: Sendable {
    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    /// `Schema/` under the working directory, or beside the executable's
    /// package when run from a build folder.
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

    /// The `.graphql` files of `folders` (every folder but `migrations` for
    /// nil), sorted by path so that every build reads them in one order.
    public func sdlFiles(in folders: [String]? = nil) throws -> [URL] {
        let manager = FileManager.default
        let names =
            try folders
            ?? manager.contentsOfDirectory(atPath: url.path).filter { name in
                var isDirectory: ObjCBool = false
                return name != "migrations" && manager.fileExists(atPath: url.appendingPathComponent(name).path, isDirectory: &isDirectory)
                    && isDirectory.boolValue
            }
        return try names.flatMap { folder in
            try manager.contentsOfDirectory(at: url.appendingPathComponent(folder, isDirectory: true), includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "graphql" }
        }
        .sorted { $0.path < $1.path }
    }

    /// The SDL of `folders` (all for nil), each file a `Source` named by its
    /// path relative to the package.
    public func sources(in folders: [String]? = nil) throws -> [Source] {
        try sdlFiles(in: folders).map { file in
            let data = try Data(contentsOf: file)
            let folder = file.deletingLastPathComponent().lastPathComponent
            return Source(body: String(decoding: data, as: UTF8.self), name: "Schema/\(folder)/" + file.lastPathComponent)
        }
    }

    /// The SDL of the shared core and of `apps`.
    package func sources(mounting apps: [any App.Type]) throws -> [Source] {
        try sources(in: ([Shared.self] + apps).map { $0.schemaFolder })
    }
}
