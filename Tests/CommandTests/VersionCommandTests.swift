import Foundation
import TestSupport
import Testing

/// `huddle --version` and `huddle version`: Huddle's own version and the
/// commit it was built from (the checkout's, read from its Git folder at
/// build time), then the system libraries'.
@Suite struct VersionCommandTests {
    /// The commit the package folder's Git folder says HEAD is.
    static func checkedOutCommit() throws -> String? {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: root.appendingPathComponent(".git").path) else { return nil }
        let outcome = try HuddleCommand.runTool("git", ["-C", root.path, "rev-parse", "HEAD"])
        return outcome.status == 0 ? outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) : nil
    }

    @Test func printsItsVersionAndCommitThenTheLibraries() throws {
        let short = try HuddleCommand.run(["--version"])
        #expect(short.status == 0)
        let line = short.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let match = try #require(line.wholeMatch(of: /huddle (\d+\.\d+\.\d+) \(commit ([0-9a-f]{12}|unknown)\)/), "\(line)")
        if let commit = try Self.checkedOutCommit() {
            // Built from this checkout (a build of an older commit would differ: build first).
            #expect(String(match.2) == String(commit.prefix(12)), "\(line) vs \(commit)")
        }
        let long = try HuddleCommand.run(["version"])
        #expect(long.status == 0)
        let lines = long.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == line)
        for library in ["libuv ", "libpq ", "OpenSSL ", "libcurl ", "libvips "] {
            #expect(lines.contains { $0.hasPrefix(library) && $0.count > library.count }, "\(library): \(lines)")
        }
    }
}
