import Foundation
import HuddlePostgres
import HuddleRuntime
import HuddleServer
import PostgresTestSupport
import ServerTestSupport
import Synchronization
import TestSupport
import Testing

/// A failover under a write load: DATABASE_URL names the primary and its
/// synchronous standby (libpq's multi-host form, read-write sessions
/// only); the primary dies, the standby is promoted, and the server goes
/// on against it without a restart. Every write it acknowledged is there.
@Suite(.enabled(if: TestDatabase.available), .serialized, .hangGuard)
struct FailoverTests {
    @Test func afterAPromotionTheServerWritesToTheNewPrimaryAndNoAcknowledgedWriteIsLost() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("huddle-failover-\(UUID().uuidString.prefix(8))").path
        let primary = try await offThePool { try PrivatePostgres(directory: directory + "/primary") }
        defer {
            try? primary.stop(immediately: true)
            try? FileManager.default.removeItem(atPath: directory)
        }
        let standby = try await offThePool { try PrivateStandby(of: primary, directory: directory + "/standby") }
        defer { try? standby.stop() }
        // Synchronous: a commit is acknowledged once the standby has it.
        _ = try await ReadReplicaTests.sql(primary.url, "ALTER SYSTEM SET synchronous_standby_names = '*'")
        _ = try await ReadReplicaTests.sql(primary.url, "SELECT pg_reload_conf()")
        try await ReadReplicaTests.eventually("the standby is synchronous") {
            try await ReadReplicaTests.sql(primary.url, "SELECT count(*)::int FROM pg_stat_replication WHERE sync_state = 'sync'")[0]
                .decode(Int.self, at: 0) == 1
        }
        let url =
            "host='\(primary.socketDirectory),\(standby.socketDirectory)' user=huddle dbname='huddle' target_session_attrs=read-write"
        let server = try await TestServer.start(databaseURL: url)
        defer { server.stop() }

        // Writers, each setting its own biography to 1, 2, 3, … in turn,
        // remembering the last the server acknowledged.
        let writers = 4
        var users: [(token: String, id: String)] = []
        for index in 0..<writers { users.append(try await server.signUp("failover_\(index)")) }
        let (tokens, ids) = (users.map(\.token), users.map(\.id))
        // A subscriber from before the failover, to hear of something after it.
        let listening = try subscriber(port: server.port, token: tokens[0])
        listening.send(#"{"id":"n","type":"subscribe","payload":{"query":"subscription { notificationReceived { message } }"}}"#)
        try await ReadReplicaTests.eventually("the subscription runs") { try await server.metric("huddle_active_subscriptions") == 1 }
        let acknowledged = Acknowledged(writers)
        let stop = Flag()
        let load = Task {
            await withTaskGroup(of: Void.self) { group in
                for (index, token) in tokens.enumerated() {
                    group.addTask {
                        var next = 1
                        while !stop.isSet {
                            let answer = try? await server.graphql(
                                "mutation($b: String) { updateProfile(input: {biography: $b}) { biography } }", ["b": "\(next)"],
                                token: token)
                            if answer?["data"]["updateProfile"]["biography"].string == "\(next)" {
                                acknowledged.set(index, next)
                                next += 1
                            } else {
                                // The outage: told so (503), tried again.
                                acknowledged.refused(answer?.errorCode ?? "no answer")
                                try? await Task.sleep(for: .milliseconds(20))
                            }
                        }
                    }
                }
            }
        }
        try await ReadReplicaTests.eventually("writes are acknowledged") { acknowledged.total > 20 }
        // The primary dies; the standby is promoted.
        try await offThePool { try primary.stop(immediately: true) }
        let atDeath = acknowledged.values
        try await offThePool { try standby.promote() }
        // Writes go on, on the new primary, without a restart.
        try await ReadReplicaTests.eventually("every writer writes again") {
            zip(acknowledged.values, atDeath).allSatisfy { $0 > $1 + 2 }
        }
        try await ReadReplicaTests.eventually("the listening connection is back") {
            try await server.metric("huddle_database_up") == 1
        }
        // The scheduler goes on too: a job due now on the new primary is done there.
        _ = try await ReadReplicaTests.sql(
            standby.url, "INSERT INTO scheduled_jobs (kind, subject_id, due_at) VALUES ('uploads.sweep', 424242, now())")
        _ = try await ReadReplicaTests.sql(standby.url, "SELECT pg_notify('huddle_scheduler', '0')")
        try await ReadReplicaTests.eventually("the scheduler runs a job on the new primary") {
            try await ReadReplicaTests.sql(standby.url, "SELECT count(*)::int FROM scheduled_jobs WHERE subject_id = 424242")[0]
                .decode(Int.self, at: 0) == 0
        }
        stop.set()
        await load.value
        // The subscription goes on: a friend request made now reaches it.
        try await ReadReplicaTests.eventually("a friend request is sent") {
            let sent = try await server.graphql(TestServer.sendFriendRequest, ["id": ids[0]], token: tokens[1])
            return sent["data"]["sendFriendRequest"]["id"].string != nil
        }
        let heard = listening.next()?.text ?? ""
        #expect(heard.hasPrefix(#"{"id":"n","type":"next","payload":{"data":{"notificationReceived":{"message":"#), "\(heard)")
        let last = acknowledged.values
        print(
            "failover: \(acknowledged.total) writes acknowledged, \(atDeath.reduce(0, +)) before the primary died; refused in the gap: \(acknowledged.refusals)"
        )
        // In the gap every refusal says the service is unavailable, nothing else.
        #expect(Set(acknowledged.refusals.keys).isSubset(of: ["SERVICE_UNAVAILABLE"]), "\(acknowledged.refusals)")
        // Each writer's last acknowledged value is what the new primary holds
        // (or the one after it, written but not yet acknowledged when the load stopped).
        let rows = try await ReadReplicaTests.sql(
            standby.url, "SELECT username, biography FROM users WHERE username LIKE 'failover\\_%' ORDER BY username")
        #expect(rows.count == writers)
        for (index, row) in rows.enumerated() {
            let held = Int(try row.decode(String?.self, at: 1) ?? "") ?? 0
            #expect(held == last[index] || held == last[index] + 1, "writer \(index): acknowledged \(last[index]), holds \(held)")
        }
    }
}

/// The writers' last acknowledged values.
private final class Acknowledged: Sendable {
    private let state: Mutex<[Int]>
    private let refusedCodes = Mutex<[String: Int]>([:])
    init(_ count: Int) { state = Mutex([Int](repeating: 0, count: count)) }
    func refused(_ code: String) { refusedCodes.withLock { $0[code, default: 0] += 1 } }
    var refusals: [String: Int] { refusedCodes.withLock { $0 } }
    func set(_ index: Int, _ value: Int) { state.withLock { $0[index] = value } }
    var values: [Int] { state.withLock { $0 } }
    var total: Int { values.reduce(0, +) }
}

private final class Flag: Sendable {
    private let state = Mutex(false)
    func set() { state.withLock { $0 = true } }
    var isSet: Bool { state.withLock { $0 } }
}
