import Foundation
import Testing

/// Python's `gql` library, a client front-end teams use, against the server:
/// HTTP, and subscriptions over graphql-transport-ws and graphql-ws. The test
/// command installs it (scripts/install-dependencies).
@Suite(.enabled(if: TestDatabase.available), .timeLimit(.minutes(2)))
struct PythonGQLTests {
    @Test func gqlQueriesAndSubscribesOverBothSubprotocols() async throws {
        try await TestServer.with { server in
            let users = try await server.makeUsers(2, prefix: "py")
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../clients/gql_client.py")
                .standardizedFileURL.path
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", script, "\(server.port)", users[0].token, users[1].token, users[0].id]
            let output = Pipe(), errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(errorText)")
            #expect(text == "http py0\ngraphql-transport-ws py1\ngraphql-ws py1\n")
        }
    }
}
