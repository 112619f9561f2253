import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The files a command is given: files as named, folders searched for the
/// extensions it reads (`.graphql` and `.gql`; `validate` adds JavaScript,
/// TypeScript and Vue), hidden folders and `node_modules` left out, and
/// glob patterns (`src/*.graphql`, for a shell that passes them on quoted).
/// Sorted, each once.
enum DocumentFiles {
    static let graphQLExtensions: Set<String> = ["graphql", "gql"]
    /// A front-end project's: GraphQL files and the hosts of embedded documents.
    static let projectExtensions = graphQLExtensions.union(EmbeddedDocuments.extensions)

    /// What cannot be collected: a path that is no file, folder or match.
    struct Missing: Error, CustomStringConvertible {
        var path: String
        var description: String { "no such file, folder or match: \(path)" }
    }

    static func collect(_ paths: [String], extensions: Set<String> = graphQLExtensions) throws(Missing) -> [String] {
        var found: Set<String> = []
        for path in paths {
            let named = FileManager.default.fileExists(atPath: path) ? [path] : glob(path)
            guard !named.isEmpty else { throw Missing(path: path) }
            for name in named {
                var isFolder: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: name, isDirectory: &isFolder)
                if isFolder.boolValue { found.formUnion(search(name, extensions: extensions)) } else { found.insert(name) }
            }
        }
        return found.sorted()
    }

    /// The files under `folder` with one of `extensions`.
    private static func search(_ folder: String, extensions: Set<String>) -> [String] {
        let root = URL(fileURLWithPath: folder)
        guard
            let walker = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles])
        else { return [] }
        var files: [String] = []
        for case let url as URL in walker {
            if (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true {
                if url.lastPathComponent == "node_modules" { walker.skipDescendants() }
                continue
            }
            if extensions.contains(url.pathExtension.lowercased()) {
                // As the user named the folder, not as the system resolves it.
                files.append(folder + String(url.path.dropFirst(root.path.count)))
            }
        }
        return files
    }

    private static func glob(_ pattern: String) -> [String] {
        var result = glob_t()
        defer { globfree(&result) }
        guard Glibc.glob(pattern, 0, nil, &result) == 0 else { return [] }
        return (0..<Int(result.gl_pathc)).compactMap { index in result.gl_pathv[index].map { String(cString: $0) } }
    }
}
