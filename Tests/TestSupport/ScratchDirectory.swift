import Foundation

/// A directory of a test's own under the system's temporary directory,
/// removed with the value, so that the files a test writes do not outlive it.
package final class ScratchDirectory: Sendable {
    package let url: URL

    package init(_ prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of `name` in the directory (which need not exist).
    package func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// Writes `contents` to `name` in the directory; its path.
    package func file(_ name: String, _ contents: String) throws -> String {
        let path = path(name)
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// Runs blocking work (a child process, a blocking socket read) on a thread
/// of its own, so that it does not hold one of the few threads every test's
/// tasks share while other tests wait for them.
package func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
