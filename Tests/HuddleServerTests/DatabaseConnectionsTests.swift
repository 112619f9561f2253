import Foundation
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// `--database-connections`: how many connections a process's workers
/// share, whatever the load.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct DatabaseConnectionsTests {
    /// The `huddle_database_connections` gauge.
    func openConnections(_ server: TestServer) async throws -> Int? {
        let metrics = try await server.get("/metrics")
        let line = metrics.split(separator: "\n").first { $0.hasPrefix("huddle_database_connections ") }
        return line.flatMap { Int($0.split(separator: " ")[1]) }
    }

    /// 60 requests at once, each with a statement of its own; all answered.
    func burst(_ server: TestServer, token: String) async throws {
        let answered = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<60 {
                group.addTask { try await server.graphql("{ me { username } }", token: token)["data"]["me"]["username"].string == "ana" }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(answered == 60)
    }

    /// The connections open after a burst on a server of `workers` allowed
    /// `connections` (tokens checked on every request). The burst's token
    /// checks wait on a lock the test holds until the server has opened
    /// what it will (its gauge stops growing, or reaches `connections`), so
    /// the statements overlap however fast or slow the machine is.
    func openAfterBurst(workers: Int, connections: Int) async throws -> Int {
        try await TestDatabase.withScratchDatabase { url in
            let server = try await TestServer.start(databaseURL: url, mounting: everyApp, workers: workers) { configuration in
                configuration.databaseConnections = connections
                configuration.tokenCacheLifetime = .zero
            }
            defer { server.stop() }
            let ana = try await server.signUp("ana")
            let burst: Task<Void, any Error>
            do {
                burst = try await TestDatabase.withPool(url: url) { pool, _ in
                    try await pool.withTransaction { connection in
                        _ = try await connection.query("LOCK TABLE auth_tokens IN ACCESS EXCLUSIVE MODE")
                        let running = Task { try await self.burst(server, token: ana.token) }
                        // Until every connection allowed is open, or none has opened for a while.
                        var (last, steady) = (-1, 0)
                        while steady < 200, last < connections {
                            try await Task.sleep(for: .milliseconds(50))
                            let open = try await openConnections(server) ?? 0
                            (last, steady) = open == last ? (last, steady + 1) : (open, 0)
                        }
                        return running
                    }
                }
            }
            try await burst.value
            return try #require(try await openConnections(server))
        }
    }

    @Test func twoWorkersWithTwoConnectionsOpenNoMore() async throws {
        let open = try await openAfterBurst(workers: 2, connections: 2)
        #expect((1...2).contains(open), "\(open) connections open")
    }

    @Test func aBurstOpensMoreWhenMoreAreAllowed() async throws {
        let open = try await openAfterBurst(workers: 1, connections: 6)
        #expect(open == 6, "\(open) connections open")
    }

    @Test func refusesFewerConnectionsThanWorkersAndTooMany() throws {
        #expect(try HuddleCommand.run(["serve", "--workers", "3", "--database-connections", "2"]).status == 2)
        #expect(try HuddleCommand.run(["serve", "--database-connections", "0"]).status == 2)
        #expect(try HuddleCommand.run(["serve", "--database-connections", "10001"]).status == 2)
    }
}
