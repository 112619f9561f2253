import Foundation
import Playmate
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Python's `gql` library, a client front-end teams use, against the server:
/// HTTP, and subscriptions over graphql-transport-ws and graphql-ws. The test
/// command installs it (scripts/install-dependencies).
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct PythonGQLTests {
    @Test func gqlQueriesAndSubscribesOverBothSubprotocols() async throws {
        try await TestServer.with(mounting: [Playmate.self]) { server in
            let users = try await server.makeUsers(2, prefix: "py")
            let outcome = try await ClientProcess.python("gql_client.py", ["\(server.port)", users[0].token, users[1].token, users[0].id])
                .finished()
            #expect(outcome.status == 0, "\(outcome.errors)")
            #expect(outcome.output == "http py0\ngraphql-transport-ws py1\ngraphql-ws py1\n")
        }
    }
}
