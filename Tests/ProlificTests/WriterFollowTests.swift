import Foundation
import HuddleRuntime
import PostgresTestSupport
import Prolific
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// "Users can follow other users": following a writer, the feed of the
/// projects they start, the notice of each new public one, the counts on a
/// page of users in a constant number of statements; and finding writers by
/// what a user types.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct WriterFollowTests {
    static let follow = "mutation($id: ID!) { followUser(userId: $id) { username followerCount viewerFollows } }"
    static let unfollow = "mutation($id: ID!) { unfollowUser(userId: $id) { username followerCount viewerFollows } }"

    @Test func followersSeeTheProjectsTheirWritersStart() async throws {
        try await TestServer.with(mounting: [Prolific.self]) { server in
            let users = try await server.makeUsers(3, prefix: "follow")
            let (ana, bob, cara) = (users[0], users[1], users[2])
            let followed = try await server.graphql(Self.follow, ["id": ana.id], token: bob.token)
            #expect(followed["data"]["followUser"]["followerCount"].int == 1, "\(followed)")
            #expect(followed["data"]["followUser"]["viewerFollows"].bool == true)
            // Again changes nothing; oneself and nobody are refused.
            let again = try await server.graphql(Self.follow, ["id": ana.id], token: bob.token)
            #expect(again["data"]["followUser"]["followerCount"].int == 1, "\(again)")
            let me = try await server.graphql(Self.follow, ["id": ana.id], token: ana.token)
            #expect(me.errorCode == "BAD_USER_INPUT", "\(me)")
            let nobody = try await server.graphql(Self.follow, ["id": Base64URL.encode("User:999999")], token: bob.token)
            #expect(nobody.errorCode == "NOT_FOUND", "\(nobody)")
            _ = try await server.graphql(Self.follow, ["id": ana.id], token: cara.token)

            // Ana starts a public project and a private one; Cara one of her own.
            let salt = try await ProlificFixtures.project(server, token: ana.token, title: "Salt Harbour")
            _ = try await ProlificFixtures.project(server, token: ana.token, title: "Diary", extra: ["isPrivate": true])
            _ = try await ProlificFixtures.project(server, token: cara.token, title: "Elsewhere")
            let feed = try await server.graphql(
                "{ followedWritersProjects(first: 10) { edges { node { id title owner { username } } } pageInfo { hasNextPage } } }",
                token: bob.token)
            #expect(
                feed["data"]["followedWritersProjects"]["edges"].array.map { $0["node"]["title"].string } == ["Salt Harbour"], "\(feed)")
            let notices = try await server.graphql(
                "{ notifications(first: 10) { edges { node { kind message actor { username } project { id } } } } }", token: bob.token)
            let started = notices["data"]["notifications"]["edges"].array.map { $0["node"] }.filter {
                $0["kind"].string == "WRITER_STARTED_PROJECT"
            }
            #expect(started.count == 1, "\(notices)")
            #expect(started.first?["message"].string == "follow0 started a project: \"Salt Harbour\".")
            #expect(started.first?["project"]["id"].string == salt.id && started.first?["actor"]["username"].string == "follow0")

            // The counts, on a page of users.
            let counts = try await server.graphql(
                "query($a: ID!, $b: ID!) { a: user(id: $a) { followerCount followingCount viewerFollows } b: user(id: $b) { followerCount followingCount viewerFollows } }",
                ["a": ana.id, "b": bob.id], token: cara.token)
            #expect(counts["data"]["a"]["followerCount"].int == 2 && counts["data"]["a"]["viewerFollows"].bool == true, "\(counts)")
            #expect(counts["data"]["b"]["followingCount"].int == 1 && counts["data"]["b"]["viewerFollows"].bool == false)

            let unfollowed = try await server.graphql(Self.unfollow, ["id": ana.id], token: bob.token)
            #expect(unfollowed["data"]["unfollowUser"]["followerCount"].int == 1, "\(unfollowed)")
            #expect(unfollowed["data"]["unfollowUser"]["viewerFollows"].bool == false)
            let empty = try await server.graphql("{ followedWritersProjects { edges { node { id } } } }", token: bob.token)
            #expect(empty["data"]["followedWritersProjects"]["edges"].array.isEmpty, "\(empty)")
            // The database keeps the counts right whatever a resolver does.
            let kept = try await server.sql("SELECT followers, following FROM prolific_writers WHERE user_id = $1", [rowID(ana.id)])
            #expect(try kept[0].decode(Int.self, at: 0) == 1 && kept[0].decode(Int.self, at: 1) == 0)
            await #expect(throws: (any Error).self) {
                _ = try await server.sql("INSERT INTO writer_follows (follower_id, writer_id) VALUES ($1, $1)", [rowID(ana.id)])
            }
        }
    }

    @Test func theCountsOfAPageOfWritersCostAConstantNumberOfStatements() async throws {
        try await TestServer.with(mounting: [Prolific.self]) { server in
            let users = try await server.makeUsers(12, prefix: "many")
            for follower in users.dropFirst() {
                _ = try await server.graphql(Self.follow, ["id": users[0].id], token: follower.token)
            }
            for writer in users.dropFirst(2) {
                _ = try await server.graphql(Self.follow, ["id": writer.id], token: users[1].token)
            }
            func statements(_ count: Int) async throws -> Int {
                let fields = users.prefix(count).enumerated().map { index, user in
                    "u\(index): user(id: \"\(user.id)\") { username followerCount followingCount viewerFollows }"
                }
                let before = try await server.statementCount()
                let answer = try await server.graphql("{ \(fields.joined(separator: " ")) }", token: users[1].token)
                #expect(answer["errors"].isNull, "\(answer)")
                #expect(answer["data"]["u0"]["followerCount"].int == 11 && answer["data"]["u1"]["followingCount"].int == 11, "\(answer)")
                return try await server.statementCount() - before
            }
            #expect(try await statements(2) == statements(12))
        }
    }

    @Test func writersAreFoundByWhatAUserTypes() async throws {
        try await TestServer.with(mounting: [Prolific.self]) { server in
            let ana = try await server.signUp("anastasia")
            _ = try await server.signUp("bartholomew")
            _ = try await server.sql("UPDATE users SET first_name = 'Mira', last_name = 'Okafor' WHERE username = 'bartholomew'")
            func found(_ query: String, first: Int = 10) async throws -> [String] {
                let answer = try await server.graphql(
                    "query($q: String!, $n: Int) { searchUsers(query: $q, first: $n) { username } }", ["q": query, "n": first],
                    token: ana.token)
                #expect(answer["errors"].isNull, "\(answer)")
                return answer["data"]["searchUsers"].array.compactMap { $0["username"].string }
            }
            #expect(try await found("ANAS") == ["anastasia"])
            #expect(try await found("anastasya") == ["anastasia"])
            #expect(try await found("mira ok") == ["bartholomew"])
            #expect(try await found("bartolomew") == ["bartholomew"])
            #expect(try await found("anastasia", first: 50) == ["anastasia"])
            for refused in ["{ searchUsers(query: \"a\", first: 51) { id } }", "{ searchUsers(query: \" \") { id } }"] {
                let answer = try await server.graphql(refused, token: ana.token)
                #expect(answer.errorCode == "BAD_USER_INPUT", "\(answer)")
            }
        }
    }
}
