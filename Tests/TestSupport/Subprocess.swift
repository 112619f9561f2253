import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A child process, started with posix_spawn: what the tests used
/// Foundation's `Process` for, with the same names.
///
/// Not `Process`: on Linux, Swift 6.3.1's `Process.run()` reads past the
/// end of a buffer while it lists /proc/self/fd, and crashes the test
/// process now and then once it has a thousand or so descriptors open, as
/// it has with servers running in it (swift-corelibs-foundation #5472).
/// The child here keeps only its standard input, output and error.
package final class Subprocess: @unchecked Sendable {
    package var executableURL: URL?
    package var arguments: [String] = []
    /// nil inherits the test's environment.
    package var environment: [String: String]?
    package var currentDirectoryURL: URL?
    /// Each a `Pipe` or a `FileHandle`; nil inherits the test's.
    package var standardInput: Any?
    package var standardOutput: Any?
    package var standardError: Any?

    package private(set) var processIdentifier: Int32 = 0
    /// The wait status, once the child has been reaped.
    private let status = Mutex<Int32?>(nil)

    package init() {}

    package func run() throws {
        guard let executableURL else { throw POSIXError(.ENOENT) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let streams: [(Any?, Int32, Bool)] = [(standardInput, 0, true), (standardOutput, 1, false), (standardError, 2, false)]
        for (stream, target, isInput) in streams {
            guard let descriptor = Self.descriptor(of: stream, reading: isInput) else { continue }
            // FileHandle.nullDevice has no descriptor of its own (-1).
            let added =
                descriptor >= 0
                ? posix_spawn_file_actions_adddup2(&actions, descriptor, target)
                : posix_spawn_file_actions_addopen(&actions, target, "/dev/null", isInput ? O_RDONLY : O_WRONLY, 0)
            guard added == 0 else { throw POSIXError(POSIXErrorCode(rawValue: added) ?? .EIO) }
        }
        // Everything else the test has open stays out of the child, closed
        // in the child itself, so that a pipe another test opens meanwhile
        // cannot slip through.
        guard let closeFrom = Self.closeFrom, closeFrom(&actions, 3) == 0 else { throw POSIXError(.ENOSYS) }
        // The folder by env -C, as posix_spawn has no portable chdir.
        var command = [executableURL.path] + arguments
        if let currentDirectoryURL { command = ["/usr/bin/env", "-C", currentDirectoryURL.path] + command }
        let environment = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        var argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, &argv, &envp)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        processIdentifier = pid
        // The child has its ends of the pipes; with the parent's closed, a
        // read of its output ends when it exits.
        for (stream, _, isInput) in streams {
            if let pipe = stream as? Pipe { try (isInput ? pipe.fileHandleForReading : pipe.fileHandleForWriting).close() }
        }
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later),
    /// which Swift's Glibc module does not declare.
    private static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(
            symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    private static func descriptor(of stream: Any?, reading: Bool) -> Int32? {
        switch stream {
        case let pipe as Pipe: (reading ? pipe.fileHandleForReading : pipe.fileHandleForWriting).fileDescriptor
        case let handle as FileHandle: handle.fileDescriptor
        default: nil
        }
    }

    /// Reaps the child if it has exited (without waiting when `waiting` is false).
    private func reap(waiting: Bool) {
        guard status.withLock({ $0 }) == nil, processIdentifier > 0 else { return }
        var value: Int32 = 0
        while true {
            let reaped = waitpid(processIdentifier, &value, waiting ? 0 : WNOHANG)
            if reaped == processIdentifier {
                status.withLock { $0 = value }
                return
            }
            if reaped < 0, errno == EINTR { continue }
            // 0: still running; ECHILD: another thread reaped it, and sets the status.
            return
        }
    }

    package var isRunning: Bool {
        reap(waiting: false)
        return processIdentifier > 0 && status.withLock { $0 } == nil
    }

    package func waitUntilExit() {
        reap(waiting: true)
        while status.withLock({ $0 }) == nil { usleep(1000) }
    }

    /// The exit status, or 128 and the signal's number when a signal ended it.
    package var terminationStatus: Int32 {
        let value = status.withLock { $0 } ?? 0
        return value & 0x7F == 0 ? (value >> 8) & 0xFF : 128 + (value & 0x7F)
    }

    /// Whether the child exited by itself (not by a signal).
    package var exitedNormally: Bool { (status.withLock { $0 } ?? 0) & 0x7F == 0 }

    /// SIGTERM.
    package func terminate() {
        if isRunning { kill(processIdentifier, SIGTERM) }
    }

    /// SIGKILL, then waits for it: a child of the test runner may start
    /// with SIGTERM blocked (and Python then never sees it), and nothing of
    /// a stand-in server matters once a test is done with it.
    package func killAndWait() {
        guard isRunning else { return }
        kill(processIdentifier, SIGKILL)
        waitUntilExit()
    }
}
