import Foundation
import HuddleCore
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

@testable import Prolific

/// The project page (the project, its story, the open round's snippets
/// ranked with their authors, weighted scores and the viewer's votes)
/// costs the same number of statements for 5 snippets and for 100.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct ProjectPageCostTests {
    /// The page, its story's authors selected with `storyAuthor` and the
    /// open round's snippets with `snippetFields`.
    static func page(storyAuthor: String, snippetFields: String) -> String {
        """
        query ProjectPage($id: ID!) {
          project(id: $id) {
            id title seed isComplete followerCount viewerFollows viewerCanWrite owner { username }
            story { id text author { \(storyAuthor) } }
            currentRound { id number endsAt snippetCount snippets { \(snippetFields) } }
          }
        }
        """
    }
    static let wholeAuthors = "id text isEnding createdAt voteCount score viewerVoted isWinner author { id username profileImageUrl karma }"
    static let namedAuthors = "id text voteCount score viewerVoted author { username karma }"

    /// Statements the page costs with `writers` snippets in the open round,
    /// each with a vote, a finished round before it.
    func statements(
        writers: Int, storyAuthor: String = "username profileImageUrl", snippetFields: String = wholeAuthors
    ) async throws -> (statements: Int, snippets: Int) {
        let page = Self.page(storyAuthor: storyAuthor, snippetFields: snippetFields)
        return try await TestServer.with(mounting: [Prolific.self]) { server in
            let users = try await server.makeUsers(writers + 1, prefix: "page")
            let viewer = users[writers]
            let project = try await ProlificFixtures.project(server, token: viewer.token, title: "Page")
            _ = try await ProlificFixtures.snippet(server, token: users[0].token, round: project.round, text: "An opening.")
            try await ProlificFixtures.endNow([project.round], server: server)
            let current = try await server.graphql("query($id: ID!) { project(id: $id) { currentRound { id } } }", ["id": project.id])
            let round = try #require(current["data"]["project"]["currentRound"]["id"].string)
            for index in 0..<writers {
                let snippet = try await ProlificFixtures.snippet(server, token: users[index].token, round: round, text: "Line \(index).")
                try await ProlificFixtures.castVote(server, token: users[(index + 1) % writers].token, snippet: snippet)
            }
            _ = try await server.graphql(page, ["id": project.id], token: viewer.token)
            let before = try await server.statementCount()
            let reply = try await server.graphql(page, ["id": project.id], token: viewer.token)
            let after = try await server.statementCount()
            #expect(reply["errors"].isNull, "\(reply)")
            #expect(reply["data"]["project"]["story"].array.count == 1)
            // The snippets the project's statement ranked are the ones the round's own loader ranks.
            let alone = try await server.graphql(
                """
                query($id: ID!) { node(id: $id) { ... on Round { snippets { \(snippetFields) } } } }
                """, ["id": round], token: viewer.token)
            #expect(alone["data"]["node"]["snippets"] == reply["data"]["project"]["currentRound"]["snippets"], "\(alone)")
            return (after - before, reply["data"]["project"]["currentRound"]["snippets"].array.count)
        }
    }

    @Test func theProjectPageCostsTheSameForFiveSnippetsAndAHundred() async throws {
        let few = try await statements(writers: 5)
        let many = try await statements(writers: 100)
        #expect(few.snippets == 5 && many.snippets == 100)
        #expect(few.statements == many.statements, "5 snippets: \(few.statements) statements, 100: \(many.statements)")
        // One: the project with its owner and the viewer's follow, the open
        // round with its snippet count, the story with its authors, and the
        // open round's snippets with their authors, karma, the viewer's
        // votes and the live count. (The token was checked by the request before.)
        #expect(few.statements == 1, "\(few.statements)")
    }

    /// Authors asked only for their names (and Prolific's fields read by
    /// their id, such as karma) are read with the names' columns, and the
    /// page still costs one statement: the author resolvers ask the loader
    /// the statement primed.
    @Test func authorsAskedForTheirNamesAreReadWithTheNamesAlone() async throws {
        let named = try await statements(writers: 5, storyAuthor: "username", snippetFields: Self.namedAuthors)
        #expect(named.snippets == 5)
        #expect(named.statements == 1, "\(named.statements)")

        let parts = ProjectParts(selecting: ["story", "currentRound"], onCurrentRound: ["snippets"], ofAuthors: ["username", "karma"])
        #expect(parts.contains(.authorNames))
        #expect(ProjectReads.sql(parts).contains(UserRecord.nameColumns))
        let whole = ProjectParts(selecting: ["story"], ofAuthors: ["username", "profileImageUrl"])
        #expect(!whole.contains(.authorNames))
        #expect(!ProjectReads.sql(whole).contains(UserRecord.nameColumns))
    }

    /// Every field `WriterResolvers.userFieldsByID` names is answered for an
    /// author read with names alone: none reads a column of the users row.
    @Test func authorsReadWithNamesAloneAnswerEveryFieldReadByTheirID() async throws {
        let selections = [
            "karma": "karma", "badges": "badges { kind level }", "projects": "projects(first: 1) { edges { node { id } } }",
            "snippets": "snippets(first: 1) { edges { node { id } } }", "followerCount": "followerCount",
            "followingCount": "followingCount", "viewerFollows": "viewerFollows", "writerActivity": "writerActivity(days: 1) { day }",
        ]
        #expect(Set(selections.keys) == WriterResolvers.userFieldsByID)
        let author = "username " + selections.values.sorted().joined(separator: " ")
        let parts = ProjectParts(selecting: ["story"], ofAuthors: WriterResolvers.userFieldsByID.union(["username"]))
        #expect(parts.contains(.authorNames))
        try await TestServer.with(mounting: [Prolific.self]) { server in
            let users = try await server.makeUsers(2, prefix: "byid")
            let project = try await ProlificFixtures.project(server, token: users[0].token, title: "By id")
            _ = try await ProlificFixtures.snippet(server, token: users[1].token, round: project.round, text: "An opening.")
            try await ProlificFixtures.endNow([project.round], server: server)
            let reply = try await server.graphql(
                Self.page(storyAuthor: author, snippetFields: "id author { \(author) }"), ["id": project.id], token: users[1].token)
            #expect(reply["errors"].isNull, "\(reply)")
            #expect(reply["data"]["project"]["story"][0]["author"]["username"].string != nil, "\(reply)")
            #expect(reply["data"]["project"]["story"][0]["author"]["writerActivity"].array.count == 1, "\(reply)")
        }
    }
}
