import Foundation
import GraphQL
import HuddlePostgres
import PostgresTestSupport
import Prolific
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// The durable scheduler with several server processes on one database:
/// rounds end exactly once whichever process takes them, followers hear of
/// each once, votes racing the close are counted or refused, and a process
/// killed mid-way leaves its work to another.
@Suite(.enabled(if: TestDatabase.available), .serialized, .hangGuard)
struct RoundEndAcrossServersTests {
    /// `count` projects by `owner`, each with a snippet by `writer` in its
    /// open round and followed by `followers`; returns the open rounds' ids.
    static func projects(_ count: Int, server: TestServer, owner: String, writer: String, followers: [String]) async throws -> [Int64] {
        var rounds: [Int64] = []
        for index in 0..<count {
            let project = try await ProlificFixtures.project(server, token: owner, title: "Story \(index)")
            _ = try await ProlificFixtures.snippet(server, token: writer, round: project.round, text: "Line of story \(index).")
            rounds.append(ProlificFixtures.rowID(project.round))
        }
        _ = try await server.sql(
            "INSERT INTO project_follows (project_id, user_id) SELECT p.id, f FROM projects p, unnest($1::bigint[]) AS f",
            [followers.map(ProlificFixtures.rowID)])
        return rounds
    }

    /// Makes `rounds` due at the next whole second but one, all at once.
    static func dueTogether(_ rounds: [Int64], server: TestServer) async throws {
        _ = try await server.sql(
            "UPDATE rounds SET ends_at = date_trunc('second', clock_timestamp()) + interval '2 seconds' WHERE id = ANY($1::bigint[])",
            [rounds])
        _ = try await server.sql(
            """
            UPDATE scheduled_jobs j SET due_at = r.ends_at FROM rounds r
            WHERE j.kind = 'prolific.round-end' AND j.subject_id = r.id AND r.id = ANY($1::bigint[])
            """, [rounds])
        _ = try await server.sql("SELECT pg_notify('huddle_scheduler', '0')")
    }

    static func ended(_ rounds: [Int64], server: TestServer) async throws -> Int {
        try await server.sql("SELECT count(*)::int FROM rounds WHERE id = ANY($1::bigint[]) AND completed_at IS NOT NULL", [rounds])[0]
            .decode(Int.self, at: 0)
    }

