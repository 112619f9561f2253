import Foundation
import HuddleCore
import PostgresTestSupport
import Prolific
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// What an attacker (or a careless client) sends Prolific, answered with a
/// coded error and nothing written.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct HostileInputTests {
    /// PostgreSQL's text cannot hold U+0000 and libpq would cut the value
    /// there: a snippet with one is refused, never stored cut short.
    @Test func aSnippetWithANulCharacterIsRefusedNeverCutShort() async throws {
        try await TestServer.with(mounting: [Prolific.self]) { server in
            let ana = try await server.makeUsers(1, prefix: "nul")[0]
            let project = try await ProlificFixtures.project(server, token: ana.token)
            let snippet = try await server.graphql(
                ProlificFixtures.submit, ["round": project.round, "text": "kept\u{0}lost and more"], token: ana.token)
            #expect(snippet.errorCode == "BAD_USER_INPUT", "\(snippet)")
            #expect(snippet.errorMessage == APIError.nulCharacterMessage)
            #expect(try await server.sql("SELECT count(*)::int FROM snippets")[0].decode(Int.self, at: 0) == 0)
        }
    }
}
