import Foundation
import HuddlePostgres
import HuddleRuntime
import HuddleServer
import PostgresTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Queries read from a real streaming standby (`pg_basebackup -R` of a
/// private primary), mutations write to the primary, and a user reads
/// their own writes even from a standby whose replay is paused.
@Suite(.enabled(if: TestDatabase.available), .serialized, .hangGuard)
struct ReadReplicaTests {
    /// A primary, its standby, and servers reading from the standby.
    struct Deployment {
        let primary: PrivatePostgres
        let standby: PrivateStandby
        let server: TestServer
        /// Another process's server, when asked for.
        let other: TestServer?
    }

    /// `maxLag` long by default: a standby paused for a test stays in
    /// rotation however slowly a loaded machine runs the test's steps.
    static func withDeployment(
        maxLag: Duration = .seconds(3600), replicaWait: Duration = .zero, servers: Int = 1, _ body: (Deployment) async throws -> Void
    ) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("huddle-replica-\(UUID().uuidString.prefix(8))").path
        let primary = try await offThePool { try PrivatePostgres(directory: directory + "/primary") }
        defer {
            try? primary.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
        let standby = try await offThePool { try PrivateStandby(of: primary, directory: directory + "/standby") }
        defer { try? standby.stop() }
        func start() async throws -> TestServer {
            try await TestServer.start(databaseURL: primary.url) {
                $0.replicas = [PostgresConfiguration(url: standby.url)]
                $0.replicaMonitoring.pollInterval = .milliseconds(20)
                $0.replicaMonitoring.maxLag = maxLag
                $0.replicaWait = replicaWait
            }
        }
        let server = try await start()
        defer { server.stop() }
        let other = servers > 1 ? try await start() : nil
        defer { other?.stop() }
        try await body(Deployment(primary: primary, standby: standby, server: server, other: other))
    }

    /// A labelled family's first sample, by the family's name.
    static func sample(_ server: TestServer, _ family: String) async throws -> Double? {
        let line = try await server.get("/metrics").split(separator: "\n").first { $0.hasPrefix(family + "{") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    static func replicaStatements(_ server: TestServer) async throws -> Int {
        Int(try await sample(server, "huddle_database_replica_statements_total") ?? -1)
    }

    /// Waits (a minute at most, for a loaded machine) until `condition` holds.
    static func eventually(_ what: String, _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while try await !condition() {
            try #require(ContinuousClock.now < deadline, "never: \(what)")
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    static func sql(_ url: String, _ statement: String) async throws -> PostgresRows {
        try await EventLoop.withOwnThread { loop in
            let pool = PostgresPool(TestDatabase.configuration(url: url), on: loop)
            do {
                let rows = try await pool.query(statement, [])
                await pool.close()
                return rows
            } catch {
                await pool.close()
                throw error
            }
        }
    }

    static let me = "{ me { username biography } }"

    @Test func queriesReadFromTheStandbyAndUsersReadTheirOwnWrites() async throws {
        try await Self.withDeployment { deployment in
            let server = deployment.server
            try await Self.eventually("the standby is in rotation") {
                try await Self.sample(server, "huddle_database_replica_in_rotation") == 1
            }
            #expect(try await server.get("/readyz").hasPrefix("ready\nreplica 1: in rotation, lag "))
            let (ada, _) = try await server.signUp("replica_ada")
            let (bo, _) = try await server.signUp("replica_bo")
            // Every answer is right; once the standby has replayed the sign-ups, they come from it.
            for token in [ada, bo] {
                try await Self.eventually("a query is read from the standby") {
                    let before = try await Self.replicaStatements(server)
                    let answer = try await server.graphql(Self.me, token: token)
                    #expect(answer["data"]["me"]["username"].string?.hasPrefix("replica_") == true, "\(answer)")
                    return try await Self.replicaStatements(server) > before
                }
            }

            // The standby stops replaying: ada's write is not on it.
            try await Self.pauseReplay(deployment.standby)
            let update = try await server.graphql(
                #"mutation { updateProfile(input: {biography: "written while the standby waits"}) { biography } }"#, token: ada)
            #expect(update["data"]["updateProfile"]["biography"].string == "written while the standby waits", "\(update)")
            let readAfter = try #require(update["extensions"]["readAfter"].string)
            #expect(WALPosition(readAfter) != nil)

            // Ada reads it, from the primary: the standby has not replayed it.
            let before = try await Self.replicaStatements(server)
            let own = try await server.graphql(Self.me, token: ada)
            #expect(own["data"]["me"]["biography"].string == "written while the standby waits", "\(own)")
            #expect(try await Self.replicaStatements(server) == before)
            // Bo wrote nothing since: his reads stay on the standby.
            let other = try await server.graphql(Self.me, token: bo)
            #expect(other["data"]["me"]["username"].string == "replica_bo")
            #expect(try await Self.replicaStatements(server) > before)
            // An anonymous client that echoes the position is served as fresh.
            let echoed = try await Self.replicaStatements(server)
            let anonymous = try await server.graphql(
                #"{ userByUsername(username: "replica_ada") { biography } }"#, headers: ["Huddle-Read-After": readAfter])
            #expect(anonymous["data"]["userByUsername"]["biography"].string == "written while the standby waits", "\(anonymous)")
            #expect(try await Self.replicaStatements(server) == echoed)

            // Over a WebSocket too: the mutation's position, then the query from the primary.
            let socket = try subscriber(port: server.port, token: ada)
            socket.send(
                #"{"id":"1","type":"subscribe","payload":{"query":"mutation { updateProfile(input: {biography: \"and again\"}) { biography } }"}}"#
            )
            let next = socket.next()?.text ?? ""
            #expect(next.contains(#""biography":"and again""#) && next.contains(#""extensions":{"readAfter":""#), "\(next)")
            #expect(socket.next()?.text == #"{"id":"1","type":"complete"}"#)
            socket.send(#"{"id":"2","type":"subscribe","payload":{"query":"{ me { biography } }"}}"#)
            #expect(socket.next()?.text == #"{"id":"2","type":"next","payload":{"data":{"me":{"biography":"and again"}}}}"#)

            // Replay resumes: ada's reads go back to the standby, and see her write there.
            _ = try await Self.sql(deployment.standby.url, "SELECT pg_wal_replay_resume()")
            try await Self.eventually("ada reads from the standby again") {
                let before = try await Self.replicaStatements(server)
                let answer = try await server.graphql(Self.me, token: ada)
                #expect(answer["data"]["me"]["biography"].string == "and again", "\(answer)")
                return try await Self.replicaStatements(server) > before
            }
        }
    }

    /// Pauses the standby's replay, and waits until it is paused.
    static func pauseReplay(_ standby: PrivateStandby) async throws {
        _ = try await sql(standby.url, "SELECT pg_wal_replay_pause()")
        try await eventually("replay is paused") {
            try await sql(standby.url, "SELECT pg_get_wal_replay_pause_state()")[0].decode(String.self, at: 0) == "paused"
        }
    }

    @Test func anotherProcessLearnsOfTheWriteAndReadsItFromThePrimary() async throws {
        try await Self.withDeployment(servers: 2) { deployment in
            let (writer, reader) = (deployment.server, try #require(deployment.other))
            for server in [writer, reader] {
                try await Self.eventually("the standby is in rotation") {
                    try await Self.sample(server, "huddle_database_replica_in_rotation") == 1
                }
            }
            let (token, _) = try await writer.signUp("replica_ed")
            try await Self.eventually("the other process hears of the sign-up") {
                try await reader.metric("huddle_write_notices_total") == 1
            }
            try await Self.pauseReplay(deployment.standby)
            let update = try await writer.graphql(
                #"mutation { updateProfile(input: {biography: "written on one, read on the other"}) { biography } }"#, token: token)
            #expect(update["data"]["updateProfile"]["biography"].string == "written on one, read on the other", "\(update)")
            // The other process is told of the write before it reads: its second notice.
            try await Self.eventually("the other process hears of the write") { try await reader.metric("huddle_write_notices_total") == 2 }
            let before = try await Self.replicaStatements(reader)
            let read = try await reader.graphql(Self.me, token: token)
            #expect(read["data"]["me"]["biography"].string == "written on one, read on the other", "\(read)")
            #expect(try await Self.replicaStatements(reader) == before)
            _ = try await Self.sql(deployment.standby.url, "SELECT pg_wal_replay_resume()")
        }
    }

    @Test func withAWaitAReadAfterAWriteWaitsForTheStandby() async throws {
        // Long enough for any machine: the standby is let go well within it.
        try await Self.withDeployment(replicaWait: .seconds(10)) { deployment in
            let server = deployment.server
            try await Self.eventually("the standby is in rotation") {
                try await Self.sample(server, "huddle_database_replica_in_rotation") == 1
            }
            let (token, _) = try await server.signUp("replica_fy")
            try await Self.pauseReplay(deployment.standby)
            _ = try await server.graphql(#"mutation { updateProfile(input: {biography: "waited for"}) { id } }"#, token: token)
            let before = try await Self.replicaStatements(server)
            let read = Task { try await server.graphql(Self.me, token: token) }
            try await Task.sleep(for: .milliseconds(300))
            _ = try await Self.sql(deployment.standby.url, "SELECT pg_wal_replay_resume()")
            let answer = try await read.value
            #expect(answer["data"]["me"]["biography"].string == "waited for", "\(answer)")
            // Read from the standby once it replayed the write, not from the primary.
            #expect(try await Self.replicaStatements(server) > before)
        }
    }

    @Test func aStandbyFallenBehindLeavesTheRotationUntilItCatchesUp() async throws {
        try await Self.withDeployment(maxLag: .milliseconds(300)) { deployment in
            let server = deployment.server
            try await Self.eventually("the standby is in rotation") {
                try await Self.sample(server, "huddle_database_replica_in_rotation") == 1
            }
            _ = try await Self.sql(deployment.standby.url, "SELECT pg_wal_replay_pause()")
            // A write the standby does not replay: it falls behind, by the primary's clock.
            let (token, _) = try await server.signUp("replica_di")
            try await Self.eventually("the standby is out, up but behind") {
                let up = try await Self.sample(server, "huddle_database_replica_up")
                let inRotation = try await Self.sample(server, "huddle_database_replica_in_rotation")
                let lag = try await Self.sample(server, "huddle_database_replica_lag_seconds") ?? 0
                return up == 1 && inRotation == 0 && lag > 0.3
            }
            #expect(try await server.get("/readyz").hasPrefix("ready\nreplica 1: out of rotation, lag "))
            let before = try await Self.replicaStatements(server)
            _ = try await server.graphql("{ __typename userByUsername(username: \"nobody\") { id } }")
            #expect(try await Self.replicaStatements(server) == before)
            _ = try await Self.sql(deployment.standby.url, "SELECT pg_wal_replay_resume()")
            try await Self.eventually("the standby caught up") {
                try await Self.sample(server, "huddle_database_replica_in_rotation") == 1
            }
            try await Self.eventually("di reads from the standby") {
                let before = try await Self.replicaStatements(server)
                let answer = try await server.graphql(Self.me, token: token)
                #expect(answer["data"]["me"]["username"].string == "replica_di", "\(answer)")
                return try await Self.replicaStatements(server) > before
            }
        }
    }

    @Test func aStandbyThatStopsLeavesTheRotationUntilItIsBack() async throws {
        try await Self.withDeployment { deployment in
            let server = deployment.server
            try await Self.eventually("the standby is in rotation") {
                try await Self.sample(server, "huddle_database_replica_in_rotation") == 1
            }
            let (token, _) = try await server.signUp("replica_cy")
            try await offThePool { try deployment.standby.stop() }
            try await Self.eventually("the standby is down") {
                let up = try await Self.sample(server, "huddle_database_replica_up")
                let inRotation = try await Self.sample(server, "huddle_database_replica_in_rotation")
                return up == 0 && inRotation == 0
            }
            #expect(try await server.get("/readyz") == "ready\nreplica 1: down\n")
            // Reads go to the primary meanwhile.
            let answer = try await server.graphql(Self.me, token: token)
            #expect(answer["data"]["me"]["username"].string == "replica_cy", "\(answer)")
            try await offThePool { try deployment.standby.start() }
            try await Self.eventually("the standby is back, caught up") {
                let inRotation = try await Self.sample(server, "huddle_database_replica_in_rotation")
                let lag = try await Self.sample(server, "huddle_database_replica_lag_seconds")
                return inRotation == 1 && lag == 0
            }
            try await Self.eventually("a query is read from the standby") {
                let before = try await Self.replicaStatements(server)
                _ = try await server.graphql(Self.me, token: token)
                return try await Self.replicaStatements(server) > before
            }
        }
    }
}
