import Foundation

/// Starts a script of Tests/clients as a service for a test (an SMTP server,
/// the push platforms' stand-ins, a proxy) and reads the one line it prints
/// once it listens (its port, or a JSON object); its standard error is
/// dropped. The caller stops it. Throws, with the process killed, when it
/// ends without printing a line.
package func startPythonService(_ script: String, _ arguments: [String], input: Pipe? = nil) throws -> (
    process: Subprocess, firstLine: String
) {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../clients/" + script).standardizedFileURL.path
    let process = Subprocess()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", path] + arguments
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    var line = Data()
    while !line.contains(0x0A) {
        let chunk = output.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        line.append(chunk)
    }
    let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard !text.isEmpty else {
        process.killAndWait()
        throw CocoaError(.fileReadCorruptFile)
    }
    return (process, text)
}
