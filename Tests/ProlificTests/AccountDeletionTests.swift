import Foundation
import PostgresTestSupport
import Prolific
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Deleting an account in Prolific: the stories stay. A deleted writer's
/// snippets keep their place, their author the shared "deleted user"; the
/// votes of finished rounds stay, those in a round still open go; a project
/// outlives its owner, and rounds still end.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct AccountDeletionTests {
    typealias F = ProlificFixtures
    static let delete = "mutation { deleteAccount(password: \"correct horse battery\") }"
    static let page = """
        query($id: ID!) { node(id: $id) { ... on Project {
          owner { id username firstName email biography profileImageUrl }
          story { text author { username } }
          currentRound { number snippets { text voteCount author { username } } } } } }
        """

    @Test func theStoriesStayWithTheDeletedUserAsAuthor() async throws {
        try await TestServer.with(mounting: [Prolific.self]) { server in
            let ana = try await server.signUp("ana")
            let bob = try await server.signUp("bob")
            let carl = try await server.signUp("carl")
            let project = try await F.project(server, token: ana.token)
            let bobs = try await F.snippet(server, token: bob.token, round: project.round, text: "Bob's line.")
            _ = try await F.snippet(server, token: carl.token, round: project.round, text: "Carl's line.")
            try await F.castVote(server, token: ana.token, snippet: bobs)
            try await F.castVote(server, token: carl.token, snippet: bobs)
            try await F.endNow([project.round], server: server)
            let second = try #require(
                try await server.graphql(Self.page, ["id": project.id], token: ana.token)["data"]["node"]["currentRound"]["number"].int)
            #expect(second == 2)
            let round2 = try #require(
                try await server.sql("SELECT id FROM rounds WHERE number = 2").first.map { "Round:\(try $0.decode(Int64.self, at: 0))" })
            let round2ID = Data(round2.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
            let bobs2 = try await F.snippet(server, token: bob.token, round: round2ID, text: "Bob again.")
            try await F.castVote(server, token: carl.token, snippet: bobs2)

            // Carl goes: his finished round's vote stays, his open round's goes; his snippet stays.
            #expect(try await server.graphql(Self.delete, token: carl.token)["data"]["deleteAccount"].bool == true)
            #expect(try await server.sql("SELECT count(*)::int FROM votes WHERE voter_id IS NULL")[0].decode(Int.self, at: 0) == 1)
            var page = try await server.graphql(Self.page, ["id": project.id], token: ana.token)
            #expect(page["data"]["node"]["currentRound"]["snippets"][0]["voteCount"].int == 0, "\(page)")
            #expect(try await server.sql("SELECT count(*)::int FROM snippets WHERE author_id IS NULL")[0].decode(Int.self, at: 0) == 1)

            // Bob, the first round's winner, goes: his lines stay, by the deleted user.
            #expect(try await server.graphql(Self.delete, token: bob.token)["data"]["deleteAccount"].bool == true)
            page = try await server.graphql(Self.page, ["id": project.id], token: ana.token)
            #expect(page["data"]["node"]["story"].array.map { $0["text"].string } == ["Bob's line."], "\(page)")
            #expect(page["data"]["node"]["story"][0]["author"]["username"].string == "deleted")
            #expect(page["data"]["node"]["currentRound"]["snippets"][0]["author"]["username"].string == "deleted")
            // Nor is he in the histories of those who voted for him (round 1's voters, Ana's among them).
            #expect(
                try await server.sql("SELECT count(*)::int FROM voter_rounds WHERE authors @> ARRAY[$1::bigint]", [F.rowID(bob.id)])[0]
                    .decode(Int.self, at: 0) == 0)
            #expect(try await server.sql("SELECT count(*)::int FROM voter_rounds")[0].decode(Int.self, at: 0) == 1)

            // Ana, the owner, goes: the project stays, its owner the placeholder with no personal fields.
            #expect(try await server.graphql(Self.delete, token: ana.token)["data"]["deleteAccount"].bool == true)
            let dave = try await server.signUp("dave")
            page = try await server.graphql(Self.page, ["id": project.id], token: dave.token)
            let owner = page["data"]["node"]["owner"]
            #expect(owner["username"].string == "deleted" && owner["firstName"].string == "Deleted", "\(page)")
            #expect(owner["email"].isNull && owner["biography"].string == "" && owner["profileImageUrl"].isNull)
            #expect(owner["id"].string == Data("User:0".utf8).base64EncodedString().replacingOccurrences(of: "=", with: ""))
            // The round with only a deleted writer's snippet still ends, its winner nobody's to tell.
            try await F.endNow([round2ID], server: server)
            page = try await server.graphql(Self.page, ["id": project.id], token: dave.token)
            #expect(page["data"]["node"]["story"].array.map { $0["text"].string } == ["Bob's line.", "Bob again."], "\(page)")
        }
    }

    /// Someone leaving while a round of a project they take part in is
    /// being ended: a voter of the round, or a follower who did not vote.
    /// The end is held midway, the round locked (the test holds the
    /// winner's row, which the end's karma award waits for), and the
    /// deletion starts meanwhile. Before, the deletion locked the account
    /// first, then waited for something the end held (the round, to remove
    /// the vote; the project's row, to count one follower fewer) while the
    /// end, let go, waited for the account (the voter's history, the
    /// follower's notice): a deadlock, which PostgreSQL broke after a
    /// second by failing one of the two. Now the deletion takes the open
    /// rounds of the projects the person takes part in before the account:
    /// it waits for the end, and the round ends once, counting the vote
    /// that was cast (kept, its voter the deleted user).
    @Test(arguments: ["voter", "follower"])
    func aRoundEndingWhileSomeoneLeavesEndsOnceAndTheAccountGoes(_ leaver: String) async throws {
        try await TestServer.with(mounting: [Prolific.self], statementTimeout: nil) { server in
            let ana = try await server.signUp("ana")
            let bob = try await server.signUp("bob")
            let carl = try await server.signUp("carl")
            let project = try await F.project(server, token: ana.token)
            let bobs = try await F.snippet(server, token: bob.token, round: project.round, text: "Bob's line.")
            try await F.castVote(server, token: ana.token, snippet: bobs)
            if leaver == "voter" {
                try await F.castVote(server, token: carl.token, snippet: bobs)
            } else {
                let followed = try await server.graphql(
                    "mutation($id: ID!) { followProject(projectId: $id) { viewerFollows } }", ["id": project.id], token: carl.token)
                #expect(followed["errors"].isNull, "\(followed)")
            }
            let round = F.rowID(project.round)

            let deletion = try await server.holdingLock("SELECT 1 FROM users WHERE id = $1 FOR UPDATE", [F.rowID(bob.id)]) {
                try await F.endNow([project.round], server: server, wait: false)
                // The end, the round locked, waits to award Bob his win.
                try await server.waitForLockWaiters(1)
                let deletion = Task { try await server.graphql(Self.delete, token: carl.token) }
                try await server.waitForLockWaiters(2)
                return deletion
            }
            let reply = try await deletion.value
            #expect(reply["data"]["deleteAccount"].bool == true, "\(reply)")
            var ended = false
            for _ in 0..<1200 where !ended {
                ended = try await server.sql("SELECT completed_at IS NOT NULL FROM rounds WHERE id = $1", [round])[0].decode(
                    Bool.self, at: 0)
                if !ended { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(ended)
            #expect(try await server.metric("huddle_scheduled_jobs_total{outcome=\"failed\"}") == 0)
            let deadlocks = try await server.sql("SELECT deadlocks::int FROM pg_stat_database WHERE datname = current_database()")
            #expect(try deadlocks[0].decode(Int.self, at: 0) == 0)
            let votes = leaver == "voter" ? 2 : 1
            let counted = try await server.sql(
                """
                SELECT r.votes, (SELECT count(*)::int FROM votes v WHERE v.snippet_id = r.snippet_id),
                       (SELECT count(*)::int FROM votes v WHERE v.snippet_id = r.snippet_id AND v.voter_id IS NULL)
                FROM snippet_results r WHERE r.snippet_id = $1
                """, [F.rowID(bobs)])
            #expect(try counted.first?.decode(Int.self, at: 0) == votes)
            #expect(try counted.first?.decode(Int.self, at: 1) == votes)
            #expect(try counted.first?.decode(Int.self, at: 2) == votes - 1)
        }
    }
}
