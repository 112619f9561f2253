import Foundation
import PostgresTestSupport
import Prolific
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// The explore order (docs/prolific.md, "Explore"): activity with a half-life of a
/// day, a project's start counting as a burst, so a new project passes an
/// old one that was busy days ago, and a busy one stays above a new one.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct ExploreTests {
    @Test func exploreMixesRecentActivityWithDecayAndNewness() async throws {
        try await TestServer.with(mounting: [Prolific.self]) { server in
            let owner = try await server.makeUsers(1, prefix: "explore")[0]
            var ids: [String: Int64] = [:]
            var rounds: [String: String] = [:]
            for title in ["Old and busy", "Busy now", "Brand new", "Quiet"] {
                let project = try await ProlificFixtures.project(server, token: owner.token, title: title)
                ids[title] = ProlificFixtures.rowID(project.id)
                rounds[title] = project.round
            }
            // Set each project's activity as if its events happened then
            // (the trigger adds events at the time they happen; here the
            // history is written with the same function).
            func history(_ title: String, _ events: [(weight: Double, hoursAgo: Double)]) async throws {
                var sql = "NULL::float8"
                for event in events {
                    sql = "prolific_heat_add(\(sql), \(event.weight), now() - interval '\(event.hoursAgo) hours')"
                }
                _ = try await server.sql("UPDATE projects SET heat = \(sql) WHERE id = $1", [ids[title]!])
            }
            // Started four days ago with 40 votes then: 48 × 2^-4 = 3 now.
            try await history("Old and busy", [(8, 96)] + Array(repeating: (1, 96), count: 40))
            // Started two days ago, 20 votes in the last hour: 2 + ~19.4.
            try await history("Busy now", [(8, 48)] + Array(repeating: (1, 1), count: 20))
            // Started now: 8.
            try await history("Brand new", [(8, 0)])
            // Started three days ago, nothing since: 1.
            try await history("Quiet", [(8, 72)])
            let reply = try await server.graphql("{ exploreProjects(first: 2) { edges { node { title } } pageInfo { endCursor } } }")
            #expect(reply["data"]["exploreProjects"]["edges"].array.map { $0["node"]["title"].string! } == ["Busy now", "Brand new"])
            let cursor = try #require(reply["data"]["exploreProjects"]["pageInfo"]["endCursor"].string)
            // The order is fixed between events, so the next page goes on from the cursor.
            let next = try await server.graphql(
                "query($after: String) { exploreProjects(first: 5, after: $after) { edges { node { title } } } }", ["after": cursor])
            #expect(next["data"]["exploreProjects"]["edges"].array.map { $0["node"]["title"].string! } == ["Old and busy", "Quiet"])

            // A vote now moves a project up: Quiet gets 10 and passes Brand new.
            let users = try await server.makeUsers(11, prefix: "voter")
            let snippet = try await ProlificFixtures.snippet(server, token: users[10].token, round: rounds["Quiet"]!, text: "A sound.")
            for user in users.prefix(10) { try await ProlificFixtures.castVote(server, token: user.token, snippet: snippet) }
            let after = try await server.graphql("{ exploreProjects { edges { node { title } } } }")
            #expect(
                after["data"]["exploreProjects"]["edges"].array.map { $0["node"]["title"].string! } == [
                    "Busy now", "Quiet", "Brand new", "Old and busy",
                ])
        }
    }
}
