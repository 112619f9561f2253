import GraphQL
import Prolific
import ServerTestSupport
import Testing

/// Prolific's screens, each at its largest page, against the default
/// operation limits (the server measures an operation before it runs).
@Suite struct ScreenCostTests {
    static let cost = ScreenCost(mounting: [Prolific.self])

    static let screens: [String: String] = [
        // The home list: fifty projects, each with its open round's three best
        // snippets and the story's latest two lines.
        "projects": """
        query Projects { projects(first: 50) { edges { node { id title cover followerCount viewerFollows roundsCompleted
          owner { username avatar }
          currentRound { number endsAt snippetCount snippets(first: 3) { text author { username } } }
          story(last: 2) { text author { username } } } } pageInfo { hasNextPage endCursor } } }
        """,
        "explore": """
        query Explore { exploreProjects(first: 100) { edges { node { id title followerCount lastActivityAt owner { username } } }
          pageInfo { hasNextPage endCursor } } }
        """,
        // The project page: the whole story and every snippet of the round.
        "project page": """
        query ProjectPage($id: ID!) { project(id: $id) {
          title seed cover(size: FULL) followerCount viewerFollows viewerCanWrite members { username avatar }
          story { id text author { username avatar karma } }
          currentRound { number endsAt snippetCount snippets { id text voteCount score viewerVoted author { username karma } } }
          rounds(first: 100) { edges { node { number completedAt winner { text author { username } } } } }
        } }
        """,
        "writer": """
        query Writer($username: String!) { userByUsername(username: $username) {
          username avatar karma followerCount followingCount viewerFollows badges { kind level progress nextLevelAt }
          projects(first: 100) { edges { node { id title roundsCompleted } } pageInfo { hasNextPage endCursor } }
          snippets(first: 100) { edges { node { id text voteCount } } pageInfo { hasNextPage endCursor } }
        } }
        """,
        "following": """
        query Following { followedWritersProjects(first: 100) { edges { node { id title owner { username avatar } } } }
          followedProjects(first: 100) { edges { node { id title currentRound { endsAt } } } }
          searchUsers(query: "an", first: 50) { username avatar followerCount viewerFollows } }
        """,
        // The owner's statistics: each project's last 90 days, and their own.
        "activity": """
        query Activity { me { writerActivity(days: 90) { day projectViews snippetViews votesReceived snippetsWritten }
          projects(first: 20) { edges { node { id title activity(days: 90) { day views snippetViews votes snippets } } } } } }
        """,
        "inbox": """
        query Inbox { notifications(first: 100) { edges { node { kind message createdAt actor { username avatar }
          project { id title } round { number } snippet { text } } } } unreadNotificationCount }
        """,
    ]

    @Test(arguments: screens.keys.sorted())
    func everyScreenFitsTheDefaultLimits(_ screen: String) throws {
        try Self.cost.expectFits(screen, Self.screens[screen]!, variables: [.init("username", .string("demo")), .init("id", .string("x"))])
    }

    /// The list the issue found refused (fifty projects, each with every
    /// snippet of its round and its whole story, each with its author)
    /// fits; sliced, as a list shows them, it costs a small part of that.
    @Test func fiftyProjectsWithTheirSnippetsAndStoriesFit() throws {
        let whole = try Self.cost.measure(
            """
            { projects(first: 50) { edges { node { id title currentRound { snippets { id text author { username } } }
              story { id text author { username } } } } } }
            """)
        #expect(ExecutionLimits.default.refusal(of: whole) == nil, "cost \(whole.cost)")
        let cards = try Self.cost.measure(
            """
            { projects(first: 50) { edges { node { id title currentRound { snippets(first: 3) { id text author { username } } }
              story(last: 2) { id text author { username } } } } } }
            """)
        #expect(cards.cost * 10 < whole.cost, "cost \(cards.cost) against \(whole.cost)")
    }
}
