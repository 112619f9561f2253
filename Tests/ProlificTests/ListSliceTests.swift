import Foundation
import PostgresTestSupport
import Prolific
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// A list screen asks for a round's best few snippets and a story's opening
/// or latest lines; without the arguments the lists are whole, as before.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct ListSliceTests {
    @Test func snippetsAndStoriesAreSlicedAsAskedAndWholeOtherwise() async throws {
        try await TestServer.with(mounting: [Prolific.self]) { server in
            let users = try await server.makeUsers(3, prefix: "slice")
            var project = try await ProlificFixtures.project(server, token: users[0].token, title: "Three rounds")
            // Three rounds, each won by the first snippet written in it.
            for round in 1...3 {
                _ = try await ProlificFixtures.snippet(server, token: users[0].token, round: project.round, text: "Line \(round).")
                try await ProlificFixtures.endNow([project.round], server: server)
                let next = try await server.graphql(
                    "query($id: ID!) { project(id: $id) { currentRound { id } } }", ["id": project.id], token: users[0].token)
                project.round = try #require(next["data"]["project"]["currentRound"]["id"].string, "\(next)")
            }
            for user in users {
                _ = try await ProlificFixtures.snippet(server, token: user.token, round: project.round, text: "Next by \(user.id).")
            }
            let query = """
                query($id: ID!) { project(id: $id) {
                  whole: story { text } opening: story(first: 1) { text } latest: story(last: 2) { text } none: story(last: 0) { text }
                  currentRound { snippetCount all: snippets { id } best: snippets(first: 2) { id } } } }
                """
            let answer = try await server.graphql(query, ["id": project.id], token: users[0].token)
            let page = answer["data"]["project"]
            #expect(page["whole"].array.map { $0["text"].string } == ["Line 1.", "Line 2.", "Line 3."], "\(answer)")
            #expect(page["opening"].array.map { $0["text"].string } == ["Line 1."])
            #expect(page["latest"].array.map { $0["text"].string } == ["Line 2.", "Line 3."])
            #expect(page["none"].array.isEmpty)
            #expect(page["currentRound"]["snippetCount"].int == 3)
            #expect(page["currentRound"]["all"].array.count == 3)
            #expect(
                page["currentRound"]["best"].array.map { $0["id"] } == Array(page["currentRound"]["all"].array.prefix(2)).map { $0["id"] })
            // At the limit, over it, and both at once.
            let hundred = try await server.graphql(
                "query($id: ID!) { project(id: $id) { story(first: 100) { id } } }", ["id": project.id], token: users[0].token)
            #expect(hundred["errors"].isNull, "\(hundred)")
            for (arguments, message) in [
                ("first: 101", "\"first\" must be between 0 and 100; it is 101."),
                ("first: 1, last: 1", "Pass \"first\" or \"last\", not both."),
            ] {
                let refused = try await server.graphql(
                    "query($id: ID!) { project(id: $id) { story(\(arguments)) { id } } }", ["id": project.id], token: users[0].token)
                #expect(refused.errorCode == "BAD_USER_INPUT" && refused.errorMessage == message, "\(refused)")
            }
        }
    }
}
