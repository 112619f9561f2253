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
let git = URL(fileURLWithPath: arguments[1]).appendingPathComponent(".git")

func read(_ path: String) -> String? {
    (try? String(contentsOf: git.appendingPathComponent(path), encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
}

func isCommit(_ text: String) -> Bool {
    text.count == 40 && text.allSatisfy { $0.isHexDigit }
}

var commit = "unknown"
if let head = read("HEAD") {
    if isCommit(head) {
        commit = head
    } else if head.hasPrefix("ref: ") {
        let ref = String(head.dropFirst(5))
        if let loose = read(ref), isCommit(loose) {
            commit = loose
        } else if let packed = read("packed-refs") {
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
