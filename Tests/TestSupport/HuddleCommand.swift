import Foundation

/// Runs the built `huddle` executable, as a user would.
package struct HuddleCommand {
    package struct Outcome {
        package var status: Int32
        package var standardOutput: String
        package var standardError: String
    }

    /// The `huddle` binary beside the test bundle in the build folder.
    package static let executable: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // On Linux the runner is `<build>/HuddlePackageTests.xctest`; elsewhere it may sit deeper.
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("huddle")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        fatalError("huddle executable not found near \(CommandLine.arguments[0])")
    }()

    /// Runs huddle with `arguments`; `environment` entries are added to the
    /// test's own environment.
    package static func run(
        _ arguments: [String], input: String? = nil, environment: [String: String] = [:], in folder: URL? = nil
    ) throws -> Outcome {
        try run(executable, arguments, input: input, environment: environment, in: folder)
    }

    /// Runs another program of the machine's (`git`, say), found on the PATH, the same way.
    package static func runTool(_ name: String, _ arguments: [String]) throws -> Outcome {
        try run(URL(fileURLWithPath: "/usr/bin/env"), [name] + arguments)
    }

    private static func run(
        _ executable: URL, _ arguments: [String], input: String? = nil, environment: [String: String] = [:], in folder: URL? = nil
    ) throws -> Outcome {
        let process = Subprocess()
        process.executableURL = executable
        if let folder { process.currentDirectoryURL = folder }
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        // Read both pipes before waiting, so a large output cannot block the child.
        let outputData = stdout.fileHandleForReading.readDataToEndOfFile()
        let errorData = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self)
        )
    }
}
