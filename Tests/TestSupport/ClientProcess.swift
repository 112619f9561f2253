import Foundation

/// A real client run as a child process (curl, a Python client from
/// Tests/clients): started, then awaited on a thread of its own
/// (`offThePool`), so that waiting for it holds none of the few threads the
/// tests' tasks share.
package final class ClientProcess: @unchecked Sendable {
    package struct Outcome: Sendable {
        package var status: Int32
        package var output: String
        package var errors: String
    }

    private let process = Subprocess()
    private let output = Pipe()
    private let errors = Pipe()

    /// Starts `executable` (found on PATH) with `arguments`.
    package init(_ executable: String, _ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    /// Starts a script of Tests/clients with python3.
    package static func python(_ script: String, _ arguments: [String]) throws -> ClientProcess {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../clients/" + script).standardizedFileURL.path
        return try ClientProcess("python3", [path] + arguments)
    }

    /// Waits for the client to end; what it wrote and its exit status.
    package func finished() async throws -> Outcome {
        try await offThePool { [self] in
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return Outcome(status: process.terminationStatus, output: text, errors: errorText)
        }
    }

    /// Runs a client to its end.
    package static func run(_ executable: String, _ arguments: [String]) async throws -> Outcome {
        try await ClientProcess(executable, arguments).finished()
    }
}
