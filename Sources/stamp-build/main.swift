import Foundation

// Writes `BuildStamp.swift`: the commit the package was built from, read
// from its Git folder (the ref HEAD names, loose or packed), or "unknown"
// when it was built from a copy without one (a container's build stage).
//
//     stamp-build <package directory> <output file>

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: stamp-build <package directory> <output file>\n".utf8))
    exit(2)
}
let package = URL(fileURLWithPath: arguments[1])

/// The Git folder HEAD is in, and the one the refs are in: the same for a
/// clone; for a worktree, `.git` is a file naming its own folder, whose
/// `commondir` names the repository's.
func gitFolders() -> (head: URL, refs: URL)? {
    let dotGit = package.appendingPathComponent(".git")
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: dotGit.path, isDirectory: &isFolder) else { return nil }
    if isFolder.boolValue { return (dotGit, dotGit) }
    guard let text = try? String(contentsOf: dotGit, encoding: .utf8), text.hasPrefix("gitdir: ") else { return nil }
    let path = text.dropFirst(8).trimmingCharacters(in: .whitespacesAndNewlines)
    let head = path.hasPrefix("/") ? URL(fileURLWithPath: path) : package.appendingPathComponent(path)
    guard let common = try? String(contentsOf: head.appendingPathComponent("commondir"), encoding: .utf8) else { return (head, head) }
    let commonPath = common.trimmingCharacters(in: .whitespacesAndNewlines)
    return (head, commonPath.hasPrefix("/") ? URL(fileURLWithPath: commonPath) : head.appendingPathComponent(commonPath))
}

func read(_ folder: URL, _ path: String) -> String? {
    (try? String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
}

func isCommit(_ text: String) -> Bool {
    text.count == 40 && text.allSatisfy { $0.isHexDigit }
}

var commit = "unknown"
if let folders = gitFolders(), let head = read(folders.head, "HEAD") {
    if isCommit(head) {
        commit = head
    } else if head.hasPrefix("ref: ") {
        let ref = String(head.dropFirst(5))
        if let loose = read(folders.refs, ref), isCommit(loose) {
            commit = loose
        } else if let packed = read(folders.refs, "packed-refs") {
            for line in packed.split(separator: "\n") where line.hasSuffix(" " + ref) {
                let hash = String(line.prefix(40))
                if isCommit(hash) { commit = hash }
            }
        }
    }
}

let source = """
    // Made by the StampBuild plugin at build time; not in the repository.
    package enum BuildStamp {
        /// The commit the binary was built from ("unknown" without a Git folder).
        package static let commit = "\(commit)"
    }

    """
let output = URL(fileURLWithPath: arguments[2])
if (try? String(contentsOf: output, encoding: .utf8)) != source {
    try source.write(to: output, atomically: true, encoding: .utf8)
}
