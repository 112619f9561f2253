import Foundation
import Playmate
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// What an attacker (or a careless client) sends Playmate, answered with a
/// coded error.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct HostileInputTests {
    static let mySessions = "query($at: DateTime!) { mySessions(from: $at) { edges { node { id } } } }"

    /// Instants PostgreSQL cannot store, or that would come back as text the
    /// server's own scalar refuses, are refused on the way in; the ones at
    /// the edges of what it stores are not.
    @Test func instantsOutsideWhatIsStoredAreBadUserInput() async throws {
        try await TestServer.with(mounting: [Playmate.self]) { server in
            let me = try await server.makeUsers(1, prefix: "when")[0]
            for instant in ["0000-12-31T23:00:00Z", "0001-01-01T00:30:00+01:00", "9999-12-31T23:30:00-01:00", "10000-01-01T00:00:00Z"] {
                let reply = try await server.graphql(Self.mySessions, ["at": instant], token: me.token)
                #expect(reply.errorCode == "BAD_USER_INPUT", "\(instant): \(reply)")
            }
            for instant in ["0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z"] {
                let reply = try await server.graphql(Self.mySessions, ["at": instant], token: me.token)
                #expect(reply["errors"].isNull, "\(instant): \(reply)")
            }
        }
    }
}
