import Foundation
import Testing

/// Python's `gql`, as a front-end team's client, subscribed to one
/// project's `roundEnded` over graphql-transport-ws and graphql-ws while
/// the round ends.
@Suite(.enabled(if: TestDatabase.available), .timeLimit(.minutes(2)))
struct ProlificPythonClientTests {
    @Test func gqlHearsARoundEndOverBothSubprotocols() async throws {
        try await TestServer.with { server in
            let users = try await server.makeUsers(2, prefix: "pyro")
            let project = try await ProlificFixtures.project(server, token: users[0].token, title: "By the Sea")
            _ = try await ProlificFixtures.snippet(server, token: users[1].token, round: project.round, text: "Gulls, and then silence.")
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../clients/prolific_client.py").standardizedFileURL.path
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", script, "\(server.port)", users[0].token, project.id]
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            try await LiveNotificationTests.waitForSubscriptions(2, server: server)
            try await ProlificFixtures.endNow([project.round], server: server)
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(errorText)")
            let line = "1 \"Gulls, and then silence.\" by pyro1, next 2"
            #expect(text == "graphql-transport-ws \(line)\ngraphql-ws \(line)\n")
        }
    }
}
