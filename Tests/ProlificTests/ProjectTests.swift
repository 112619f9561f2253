import Foundation
import PostgresTestSupport
import Prolific
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Prolific projects over HTTP on a real PostgreSQL: creating them (and
/// refusing bad input with nothing written), the newest-first feed,
/// search, following, private projects and invitations.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct ProjectTests {
    @Test func projectsAreCreatedListedSearchedAndFollowed() async throws {
        try await TestServer.with(mounting: [Prolific.self]) { server in
            let users = try await server.makeUsers(2, prefix: "writer")
            let (ana, bob) = (users[0], users[1])
            let salt = try await ProlificFixtures.project(server, token: ana.token, title: "  Salt Harbour ")
            let moon = try await ProlificFixtures.project(
                server, token: bob.token, title: "Moon 100% Real", extra: ["pace": "CUSTOM", "roundMinutes": 45, "roundLimit": 3])

            // Bad input is refused, and nothing is written.
            for (input, message) in [
                (["title": " ", "seed": "x"], "\"title\" must be 1 to 120 characters, not counting surrounding spaces."),
                (
                    ["title": String(repeating: "t", count: 121), "seed": "x"],
                    "\"title\" must be 1 to 120 characters, not counting surrounding spaces."
                ),
                (
                    ["title": "t", "seed": String(repeating: "s", count: 1001)],
                    "\"seed\" must be 1 to 1,000 characters and not only spaces."
                ),
                (["title": "t", "seed": "   "], "\"seed\" must be 1 to 1,000 characters and not only spaces."),
                (["title": "t", "seed": "s", "pace": "CUSTOM"], "Pace CUSTOM needs \"roundMinutes\" between 1 and 10080."),
                (
                    ["title": "t", "seed": "s", "pace": "CUSTOM", "roundMinutes": 10081],
                    "Pace CUSTOM needs \"roundMinutes\" between 1 and 10080."
                ),
                (["title": "t", "seed": "s", "pace": "SPEED", "roundMinutes": 5], "\"roundMinutes\" goes with pace CUSTOM only."),
                (["title": "t", "seed": "s", "roundLimit": 0], "\"roundLimit\" must be between 1 and 1000, or null."),
                (["title": "t", "seed": "s", "roundLimit": 1001], "\"roundLimit\" must be between 1 and 1000, or null."),
            ] as [([String: any Sendable], String)] {
                let reply = try await server.graphql(ProlificFixtures.create, ["input": input], token: ana.token)
                #expect(reply.errorCode == "BAD_USER_INPUT" && reply.errorMessage == message, "\(reply)")
            }
            let anonymous = try await server.graphql(ProlificFixtures.create, ["input": ["title": "t", "seed": "s"]])
            #expect(anonymous.errorCode == "UNAUTHENTICATED")
            #expect(try await server.sql("SELECT count(*)::int FROM projects")[0].decode(Int.self, at: 0) == 2)
            // At the limits exactly, it is taken.
            let longest = try await server.graphql(
                ProlificFixtures.create,
                [
                    "input": ["title": String(repeating: "t", count: 120), "seed": String(repeating: "s", count: 1000), "roundLimit": 1000]
                        as [String: any Sendable]
                ],
                token: ana.token)
            #expect(longest["errors"].isNull, "\(longest)")
            _ = try await server.sql("DELETE FROM projects WHERE length(title) = 120")

            let page = try await server.graphql(
                """
                query($id: ID!) {
                  projects(first: 10) { edges { node { title } } }
                  moon: project(id: $id) { title pace roundMinutes roundLimit isComplete roundsCompleted story { id }
                    owner { username } currentRound { number isComplete snippetCount startedAt endsAt } }
                  node(id: $id) { ... on Project { title } }
                }
                """, ["id": moon.id], token: ana.token)
            #expect(page["data"]["projects"]["edges"].array.map { $0["node"]["title"].string! } == ["Moon 100% Real", "Salt Harbour"])
            let project = page["data"]["moon"]
            #expect(project["pace"] == .string("CUSTOM") && project["roundMinutes"].int == 45 && project["roundLimit"].int == 3)
            #expect(project["isComplete"] == .bool(false) && project["roundsCompleted"].int == 0 && project["story"].array.isEmpty)
            #expect(project["owner"]["username"] == .string("writer1"))
            let round = project["currentRound"]
            #expect(round["number"].int == 1 && round["isComplete"] == .bool(false) && round["snippetCount"].int == 0)
            let started = try #require(round["startedAt"].string.flatMap { ISO8601DateFormatter.withFractions.date(from: $0) })
            let ends = try #require(round["endsAt"].string.flatMap { ISO8601DateFormatter.withFractions.date(from: $0) })
            #expect(abs(ends.timeIntervalSince(started) - 45 * 60) < 0.01)
            #expect(page["data"]["node"]["title"] == .string("Moon 100% Real"))

            // Search: a substring, ignoring case; LIKE's wildcards are literal.
            func search(_ title: String) async throws -> [String] {
                let reply = try await server.graphql(
                    "query($t: String!) { searchProjects(title: $t) { edges { node { title } } } }", ["t": title], token: ana.token)
                return reply["data"]["searchProjects"]["edges"].array.map { $0["node"]["title"].string! }
            }
            #expect(try await search("harb") == ["Salt Harbour"])
            #expect(try await search("100%") == ["Moon 100% Real"])
            #expect(try await search("0%r").isEmpty)
            #expect(try await search("_").isEmpty)
            let empty = try await server.graphql("{ searchProjects(title: \"  \") { edges { cursor } } }")
            #expect(empty.errorCode == "BAD_USER_INPUT")

            // Following: idempotent, counted, listed as Favorites.
            let follow = "mutation($id: ID!) { followProject(projectId: $id) { followerCount viewerFollows } }"
            for _ in 0..<2 {
                let reply = try await server.graphql(follow, ["id": salt.id], token: bob.token)
                #expect(reply["data"]["followProject"] == .object(["followerCount": .number(1), "viewerFollows": .bool(true)]), "\(reply)")
            }
            _ = try await server.graphql(follow, ["id": moon.id], token: bob.token)
            let favorites = try await server.graphql(
                "{ followedProjects { edges { node { title viewerFollows } } } }", token: bob.token)
            #expect(
                favorites["data"]["followedProjects"]["edges"].array.map { $0["node"]["title"].string! } == [
                    "Moon 100% Real", "Salt Harbour",
                ])
            let unfollowed = try await server.graphql(
                "mutation($id: ID!) { unfollowProject(projectId: $id) { followerCount viewerFollows } }", ["id": salt.id], token: bob.token)
            #expect(unfollowed["data"]["unfollowProject"] == .object(["followerCount": .number(0), "viewerFollows": .bool(false)]))
            #expect(try await server.graphql("{ followedProjects { edges { cursor } } }").errorCode == "UNAUTHENTICATED")
            let unknown = try await server.graphql(follow, ["id": "UHJvamVjdDo5OTk"], token: bob.token)
            #expect(unknown.errorCode == "NOT_FOUND")

            // Karma for starting a project (two: the one at the limits, deleted
            // above, was awarded too), and the Creator badge.
            let profile = try await server.graphql(
                "query($id: ID!) { user(id: $id) { karma badges { kind level progress nextLevelAt } projects { edges { node { title } } } } }",
                ["id": ana.id])
            #expect(profile["data"]["user"]["karma"].int == 10)
            #expect(
                profile["data"]["user"]["badges"][2]
                    == .object(["kind": .string("CREATOR"), "level": .number(1), "progress": .number(2), "nextLevelAt": .number(5)]))
            #expect(profile["data"]["user"]["projects"]["edges"].array.map { $0["node"]["title"].string! } == ["Salt Harbour"])
        }
    }

    @Test func privateProjectsAreSeenAndWrittenOnlyByTheirMembers() async throws {
        try await TestServer.with(mounting: [Prolific.self]) { server in
            let users = try await server.makeUsers(3, prefix: "member")
            let (owner, guest, stranger) = (users[0], users[1], users[2])
            let secret = try await ProlificFixtures.project(server, token: owner.token, title: "Secret Garden", extra: ["isPrivate": true])
            let open = try await ProlificFixtures.project(server, token: owner.token, title: "Open Field")

            // To anyone else it does not exist: by id, as a node, in lists and search.
            let look = """
                query($id: ID!, $round: ID!) {
                  project(id: $id) { title } node(id: $id) { id } round(id: $round) { id }
                  projects { edges { node { title } } } searchProjects(title: "Secret") { edges { node { title } } }
                }
                """
            for token in [stranger.token, guest.token, nil] {
                let reply = try await server.graphql(look, ["id": secret.id, "round": secret.round], token: token)
                #expect(reply["data"]["project"].isNull && reply["data"]["node"].isNull && reply["data"]["round"].isNull, "\(reply)")
                #expect(reply["data"]["projects"]["edges"].array.map { $0["node"]["title"].string! } == ["Open Field"])
                #expect(reply["data"]["searchProjects"]["edges"].array.isEmpty)
            }
            let write = try await server.graphql(
                ProlificFixtures.submit, ["round": secret.round, "text": "Let me in."], token: stranger.token)
            #expect(write.errorCode == "NOT_FOUND")
            let follow = try await server.graphql(
                "mutation($id: ID!) { followProject(projectId: $id) { id } }", ["id": secret.id], token: stranger.token)
            #expect(follow.errorCode == "NOT_FOUND")

            // Only its owner invites, and only to a private project, once.
            let invite = "mutation($p: ID!, $u: ID!) { inviteToProject(projectId: $p, userId: $u) { members { username } } }"
            #expect(try await server.graphql(invite, ["p": secret.id, "u": guest.id], token: stranger.token).errorCode == "NOT_FOUND")
            #expect(try await server.graphql(invite, ["p": open.id, "u": guest.id], token: owner.token).errorCode == "BAD_USER_INPUT")
            #expect(try await server.graphql(invite, ["p": secret.id, "u": "VXNlcjo5OTk5"], token: owner.token).errorCode == "NOT_FOUND")
            let invited = try await server.graphql(invite, ["p": secret.id, "u": guest.id], token: owner.token)
            #expect(invited["data"]["inviteToProject"]["members"].array.map { $0["username"].string! } == ["member0", "member1"])
            #expect(try await server.graphql(invite, ["p": secret.id, "u": guest.id], token: owner.token).errorCode == "BAD_USER_INPUT")
            let notice = try await ProlificFixtures.notices(server, token: guest.token, kind: "PROJECT_INVITATION")
            #expect(notice.map { $0["message"].string! } == ["You were invited to write \"Secret Garden\"."])
            #expect(notice.first?["subject"]["id"].string == secret.id)

            // A member reads and writes; a stranger still does not.
            let seen = try await server.graphql(look, ["id": secret.id, "round": secret.round], token: guest.token)
            #expect(seen["data"]["project"]["title"] == .string("Secret Garden") && !seen["data"]["round"].isNull)
            let snippet = try await ProlificFixtures.snippet(server, token: guest.token, round: secret.round, text: "The gate was ajar.")
            let peek = try await server.graphql("query($id: ID!) { snippet(id: $id) { text } }", ["id": snippet], token: stranger.token)
            #expect(peek["data"]["snippet"].isNull)
            let profile = try await server.graphql(
                "query($id: ID!) { user(id: $id) { snippets { edges { node { text } } } projects { edges { node { title } } } } }",
                ["id": guest.id], token: stranger.token)
            #expect(profile["data"]["user"]["snippets"]["edges"].array.isEmpty)
            let ownerProfile = try await server.graphql(
                "query($id: ID!) { user(id: $id) { projects { edges { node { title } } } } }", ["id": owner.id], token: stranger.token)
            #expect(ownerProfile["data"]["user"]["projects"]["edges"].array.map { $0["node"]["title"].string! } == ["Open Field"])

            // The database holds the rule even without the resolvers.
            await #expect(throws: (any Error).self) {
                _ = try await server.sql(
                    "INSERT INTO snippets (round_id, project_id, author_id, text) VALUES ($1, $2, $3, 'sneaky')",
                    [ProlificFixtures.rowID(secret.round), ProlificFixtures.rowID(secret.id), ProlificFixtures.rowID(stranger.id)])
            }
        }
    }
}

extension ISO8601DateFormatter {
    /// RFC 3339 with milliseconds, as the API writes instants.
    nonisolated(unsafe) static let withFractions: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()
}
