import Foundation
import PackagePlugin

/// Builds a top-level folder into the target it is applied to, as a Swift
/// enum holding each file's text, so that `huddle` carries them and runs
/// from any folder: `Schema/` (the SDL and the migrations) into HuddleCore
/// as `EmbeddedSchema`, `Playground/` (the IDE's own files) into
/// HuddlePlayground as `EmbeddedPlayground`. Every file is an input:
/// editing one rebuilds.
@main
struct EmbedFiles: BuildToolPlugin {
    /// What each target that applies the plugin embeds.
    static let embeddings: [String: (folder: String, type: String, extensions: [String])] = [
        "HuddleCore": ("Schema", "EmbeddedSchema", ["graphql", "sql"]),
        "HuddlePlayground": ("Playground", "EmbeddedPlayground", ["html", "js", "css", "svg"]),
    ]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let embedding = Self.embeddings[target.name] else {
            Diagnostics.error("EmbedFiles knows nothing to embed into \(target.name)")
            return []
        }
        let folder = context.package.directoryURL.appendingPathComponent(embedding.folder)
        let output = context.pluginWorkDirectoryURL.appendingPathComponent(embedding.type + ".swift")
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
