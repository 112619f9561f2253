import Foundation
import PackagePlugin

/// Builds `Schema/` (the SDL and the migrations) into the target it is
/// applied to, as `EmbeddedSchema.files`, so that `huddle` carries its
/// contract and runs from any folder. Every file is an input: editing one
/// rebuilds.
@main
struct EmbedSchema: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let schema = context.package.directoryURL.appendingPathComponent("Schema")
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("EmbeddedSchema.swift")
        var inputs: [URL] = []
        if let files = FileManager.default.enumerator(at: schema, includingPropertiesForKeys: nil) {
            for case let file as URL in files where ["graphql", "sql"].contains(file.pathExtension) { inputs.append(file) }
        }
        return [
            .buildCommand(
                displayName: "Embedding Schema/ (\(inputs.count) files)",
                executable: try context.tool(named: "embed-schema").url,
                arguments: [schema.path, output.path],
                inputFiles: inputs.sorted { $0.path < $1.path },
                outputFiles: [output]
            )
        ]
    }
}
