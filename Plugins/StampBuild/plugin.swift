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
        // The files the tool reads (stamp-build's gitFolders, for a clone or a worktree).
        var folders: (head: URL, refs: URL)?
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: git.path, isDirectory: &isFolder) {
            if isFolder.boolValue {
                folders = (git, git)
            } else if let text = try? String(contentsOf: git, encoding: .utf8), text.hasPrefix("gitdir: ") {
                inputs.append(git)
                let path = text.dropFirst(8).trimmingCharacters(in: .whitespacesAndNewlines)
                let head = path.hasPrefix("/") ? URL(fileURLWithPath: path) : package.appendingPathComponent(path)
                let common = (try? String(contentsOf: head.appendingPathComponent("commondir"), encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                folders = (head, common.map { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : head.appendingPathComponent($0) } ?? head)
            }
        }
        if let folders {
            let head = folders.head.appendingPathComponent("HEAD")
            inputs.append(head)
            if let text = try? String(contentsOf: head, encoding: .utf8), text.hasPrefix("ref: ") {
                let ref = folders.refs.appendingPathComponent(text.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines))
                if FileManager.default.fileExists(atPath: ref.path) { inputs.append(ref) }
            }
            let packed = folders.refs.appendingPathComponent("packed-refs")
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
