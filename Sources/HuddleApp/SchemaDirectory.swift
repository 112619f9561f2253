import Foundation
import GraphQL

/// Huddle's own schema: the SDL files in `Schema/`, one per domain, which are
/// the contract with the front ends.
public struct SchemaDirectory: Sendable {
    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    /// `Schema/` under the working directory, or beside the executable's
    /// package when run from a build folder.
    public static func locate(from workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) -> SchemaDirectory? {
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

    /// The `.graphql` files, sorted by name so that every build reads them in one order.
    public func sdlFiles() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "graphql" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// Every SDL file as a `Source` named by its path relative to the package.
    public func sources() throws -> [Source] {
        try sdlFiles().map { file in
            let data = try Data(contentsOf: file)
            return Source(body: String(decoding: data, as: UTF8.self), name: "Schema/" + file.lastPathComponent)
        }
    }
}
