import Foundation
import HuddleCore
import HuddleRuntime
import PostgresTestSupport
import Prolific
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Rounds ending through the durable scheduler of a real `huddle serve`:
/// the weighted winner joins the story once, karma and notices follow, the
/// next round opens or the project completes, an empty round gets more
/// time, and a finished round takes nothing more.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct RoundEndTests {
    static let page = """
        query($id: ID!) {
          project(id: $id) {
            isComplete roundsCompleted viewerCanWrite story { text author { username } }
            currentRound { number }
            rounds { edges { node { number isComplete winner { text score voteCount isWinner } snippets { text score voteCount } } } }
          }
        }
        """

    @Test func theWeightedWinnerJoinsTheStoryOnceAndTheNextRoundOpens() async throws {
        try await TestServer.with(mounting: [Prolific.self]) { server in
            let users = try await server.makeUsers(6, prefix: "round")
            let (owner, ada, bo, heavy, light, follower) = (users[0], users[1], users[2], users[3], users[4], users[5])
            let project = try await ProlificFixtures.project(server, token: owner.token, title: "Harbour Lights")
            _ = try await server.graphql(
                "mutation($id: ID!) { followProject(projectId: $id) { id } }", ["id": project.id], token: follower.token)
            // Karma makes a vote weigh: two projects started give `heavy` 10.
            for title in ["One", "Two"] { _ = try await ProlificFixtures.project(server, token: heavy.token, title: title) }

            let adas = try await ProlificFixtures.snippet(server, token: ada.token, round: project.round, text: "The lamp blinked twice.")
            let bos = try await ProlificFixtures.snippet(server, token: bo.token, round: project.round, text: "Nobody answered.")
            try await ProlificFixtures.castVote(server, token: heavy.token, snippet: adas)
            try await ProlificFixtures.castVote(server, token: light.token, snippet: bos)
            try await ProlificFixtures.castVote(server, token: owner.token, snippet: bos)
            // heavy: 10 + 1 for voting = 11; light 1, owner 5 + 1 = 6.
            let live = try await server.graphql(Self.page, ["id": project.id])
            let ranked = live["data"]["project"]["rounds"]["edges"][0]["node"]["snippets"].array
            #expect(ranked.map { $0["score"].double } == [11, 7] && ranked.map { $0["voteCount"].int } == [1, 2], "\(live)")

            try await ProlificFixtures.endNow([project.round], server: server)
            let ended = try await server.graphql(Self.page, ["id": project.id])["data"]["project"]
            #expect(ended["roundsCompleted"].int == 1 && ended["isComplete"] == .bool(false) && ended["currentRound"]["number"].int == 2)
            #expect(
                ended["story"].array == [
                    .object(["text": .string("The lamp blinked twice."), "author": .object(["username": .string("round1")])])
                ])
            let first = ended["rounds"]["edges"][0]["node"]
            #expect(first["isComplete"] == .bool(true))
            #expect(
                first["winner"]
                    == .object([
                        "text": .string("The lamp blinked twice."), "score": .number(11), "voteCount": .number(1), "isWinner": .bool(true),
                    ]))
            #expect(ended["rounds"]["edges"].array.count == 2)

            // Karma: 2 for the snippet, 10 for the win; Big Hit Writer earned.
            let profile = try await server.graphql(
                "query($id: ID!) { user(id: $id) { karma badges { kind level progress } snippets { edges { node { text isWinner } } } } }",
                ["id": ada.id])["data"]["user"]
            #expect(profile["karma"].int == 12)
            #expect(profile["badges"][1] == .object(["kind": .string("BIG_HIT_WRITER"), "level": .number(1), "progress": .number(1)]))
            #expect(profile["snippets"]["edges"][0]["node"]["isWinner"] == .bool(true))

            // Notices: the winner, the writers, the owner and the follower.
            #expect(
                try await ProlificFixtures.notices(server, token: ada.token, kind: "SNIPPET_WON").map { $0["message"].string! }
                    == ["Your snippet won round 1 of \"Harbour Lights\"."])
            for user in [ada, bo, owner, follower] {
                let notices = try await ProlificFixtures.notices(server, token: user.token, kind: "ROUND_ENDED")
                #expect(notices.map { $0["subject"]["id"].string } == [project.round], "\(user)")
            }
            #expect(try await ProlificFixtures.notices(server, token: heavy.token, kind: "ROUND_ENDED").isEmpty)

            // A subscriber that was away catches up from its inbox: with
            // `after` (an earlier notice's id), the ended round comes first.
            let earlier = try await server.sql(
                "SELECT min(id) FROM notifications WHERE kind = 'SNIPPET_VOTED'")[0].decode(Int64.self, at: 0)
            let notice = Base64URL.encode("Notification:\(earlier)")
            let away = try subscriber(port: server.port, token: follower.token)
            away.send(
                #"{"id":"1","type":"subscribe","payload":{"query":"subscription($after: ID) { roundEnded(after: $after) { round { id } winner { text } nextRound { number } } }","variables":{"after":"\#(notice)"}}}"#
            )
            #expect(
                away.next()?.text
                    == #"{"id":"1","type":"next","payload":{"data":{"roundEnded":{"round":{"id":"\#(project.round)"},"winner":{"text":"The lamp blinked twice."},"nextRound":{"number":2}}}}}"#
            )

            // The count stays as counted, although the voters' karma moves on.
            _ = try await ProlificFixtures.project(server, token: light.token, title: "Three")
            let later = try await server.graphql(Self.page, ["id": project.id])["data"]["project"]["rounds"]["edges"][0]["node"]
            #expect(later["snippets"].array.map { $0["score"].double } == [11, 7])

            // A finished round takes no more snippets or votes, through the API or around it.
            let late = try await server.graphql(ProlificFixtures.vote, ["id": bos], token: heavy.token)
            #expect(late.errorCode == "BAD_USER_INPUT" && late.errorMessage == "This round has ended; its votes are counted.")
            let unvote = try await server.graphql(ProlificFixtures.unvote, ["id": bos], token: light.token)
            #expect(unvote.errorCode == "BAD_USER_INPUT")
            let write = try await server.graphql(
                ProlificFixtures.submit, ["round": project.round, "text": "Too late."], token: heavy.token)
            #expect(
                write.errorCode == "BAD_USER_INPUT" && write.errorMessage == "This round has ended; write in the project's current round.")
            let round = ProlificFixtures.rowID(project.round)
            await #expect(throws: (any Error).self) {
                _ = try await server.sql("UPDATE rounds SET ends_at = ends_at + interval '1 day' WHERE id = $1", [round])
            }
            await #expect(throws: (any Error).self) { _ = try await server.sql("DELETE FROM votes WHERE round_id = $1", [round]) }
            await #expect(throws: (any Error).self) {
                _ = try await server.sql("UPDATE snippets SET text = 'edited' WHERE round_id = $1", [round])
            }
            #expect(try await server.sql("SELECT count(*)::int FROM votes WHERE round_id = $1", [round])[0].decode(Int.self, at: 0) == 3)
            // Nothing is left scheduled for it; the new round's end is.
            let jobs = try await server.sql("SELECT subject_id FROM scheduled_jobs WHERE kind = 'prolific.round-end' ORDER BY subject_id")
            #expect(!jobs.map { try! $0.decode(Int64.self, at: 0) }.contains(round))
        }
    }

    @Test func aProjectsSubscriberHearsTheEndFromItsNotificationAlone() async throws {
        try await TestServer.with(mounting: [Prolific.self]) { server in
            let users = try await server.makeUsers(2, prefix: "heard")
            let project = try await ProlificFixtures.project(server, token: users[0].token, title: "Heard")
            _ = try await ProlificFixtures.snippet(server, token: users[1].token, round: project.round, text: "It rang.")
            let watcher = try subscriber(port: server.port, token: users[1].token)
            watcher.send(
                #"{"id":"1","type":"subscribe","payload":{"query":"subscription($id: ID) { roundEnded(projectId: $id) { round { id } winner { text } nextRound { number } } }","variables":{"id":"\#(project.id)"}}}"#
            )
            try await EventSourceSubscriptionTests.subscribed(server, 1)
            try await ProlificFixtures.endNow([project.round], server: server)
            let heard =
                #"{"id":"1","type":"next","payload":{"data":{"roundEnded":{"round":{"id":"\#(project.round)"},"winner":{"text":"It rang."},"nextRound":{"number":2}}}}}"#
            #expect(watcher.next()?.text == heard)
            // A server before this one named the round alone: the rest is
            // read back. A payload that is no round end is passed over.
            let channel = "huddle_project_\(ProlificFixtures.rowID(project.id))"
            _ = try await server.sql("SELECT pg_notify($1, 'not a round')", [channel])
            _ = try await server.sql("SELECT pg_notify($1, $2)", [channel, String(ProlificFixtures.rowID(project.round))])
            #expect(watcher.next()?.text == heard)
        }
    }

    @Test func anEmptyRoundGetsMoreTime() async throws {
        try await TestServer.with(mounting: [Prolific.self]) { server in
            let owner = try await server.makeUsers(1, prefix: "empty")[0]
            let project = try await ProlificFixtures.project(server, token: owner.token, extra: ["pace": "SPEED"])
            try await ProlificFixtures.endNow([project.round], server: server)
            let round = try await server.graphql(
                "query($id: ID!) { round(id: $id) { isComplete extensions endsAt } }", ["id": project.round])["data"]["round"]
            #expect(round["isComplete"] == .bool(false) && round["extensions"].int == 1)
            // The scheduler counts what it did (once its transaction committed, a moment after the database shows it).
            var metrics = ""
            for _ in 0..<100 {
                metrics = try await server.get("/metrics")
                if metrics.contains(#"huddle_scheduled_jobs_total{outcome="again"} 1"#) { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(metrics.contains(#"huddle_scheduled_jobs_total{outcome="again"} 1"#), "\(metrics)")
            #expect(metrics.contains(#"huddle_scheduled_jobs_total{outcome="done"} 0"#))
            #expect(metrics.contains(#"huddle_scheduled_jobs_total{outcome="failed"} 0"#))
            #expect(metrics.contains("huddle_scheduled_job_lateness_seconds_max "))
            let endsAt = try #require(round["endsAt"].string.flatMap { ISO8601DateFormatter.withFractions.date(from: $0) })
            // Ten minutes on from when it was due (a few seconds ago at most).
            #expect(endsAt.timeIntervalSinceNow > 9 * 60 && endsAt.timeIntervalSinceNow <= 10 * 60)
            let job = try await server.sql(
                "SELECT due_at = r.ends_at FROM scheduled_jobs j JOIN rounds r ON r.id = j.subject_id WHERE r.id = $1",
                [ProlificFixtures.rowID(project.round)])
            #expect(try job[0].decode(Bool.self, at: 0))
        }
    }

    /// Woken by NOTIFY, the scheduler looks once and sleeps again (a
    /// sleeper cut short once woke it again, and it looked thousands of
    /// times a second from then on).
    @Test func aWokenSchedulerSleepsAgain() async throws {
        try await TestServer.with(mounting: [Prolific.self]) { server in
            func looks() async throws -> Int {
                let metrics = try await server.get("/metrics")
                let line = try #require(metrics.split(separator: "\n").first { $0.hasPrefix("huddle_scheduler_looks_total ") })
                return try #require(Int(line.split(separator: " ")[1]))
            }
            // The scheduler's first look, at its start, may come after the
            // server answers: counted from before it, it would be a fourth.
            var before = try await looks()
            for _ in 0..<250 where before == 0 {
                try await Task.sleep(for: .milliseconds(20))
                before = try await looks()
            }
            let since = ContinuousClock.now
            for _ in 0..<3 { _ = try await server.sql("SELECT pg_notify('\(Scheduler.channel)', '0')") }
            var woken = before
            for _ in 0..<100 where woken == before {
                try await Task.sleep(for: .milliseconds(20))
                woken = try await looks()
            }
            #expect(woken > before)
            try await Task.sleep(for: .seconds(1))
            // Nothing is due for a day: no more looks than the wakes sent,
            // and those of the timer (every 30 s, in case a NOTIFY was lost)
            // that a loaded machine's slow test lasted through.
            let timerLooks = Int((ContinuousClock.now - since) / .seconds(30)) + 1
            #expect(try await looks() - before <= 3 + timerLooks)
        }
    }

    @Test func theRoundLimitOrAnEndingSnippetCompletesTheProject() async throws {
        try await TestServer.with(mounting: [Prolific.self]) { server in
            let users = try await server.makeUsers(3, prefix: "finish")
            let (owner, ada, bo) = (users[0], users[1], users[2])
            // One round only: its winner ends the story.
            let short = try await ProlificFixtures.project(server, token: owner.token, title: "Short", extra: ["roundLimit": 1])
            _ = try await ProlificFixtures.snippet(server, token: ada.token, round: short.round, text: "And that was that.")
            try await ProlificFixtures.endNow([short.round], server: server)
            let done = try await server.graphql(Self.page, ["id": short.id], token: ada.token)["data"]["project"]
            #expect(done["isComplete"] == .bool(true) && done["currentRound"].isNull && done["viewerCanWrite"] == .bool(false))
            #expect(done["roundsCompleted"].int == 1 && done["rounds"]["edges"].array.count == 1)
            #expect(
                try await ProlificFixtures.notices(server, token: ada.token, kind: "PROJECT_COMPLETED").map { $0["message"].string! }
                    == ["\"Short\" is complete."])

            // No limit: an ending snippet that wins ends it; one that loses does not.
            let open = try await ProlificFixtures.project(server, token: owner.token, title: "Open")
            let ending = try await ProlificFixtures.snippet(server, token: ada.token, round: open.round, text: "The end.", ending: true)
            let going = try await ProlificFixtures.snippet(server, token: bo.token, round: open.round, text: "It went on.")
            try await ProlificFixtures.castVote(server, token: owner.token, snippet: going)
            try await ProlificFixtures.endNow([open.round], server: server)
            let next = try await server.graphql(Self.page, ["id": open.id])["data"]["project"]
            #expect(next["isComplete"] == .bool(false) && next["currentRound"]["number"].int == 2)
            let round2 = try await server.graphql("query($id: ID!) { project(id: $id) { currentRound { id } } }", ["id": open.id])
            let second = round2["data"]["project"]["currentRound"]["id"].string!
            _ = ending
            let final = try await ProlificFixtures.snippet(server, token: ada.token, round: second, text: "The very end.", ending: true)
            try await ProlificFixtures.castVote(server, token: owner.token, snippet: final)
            try await ProlificFixtures.endNow([second], server: server)
            let closed = try await server.graphql(Self.page, ["id": open.id])["data"]["project"]
            #expect(closed["isComplete"] == .bool(true))
            #expect(closed["story"].array.map { $0["text"].string! } == ["It went on.", "The very end."])
        }
    }

    @Test func aTieGoesToMoreVotersThenTheEarlierSnippet() async throws {
        try await TestServer.with(mounting: [Prolific.self]) { server in
            let users = try await server.makeUsers(4, prefix: "tie")
            let project = try await ProlificFixtures.project(server, token: users[0].token)
            let first = try await ProlificFixtures.snippet(server, token: users[1].token, round: project.round, text: "First.")
            let second = try await ProlificFixtures.snippet(server, token: users[2].token, round: project.round, text: "Second.")
            // users[3] alone votes for both: 1 karma split two ways, 0.5 each, one voter each.
            try await ProlificFixtures.castVote(server, token: users[3].token, snippet: second)
            try await ProlificFixtures.castVote(server, token: users[3].token, snippet: first)
            try await ProlificFixtures.endNow([project.round], server: server)
            let round = try await server.graphql(
                "query($id: ID!) { round(id: $id) { winner { text score voteCount } } }", ["id": project.round])
            #expect(
                round["data"]["round"]["winner"] == .object(["text": .string("First."), "score": .number(0.5), "voteCount": .number(1)]))
        }
    }
}
