import Foundation
import HuddleCore
import HuddleServer
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// A process keeps the users of tokens it checked lately, so a client's
/// next requests cost no statement for its sign-in; a token revoked in any
/// way, on any process, stops working everywhere.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct TokenCacheTests {
    /// The statements `{ me { id } }` costs with `token`.
    func meStatements(_ server: TestServer, token: String) async throws -> Int {
        let before = try await server.statementCount()
        let reply = try await server.graphql("{ me { id } }", token: token)
        #expect(reply["data"]["me"]["id"].string != nil, "\(reply)")
        return try await server.statementCount() - before
    }

    /// Asks `{ me { id } }` until it is null (a NOTIFY takes a moment to
    /// arrive); whether it became null.
    func signedOut(_ server: TestServer, token: String) async throws -> Bool {
        for _ in 0..<100 {
            if try await server.graphql("{ me { id } }", token: token)["data"]["me"].isNull { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    @Test func aCheckedTokenCostsNoStatementUntilTheDatabaseRevokesIt() async throws {
        try await TestDatabase.withScratchDatabase { url in
            let server = try await TestServer.start(databaseURL: url) { $0.tokenCacheLifetime = .seconds(3600) }
            defer { server.stop() }
            let users = try await server.makeUsers(3, prefix: "cached")
            // The first request asks for the token and loads the user; the next only load the user.
            // A statement still finishing from the server's start can only add to a
            // count: the least of several is the requests' own.
            let firsts = [try await meStatements(server, token: users[0].token), try await meStatements(server, token: users[2].token)]
            #expect(firsts.min() == 2, "\(firsts)")
            var nexts: [Int] = []
            for _ in 0..<3 { nexts.append(try await meStatements(server, token: users[0].token)) }
            #expect(nexts.min() == 1, "\(nexts)")
            // An operator's SQL, not the API: the database tells the server.
            _ = try await server.sql(
                "DELETE FROM auth_tokens WHERE token_hash = $1", [Authentication.hash(users[0].token)])
            #expect(try await signedOut(server, token: users[0].token))
            // An expiry moved into the past counts as well.
            #expect(try await meStatements(server, token: users[1].token) >= 1)
            _ = try await server.sql(
                "UPDATE auth_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1",
                [Authentication.hash(users[1].token)])
            #expect(try await signedOut(server, token: users[1].token))
        }
    }

    @Test func loggingOutOnOneServerSignsOutOnEvery() async throws {
        try await TestServer.withTwo { first, second in
            let ana = try await first.signUp("ana")
            for server in [first, second] {
                _ = try await meStatements(server, token: ana.token)
                var counts: [Int] = []
                for _ in 0..<3 { counts.append(try await meStatements(server, token: ana.token)) }
                #expect(counts.min() == 1, "\(counts)")
            }
            #expect(try await first.graphql("mutation { logOut }", token: ana.token)["data"]["logOut"].bool == true)
            // The process that logged out forgets at once; the other when the NOTIFY comes.
            #expect(try await first.graphql("{ me { id } }", token: ana.token)["data"]["me"].isNull)
            #expect(try await signedOut(second, token: ana.token))
        }
    }

    /// Revocations sent while the LISTEN connection was down went unheard:
    /// what was learned before is not trusted after.
    @Test func aBrokenListenConnectionEmptiesTheCache() async throws {
        try await TestServer.with { server in
            let user = try await server.makeUsers(1, prefix: "listen")[0]
            _ = try await meStatements(server, token: user.token)
            var counts: [Int] = []
            for _ in 0..<3 { counts.append(try await meStatements(server, token: user.token)) }
            #expect(counts.min() == 1, "\(counts)")
            let listening = "FROM pg_stat_activity WHERE query LIKE 'LISTEN %' AND datname = current_database()"
            let killed = try await server.sql("SELECT pid, pg_terminate_backend(pid) \(listening)")
            #expect(killed.count == 1)
            let killedPID = try killed[0].decode(Int.self, at: 0)
            // The server learns of the kill from its socket, a moment later;
            // once it listens again on a new connection, it has noticed.
            var listensAgain = false
            for _ in 0..<100 where !listensAgain {
                try await Task.sleep(for: .milliseconds(50))
                listensAgain = try await server.sql("SELECT pid \(listening) AND pid <> $1", [killedPID]).count == 1
            }
            #expect(listensAgain)
            // What was learned on the old connection is not trusted: the server asks the database again.
            let afterReconnect = try await meStatements(server, token: user.token)
            #expect(afterReconnect == 2, "\(afterReconnect)")
            var cachedAgain = false
            for _ in 0..<100 where !cachedAgain {
                try await Task.sleep(for: .milliseconds(50))
                cachedAgain = try await meStatements(server, token: user.token) == 1
            }
            #expect(cachedAgain)
        }
    }

    @Test func withTheCacheOffEveryRequestAsks() async throws {
        try await TestDatabase.withScratchDatabase { url in
            let server = try await TestServer.start(databaseURL: url) { $0.tokenCacheLifetime = .zero }
            defer { server.stop() }
            let user = try await server.makeUsers(1, prefix: "uncached")[0]
            // The token and the user, every time; a statement still
            // finishing from the server's start can only add to a count.
            var counts: [Int] = []
            for _ in 0..<3 { counts.append(try await meStatements(server, token: user.token)) }
            #expect(counts.allSatisfy { $0 >= 2 } && counts.min() == 2, "\(counts)")
        }
    }
}
