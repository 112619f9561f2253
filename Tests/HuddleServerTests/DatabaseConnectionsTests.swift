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

    /// The connections open after three bursts on a server of `workers`
    /// allowed `connections` (tokens checked on every request).
    func openAfterBursts(workers: Int, connections: Int) async throws -> Int {
        try await TestDatabase.withScratchDatabase { url in
            let server = try await TestServer.start(databaseURL: url, mounting: everyApp, workers: workers) { configuration in
                configuration.databaseConnections = connections
                configuration.tokenCacheLifetime = .zero
            }
            defer { server.stop() }
            let ana = try await server.signUp("ana")
            for _ in 0..<3 { try await burst(server, token: ana.token) }
            return try #require(try await openConnections(server))
        }
    }

    @Test func twoWorkersWithTwoConnectionsOpenNoMore() async throws {
        let open = try await openAfterBursts(workers: 2, connections: 2)
        #expect((1...2).contains(open), "\(open) connections open")
    }

    @Test func aBurstOpensMoreWhenMoreAreAllowed() async throws {
        let open = try await openAfterBursts(workers: 1, connections: 6)
        #expect((3...6).contains(open), "\(open) connections open")
    }

    @Test func refusesFewerConnectionsThanWorkersAndTooMany() throws {
        #expect(try HuddleCommand.run(["serve", "--workers", "3", "--database-connections", "2"]).status == 2)
        #expect(try HuddleCommand.run(["serve", "--database-connections", "0"]).status == 2)
        #expect(try HuddleCommand.run(["serve", "--database-connections", "10001"]).status == 2)
    }
}