    static func waitUntilEnded(_ rounds: [Int64], server: TestServer, seconds: Int = 60) async throws {
        for _ in 0..<seconds * 20 {
            if try await ended(rounds, server: server) == rounds.count { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("only \(try await ended(rounds, server: server)) of \(rounds.count) rounds ended")
    }

    /// Each round ended once: one result per snippet, one next round per
    /// project, and every follower one ROUND_ENDED notice per round.
    static func expectEndedOnce(_ rounds: [Int64], followers: [String], server: TestServer) async throws {
        let counts = try await server.sql(
            """
            SELECT (SELECT count(*) FROM snippet_results WHERE round_id = ANY($1::bigint[]))::int,
                   (SELECT count(*) FROM rounds n JOIN rounds r ON r.project_id = n.project_id AND n.number = r.number + 1
                    WHERE r.id = ANY($1::bigint[]))::int,
                   (SELECT count(*) FROM scheduled_jobs WHERE kind = 'prolific.round-end' AND subject_id = ANY($1::bigint[]))::int
            """, [rounds])[0]
        #expect(try counts.decode(Int.self, at: 0) == rounds.count)
        #expect(try counts.decode(Int.self, at: 1) == rounds.count)
        #expect(try counts.decode(Int.self, at: 2) == 0)
        for follower in followers {
            let notices = try await server.sql(
                """
                SELECT count(*)::int, count(DISTINCT subject_id)::int FROM notifications
                WHERE user_id = $1 AND kind = 'ROUND_ENDED' AND subject_id = ANY($2::bigint[])
                """, [ProlificFixtures.rowID(follower), rounds])[0]
            #expect(try notices.decode(Int.self, at: 0) == rounds.count && notices.decode(Int.self, at: 1) == rounds.count)
        }
    }

    @Test func twoServersEndTwoHundredRoundsInOneSecondEachOnce() async throws {
        try await TestServer.withTwo(mounting: [Prolific.self]) { first, second in
            let users = try await first.makeUsers(4, prefix: "many")
            let followers = [users[2].id, users[3].id]
            let rounds = try await Self.projects(200, server: first, owner: users[0].token, writer: users[1].token, followers: followers)

            // A follower subscribed on each server, through the inbox.
            var clients: [WebSocketClient] = []
            for (server, follower) in [(first, users[2]), (second, users[3])] {
                let client = try subscriber(port: server.port, token: follower.token)
                client.send(
                    #"{"id":"1","type":"subscribe","payload":{"query":"subscription { roundEnded { round { id number isComplete } winner { text } nextRound { number } } }"}}"#
                )
                try await waitUntilListening(on: "huddle_user_\(ProlificFixtures.rowID(follower.id))", server: server)
                try await waitForSubscriptions(1, server: server)
                clients.append(client)
            }

            try await Self.dueTogether(rounds, server: first)
            try await Self.waitUntilEnded(rounds, server: first)
            try await Self.expectEndedOnce(rounds, followers: followers, server: first)
            let lateness = try await first.sql(
                "SELECT extract(epoch FROM max(completed_at - ends_at))::float8 FROM rounds WHERE id = ANY($1::bigint[])", [rounds])
            print("200 rounds due in the same second ended at most \(try lateness[0].decode(Double.self, at: 0)) s after endsAt")

            // Each subscriber got each round once, with its winner and the next round.
            for client in clients {
                var seen = Set<String>()
                for _ in 0..<rounds.count {
                    let message = try #require(client.next()?.text)
                    let event = JSON(try JSONReader().read(message))["payload"]["data"]["roundEnded"]
                    #expect(event["round"]["isComplete"] == .bool(true) && event["round"]["number"].int == 1, "\(message)")
                    #expect(event["winner"]["text"].string?.hasPrefix("Line of story") == true && event["nextRound"]["number"].int == 2)
                    seen.insert(event["round"]["id"].string ?? "")
                }
                #expect(seen.count == rounds.count)
            }
        }
    }

    @Test func aServerKilledMidwayLeavesItsRoundsToAnother() async throws {
        try await TestDatabase.withScratchDatabase { url in
            let first = try await TestServer.launch(databaseURL: url)
            let users = try await first.makeUsers(3, prefix: "killed")
            let followers = [users[2].id]
            let rounds = try await Self.projects(200, server: first, owner: users[0].token, writer: users[1].token, followers: followers)
            try await Self.dueTogether(rounds, server: first)
            // Once the first has ended some (and is likely inside more), it dies.
            var before = 0
            for _ in 0..<400 {
                before = try await Self.ended(rounds, server: first)
                if before >= 20 { break }
                try await Task.sleep(for: .milliseconds(5))
            }
            first.kill()
            let afterKill = try await Self.ended(rounds, server: first)
            print("the first server ended \(afterKill) of 200 rounds before SIGKILL")
            #expect(before >= 20 && afterKill < rounds.count, "killed too late to show anything: \(afterKill) ended")
            let second = try await TestServer.start(databaseURL: url, mounting: [Prolific.self])
            defer { second.stop() }
            try await Self.waitUntilEnded(rounds, server: second)
            try await Self.expectEndedOnce(rounds, followers: followers, server: second)
        }
    }

    @Test func votesRacingTheCloseAreCountedOrRefusedNeverLost() async throws {
        try await TestServer.with(mounting: [Prolific.self]) { server in
            let users = try await server.makeUsers(152, prefix: "race")
            let (owner, writer) = (users[0], users[1])
            let voters = Array(users[2...])
            let project = try await ProlificFixtures.project(server, token: owner.token, title: "Photo Finish")
            let snippet = try await ProlificFixtures.snippet(server, token: writer.token, round: project.round, text: "At the line.")

            // A hundred votes at once: every one counted.
            let first = Array(voters.prefix(100))
            let replies = try await withThrowingTaskGroup(of: JSON.self) { group in
                for voter in first {
                    group.addTask { try await server.graphql(ProlificFixtures.vote, ["id": snippet], token: voter.token) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(replies.allSatisfy { $0["errors"].isNull }, "\(replies.filter { !$0["errors"].isNull })")

            // Fifty more while the round closes: each is in the count or refused.
            let racing = try await withThrowingTaskGroup(of: JSON?.self) { group in
                group.addTask {
                    try await ProlificFixtures.endNow([project.round], server: server, wait: false)
                    return nil
                }
                // Spread over a while, so that the close falls among them.
                for (index, voter) in voters.suffix(50).enumerated() {
                    group.addTask {
                        try await Task.sleep(for: .milliseconds(3 * index))
                        return try await server.graphql(ProlificFixtures.vote, ["id": snippet], token: voter.token)
                    }
                }
                return try await group.reduce(into: [JSON]()) { if let reply = $1 { $0.append(reply) } }
            }
            try await Self.waitUntilEnded([ProlificFixtures.rowID(project.round)], server: server)
            let accepted = racing.filter { $0["errors"].isNull }.count
            let refused = racing.filter { $0.errorMessage == "This round has ended; its votes are counted." }.count
            #expect(accepted + refused == 50, "\(racing.filter { !$0["errors"].isNull && $0.errorCode != "BAD_USER_INPUT" })")
            print("of 50 votes racing the close, \(accepted) landed and \(refused) were refused")
            let counted = try await server.sql(
                "SELECT votes FROM snippet_results WHERE snippet_id = $1", [ProlificFixtures.rowID(snippet)])
            #expect(try counted[0].decode(Int.self, at: 0) == 100 + accepted)
            let stored = try await server.sql("SELECT count(*)::int FROM votes WHERE snippet_id = $1", [ProlificFixtures.rowID(snippet)])
            #expect(try stored[0].decode(Int.self, at: 0) == 100 + accepted)
            let notices = try await server.sql(
                "SELECT count(*)::int FROM notifications WHERE kind = 'SNIPPET_VOTED' AND user_id = $1", [ProlificFixtures.rowID(writer.id)]
            )
            #expect(try notices[0].decode(Int.self, at: 0) == 100 + accepted)
        }
    }
}
