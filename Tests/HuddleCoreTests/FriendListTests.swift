import Foundation
import HuddleRuntime
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Friend lists inside lists: every user's page in one statement, whatever
/// the number of users, with the same pages, cursors and counts as one
/// user's list read alone.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct FriendListTests {
    static let friendsOfFriends = """
        query($first: Int!, $after: String) { me { friends(first: 10) { totalCount edges { node { username
          friends(first: $first, after: $after) { totalCount edges { cursor node { username } } pageInfo { hasNextPage endCursor } } } } } } }
        """

    /// Friendships both ways between the numbered users, by index into `users`.
    static func befriend(_ pairs: [(Int, Int)], _ server: TestServer, prefix: String) async throws {
        for (a, b) in pairs {
            _ = try await server.sql(
                """
                INSERT INTO friendships (user_id, friend_id)
                SELECT x.id, y.id FROM users x, users y
                WHERE (x.username, y.username) IN (($1, $2), ($2, $1))
                """, ["\(prefix)\(a)", "\(prefix)\(b)"])
        }
    }

    @Test func friendsOfFriendsCostTheSameStatementsForTwoFriendsAsForSix() async throws {
        try await TestServer.with { server in
            let users = try await server.makeUsers(10, prefix: "fof")
            // fof0's friends: fof1 and fof2 at first; each of those has friends of their own.
            try await Self.befriend([(0, 1), (0, 2), (1, 3), (1, 4), (1, 5), (1, 6), (2, 7)], server, prefix: "fof")
            // The server checks fof0's token once and then keeps it.
            _ = try await server.graphql("{ me { id } }", token: users[0].token)
            var statements: [Int] = []
            for round in 0..<2 {
                if round == 1 { try await Self.befriend([(0, 3), (0, 4), (0, 5), (0, 6)], server, prefix: "fof") }
                let before = try await server.statementCount()
                let reply = try await server.graphql(Self.friendsOfFriends, ["first": 3], token: users[0].token)
                statements.append(try await server.statementCount() - before)
                let friends = reply["data"]["me"]["friends"]
                #expect(friends["totalCount"].int == (round == 0 ? 2 : 6), "\(reply)")
                // fof1: friends fof0, fof3, fof4, fof5, fof6 in username order, three to a page.
                let fof1 = friends["edges"].array.first { $0["node"]["username"].string == "fof1" }?["node"]["friends"]
                #expect(fof1?["totalCount"].int == 5)
                #expect(fof1?["edges"].array.map { $0["node"]["username"].string } == ["fof0", "fof3", "fof4"])
                #expect(fof1?["pageInfo"]["hasNextPage"].bool == true)
                let fof2 = friends["edges"].array.first { $0["node"]["username"].string == "fof2" }?["node"]["friends"]
                #expect(fof2?["edges"].array.map { $0["node"]["username"].string } == ["fof0", "fof7"])
                #expect(fof2?["pageInfo"]["hasNextPage"].bool == false)
                // A cursor from the batched read pages on as one from a single read would.
                let after = try #require(fof1?["pageInfo"]["endCursor"].string)
                let next = try await server.graphql(Self.friendsOfFriends, ["first": 3, "after": after], token: users[0].token)
                let fof1Next = next["data"]["me"]["friends"]["edges"].array.first { $0["node"]["username"].string == "fof1" }?["node"][
                    "friends"]
                #expect(fof1Next?["edges"].array.map { $0["node"]["username"].string } == ["fof5", "fof6"], "\(next)")
            }
            // Me, then per level the friend pages and the counts: the same
            // for six friends as for two (the token was checked before).
            #expect(statements[0] == statements[1], "\(statements)")
            #expect(statements[0] <= 5, "\(statements)")
        }
    }
}
