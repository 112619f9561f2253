import Foundation
import PostgresTestSupport
import Prolific
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Python's `gql`, as a front-end team's client, subscribed to one
/// project's `roundEnded` over graphql-transport-ws and graphql-ws while
/// the round ends.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct ProlificPythonClientTests {
    @Test func gqlHearsARoundEndOverBothSubprotocols() async throws {
        try await TestServer.with(mounting: [Prolific.self]) { server in
            let users = try await server.makeUsers(2, prefix: "pyro")
            let project = try await ProlificFixtures.project(server, token: users[0].token, title: "By the Sea")
            _ = try await ProlificFixtures.snippet(server, token: users[1].token, round: project.round, text: "Gulls, and then silence.")
            let client = try ClientProcess.python("prolific_client.py", ["\(server.port)", users[0].token, project.id])
            try await waitForSubscriptions(2, server: server)
            try await ProlificFixtures.endNow([project.round], server: server)
            let outcome = try await client.finished()
            #expect(outcome.status == 0, "\(outcome.errors)")
            let line = "1 \"Gulls, and then silence.\" by pyro1, next 2"
            #expect(outcome.output == "graphql-transport-ws \(line)\ngraphql-ws \(line)\n")
        }
    }
}
