import Foundation
import PostgresTestSupport
import Prolific
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// docs/prolific.md's vote weight on a fixed dataset, with the expected winner:
/// power is the voter's karma (at least 1), split over the snippets they
/// vote for in the round, and a quarter of it for a voter habitual for the
/// author. Without the habit rule the other snippet would win.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct VoteWeightTests {
    @Test func aHabitualVoterCountsForAQuarterAndASplitVoteForHalf() async throws {
        try await TestServer.with(mounting: [Prolific.self]) { server in
            let users = try await server.makeUsers(6, prefix: "weight")
            let (owner, ana, ben, habitual, fresh, split) = (users[0], users[1], users[2], users[3], users[4], users[5])
            // Karma from starting projects: habitual 10, fresh 5, split 5.
            for (user, count) in [(habitual, 2), (fresh, 1), (split, 1)] {
                for index in 0..<count { _ = try await ProlificFixtures.project(server, token: user.token, title: "Own \(index)") }
            }
            let story = try await ProlificFixtures.project(server, token: owner.token, title: "The Weighing")
            var round = story.round
            // Three finished rounds in which `habitual` voted for Ana every
            // time, and `fresh` once, for Ben.
            for number in 1...3 {
                let anas = try await ProlificFixtures.snippet(server, token: ana.token, round: round, text: "Ana, round \(number).")
                let bens = try await ProlificFixtures.snippet(server, token: ben.token, round: round, text: "Ben, round \(number).")
                try await ProlificFixtures.castVote(server, token: habitual.token, snippet: anas)
                if number == 1 { try await ProlificFixtures.castVote(server, token: fresh.token, snippet: bens) }
                try await ProlificFixtures.endNow([round], server: server)
                let next = try await server.graphql("query($id: ID!) { project(id: $id) { currentRound { id } } }", ["id": story.id])
                round = try #require(next["data"]["project"]["currentRound"]["id"].string)
            }
            let anas = try await ProlificFixtures.snippet(server, token: ana.token, round: round, text: "Ana again.")
            let bens = try await ProlificFixtures.snippet(server, token: ben.token, round: round, text: "Ben again.")
            try await ProlificFixtures.castVote(server, token: habitual.token, snippet: anas)
            try await ProlificFixtures.castVote(server, token: fresh.token, snippet: bens)
            try await ProlificFixtures.castVote(server, token: split.token, snippet: anas)
            try await ProlificFixtures.castVote(server, token: split.token, snippet: bens)

            // Karma now: habitual 10 + 4 rounds voted = 14; fresh 5 + 2 = 7; split 5 + 1 = 6.
            // Ana: 14 × 1/4 (habitual: 3 of 3 recent rounds for her) + 6 / 2 = 6.5.
            // Ben: 7 (fresh voted in 1 round only: not habitual) + 6 / 2 = 10.
            // Without the habit rule Ana would have 17.
            let live = try await server.graphql(
                "query($id: ID!) { round(id: $id) { snippets { text score voteCount } } }", ["id": round])
            #expect(
                live["data"]["round"]["snippets"]
                    == .array([
                        .object(["text": .string("Ben again."), "score": .number(10), "voteCount": .number(2)]),
                        .object(["text": .string("Ana again."), "score": .number(6.5), "voteCount": .number(2)]),
                    ]), "\(live)")
            try await ProlificFixtures.endNow([round], server: server)
            let ended = try await server.graphql("query($id: ID!) { round(id: $id) { winner { text score } } }", ["id": round])
            #expect(ended["data"]["round"]["winner"] == .object(["text": .string("Ben again."), "score": .number(10)]))
        }
    }
}
