import Foundation
import PackagePlugin

/// Builds the commit the package is built from into the target it is
/// applied to (`BuildStamp.commit`), for `huddle --version` and the
/// `huddle_build_info` metric. Its inputs are the Git files that say which
/// commit HEAD is (HEAD, the ref it names, the packed refs), so a new
/// commit or a checkout stamps again, and nothing else does.
@main
struct StampBuild: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let package = context.package.directoryURL
        let git = package.appendingPathComponent(".git")
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("BuildStamp.swift")
        var inputs: [URL] = []
        let head = git.appendingPathComponent("HEAD")
        if FileManager.default.fileExists(atPath: head.path) {
            inputs.append(head)
            if let text = try? String(contentsOf: head, encoding: .utf8), text.hasPrefix("ref: ") {
                let ref = git.appendingPathComponent(text.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines))
                if FileManager.default.fileExists(atPath: ref.path) { inputs.append(ref) }
            }
            let packed = git.appendingPathComponent("packed-refs")
            if FileManager.default.fileExists(atPath: packed.path) { inputs.append(packed) }
        }
        return [
            .buildCommand(
                displayName: "Stamping the build with its commit",
                executable: try context.tool(named: "stamp-build").url,
                arguments: [package.path, output.path],
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
