import Foundation

#if canImport(Glibc)
    import Glibc
    import HuddleRuntime
#endif

/// Runs a program to completion and collects its output.
///
/// Not Foundation's `Process`: on Linux it learns of a child's exit through
/// a descriptor the child inherits, so when the child leaves a daemon
/// behind (`pg_ctl start` leaves the server) it waits as long as the
/// daemon lives. Here the child keeps only standard input, output and error.
enum ChildProcess {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later),
    /// which Swift's Glibc module does not declare.
    private static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(
            symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// Runs `arguments[0]` (looked up on PATH) from `/`, with standard input
    /// from /dev/null and standard output and error into one text.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("huddle-\(UUID().uuidString).out").path
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Descriptors not marked close-on-exec would outlive the child in
        // whatever it leaves running (a lock held by the server `pg_ctl
        // start` leaves, for ever): every one from 3 up, however many the
        // process has open.
        // Closed in the child itself, so that one another thread opens
        // meanwhile cannot slip through.
        guard let closeFrom = Self.closeFrom, closeFrom(&actions, 3) == 0 else {
            throw Failure(description: "cannot run \(arguments[0]): posix_spawn_file_actions_addclosefrom_np is missing")
        }
        // From / (env -C), so that an unprivileged user never needs the caller's directory.
        let command = ["env", "-C", "/"] + arguments
        var argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, command[0], &actions, nil, &argv, environ)
        guard spawned == 0 else {
            throw Failure(description: "cannot run \(arguments[0]): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw Failure(description: "waitpid: \(String(cString: strerror(errno)))") }
        }
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // WIFEXITED / WEXITSTATUS, which Swift does not import as macros.
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (exitStatus, output)
    }
}
