import Foundation
import PackagePlugin

/// Builds a folder of the package into the target it is applied to, as a
/// Swift enum holding each file's text, so that `huddle` carries them and
/// runs from any folder: each app target its own part of the schema
/// (`Schema/<its name in lower case>/`: SDL and migrations) as
/// `EmbeddedSchema`, HuddleCore the shared part (`Schema/shared/`), and
/// HuddlePlayground the IDE's own files (`Playground/`) as
/// `EmbeddedPlayground`. Every file is an input: editing one rebuilds.
@main
struct EmbedFiles: BuildToolPlugin {
    /// What a target embeds when it is not an app.
    static let embeddings: [String: (folder: String, type: String, extensions: [String])] = [
        "HuddleCore": ("Schema/shared", "EmbeddedSchema", schemaExtensions),
        "HuddlePlayground": ("Playground", "EmbeddedPlayground", ["html", "js", "css", "svg"]),
    ]
    static let schemaExtensions = ["graphql", "sql"]

    /// An app's part of the schema: its folder under `Schema/` is its name in lower case.
    static func embedding(of target: String) -> (folder: String, type: String, extensions: [String]) {
        embeddings[target] ?? ("Schema/" + target.lowercased(), "EmbeddedSchema", schemaExtensions)
    }

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let embedding = Self.embedding(of: target.name)
        let folder = context.package.directoryURL.appendingPathComponent(embedding.folder)
        let output = context.pluginWorkDirectoryURL.appendingPathComponent(embedding.type + ".swift")
        guard FileManager.default.fileExists(atPath: folder.path) else {
            Diagnostics.error("EmbedFiles: \(target.name) embeds \(embedding.folder)/, which does not exist")
            return []
        }
        var inputs: [URL] = []
        if let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) {
            for case let file as URL in files where embedding.extensions.contains(file.pathExtension) { inputs.append(file) }
        }
        return [
            .buildCommand(
                displayName: "Embedding \(embedding.folder)/ (\(inputs.count) files)",
                executable: try context.tool(named: "embed-files").url,
                arguments: [folder.path, output.path, embedding.type, embedding.extensions.joined(separator: ",")],
                inputFiles: inputs.sorted { $0.path < $1.path },
                outputFiles: [output]
            )
        ]
    }
}
