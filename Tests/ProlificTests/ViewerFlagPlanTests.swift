import Foundation
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

@testable import Prolific

/// What a viewer has done (their votes, follows, memberships) grows with
/// every day they use the app; the flags a page shows about it must cost a
/// lookup per row on the page, not a read of all of it. The server's
/// statements run with generic plans, so the plan checked here is one.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct ViewerFlagPlanTests {
    @Test func theViewersFlagsAreLookedUpPerRowHoweverMuchTheyHaveDone() async throws {
        try await TestServer.with(mounting: [Prolific.self]) { server in
            // A project, a snippet and a vote, and the tables' statistics.
            let users = try await server.makeUsers(3, prefix: "flags")
            let project = try await ProlificFixtures.project(server, token: users[0].token, title: "Flags")
            let snippet = try await ProlificFixtures.snippet(server, token: users[1].token, round: project.round, text: "A line.")
            try await ProlificFixtures.castVote(server, token: users[2].token, snippet: snippet)
            _ = try await server.sql("ANALYZE")

            let everything: ProjectParts = [.openRound, .story, .rankedSnippets]
            let page = try await server.genericPlan(of: ProjectReads.sql(everything), arguments: "'{1}', 1")
            let snippetPage = SnippetCounting.byID
            let snippets = try await server.genericPlan(of: snippetPage, arguments: "'{1}', 1")
            for plan in [page, snippets] {
                // A hashed subplan reads every row of the viewer's once, to answer for a page's few.
                #expect(!plan.contains("hashed SubPlan"), "\(plan)")
            }
            #expect(page.contains("project_follows"), "\(page)")
            #expect(page.contains("project_members"), "\(page)")
            #expect(snippets.contains("votes"), "\(snippets)")
        }
    }
}
