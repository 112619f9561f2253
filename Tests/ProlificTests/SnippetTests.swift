import Foundation
import PostgresTestSupport
import Prolific
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Submitting and voting: the length limits at and just over them, one
/// snippet per writer per round, no vote for your own, no vote twice,
/// unknown and malformed ids, and snippets that never change.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct SnippetTests {
    @Test func snippetsAndVotesKeepTheirRules() async throws {
        try await TestServer.with(mounting: [Prolific.self]) { server in
            let users = try await server.makeUsers(3, prefix: "snip")
            let (owner, ada, bo) = (users[0], users[1], users[2])
            let project = try await ProlificFixtures.project(server, token: owner.token)

            for text in ["", "   \n ", String(repeating: "x", count: 1001)] {
                let reply = try await server.graphql(ProlificFixtures.submit, ["round": project.round, "text": text], token: ada.token)
                #expect(reply.errorCode == "BAD_USER_INPUT", "\(reply)")
                #expect(reply.errorMessage == "\"text\" must be 1 to 1000 characters and not only spaces.")
            }
            #expect(
                try await server.graphql(ProlificFixtures.submit, ["round": project.round, "text": "x"]).errorCode == "UNAUTHENTICATED")
            #expect(try await server.sql("SELECT count(*)::int FROM snippets")[0].decode(Int.self, at: 0) == 0)
            // 1,000 characters (here letters outside ASCII) are taken.
            let longest = String(repeating: "é", count: 1000)
            let adas = try await ProlificFixtures.snippet(server, token: ada.token, round: project.round, text: longest)
            let again = try await server.graphql(ProlificFixtures.submit, ["round": project.round, "text": "Again."], token: ada.token)
            #expect(again.errorCode == "BAD_USER_INPUT" && again.errorMessage == "You have submitted a snippet to this round already.")
            let unknownRound = try await server.graphql(ProlificFixtures.submit, ["round": "Um91bmQ6OTk5OQ", "text": "x"], token: bo.token)
            #expect(unknownRound.errorCode == "NOT_FOUND")
            let malformed = try await server.graphql(ProlificFixtures.submit, ["round": "not-an-id", "text": "x"], token: bo.token)
            #expect(malformed.errorCode == "BAD_USER_INPUT")

            let own = try await server.graphql(ProlificFixtures.vote, ["id": adas], token: ada.token)
            #expect(own.errorCode == "BAD_USER_INPUT" && own.errorMessage == "You cannot vote for your own snippet.")
            let first = try await server.graphql(ProlificFixtures.vote, ["id": adas], token: bo.token)
            #expect(first["data"]["vote"]["voteCount"].int == 1 && first["data"]["vote"]["viewerVoted"] == .bool(true), "\(first)")
            let twice = try await server.graphql(ProlificFixtures.vote, ["id": adas], token: bo.token)
            #expect(twice.errorCode == "BAD_USER_INPUT" && twice.errorMessage == "You have voted for this snippet already.")
            let back = try await server.graphql(ProlificFixtures.unvote, ["id": adas], token: bo.token)
            #expect(back["data"]["unvote"]["voteCount"].int == 0 && back["data"]["unvote"]["viewerVoted"] == .bool(false))
            let notVoted = try await server.graphql(ProlificFixtures.unvote, ["id": adas], token: bo.token)
            #expect(notVoted.errorCode == "BAD_USER_INPUT" && notVoted.errorMessage == "You have not voted for this snippet.")
            #expect(try await server.graphql(ProlificFixtures.vote, ["id": "U25pcHBldDo5OTk5"], token: bo.token).errorCode == "NOT_FOUND")
            #expect(try await server.graphql(ProlificFixtures.vote, ["id": project.id], token: bo.token).errorCode == "BAD_USER_INPUT")

            // The vote left its author a notice; the snippet reads back whole.
            let notices = try await ProlificFixtures.notices(server, token: ada.token, kind: "SNIPPET_VOTED")
            #expect(notices.map { $0["subject"]["id"].string } == [adas])
            let read = try await server.graphql(
                "query($id: ID!) { snippet(id: $id) { text isEnding author { username } round { number } project { title } } }",
                ["id": adas])
            #expect(read["data"]["snippet"]["text"].string == longest && read["data"]["snippet"]["round"]["number"].int == 1)
            await #expect(throws: (any Error).self) {
                _ = try await server.sql("UPDATE snippets SET text = 'rewritten' WHERE id = $1", [ProlificFixtures.rowID(adas)])
            }
        }
    }
}
