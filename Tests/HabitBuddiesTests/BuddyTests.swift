import Foundation
import HabitBuddies
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Finding a buddy: candidates who share a habit, ranked, never oneself or
/// someone swiped; a right swipe both ways makes one pair, even at once; the
/// cap; only buddies see each other's progress.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct BuddyTests {
    typealias F = HabitBuddiesFixtures

    static let candidates = """
        { buddyCandidates { emptyReason cycling candidates { user { username } sharedHabits score previousSwipe } } }
        """

    @Test func candidatesShareAHabitRankedThenCycleAndAMutualRightSwipeMakesOnePair() async throws {
        try await TestServer.with(mounting: [HabitBuddies.self]) { server in
            let users = try await server.makeUsers(5, prefix: "bud")
            let (me, close, far, other, fresh) = (users[0], users[1], users[2], users[3], users[4])
            let empty = try await server.graphql(Self.candidates, token: me.token)
            #expect(empty["data"]["buddyCandidates"]["emptyReason"].string == "NO_HABITS", "\(empty)")
            _ = try await F.habit(server, token: me.token, "Read 20 pages", timeZone: "Europe/Berlin")
            let alone = try await server.graphql(Self.candidates, token: me.token)
            #expect(alone["data"]["buddyCandidates"]["emptyReason"].string == "NO_CANDIDATES", "\(alone)")
            _ = try await F.habit(server, token: me.token, "Practise a language", timeZone: "Europe/Berlin")
            // Two shared habits nearby beat one; one far away comes last; no shared habit: not a candidate.
            _ = try await F.habit(server, token: close.token, "Read 20 pages", timeZone: "Europe/Paris")
            _ = try await F.habit(server, token: close.token, "Practise a language", timeZone: "Europe/Paris")
            _ = try await F.habit(server, token: far.token, "Read 20 pages", timeZone: "Pacific/Auckland")
            _ = try await F.habit(server, token: other.token, "Cook at home", timeZone: "Europe/Berlin")
            _ = try await F.habit(server, token: fresh.token, "Practise a language", timeZone: "Europe/Berlin")
            let ranked = try await server.graphql(Self.candidates, token: me.token)
            let list = ranked["data"]["buddyCandidates"]["candidates"].array
            #expect(list.map { $0["user"]["username"].string } == ["bud1", "bud4", "bud2"], "\(ranked)")
            #expect(list[0]["sharedHabits"].array.map(\.string) == ["Practise a language", "Read 20 pages"])
            #expect(list[0]["score"].double.map { abs($0 - 8) < 0.01 } == true, "\(list[0])")

            // Left on two, right on one: they are not shown again until everyone has been swiped.
            _ = try await server.graphql(F.swipe, ["id": fresh.id, "direction": "LEFT"], token: me.token)
            let right = try await server.graphql(F.swipe, ["id": close.id, "direction": "RIGHT"], token: me.token)
            #expect(right["data"]["swipeBuddy"]["buddy"].isNull, "\(right)")
            let next = try await server.graphql(Self.candidates, token: me.token)
            #expect(next["data"]["buddyCandidates"]["candidates"].array.map { $0["user"]["username"].string } == ["bud2"], "\(next)")
            _ = try await server.graphql(F.swipe, ["id": far.id, "direction": "LEFT"], token: me.token)
            let cycling = try await server.graphql(Self.candidates, token: me.token)
            #expect(cycling["data"]["buddyCandidates"]["cycling"].bool == true, "\(cycling)")
            #expect(
                cycling["data"]["buddyCandidates"]["candidates"].array.map { $0["previousSwipe"].string } == ["LEFT", "RIGHT", "LEFT"],
                "\(cycling)")
            // Oneself is never a buddy.
            let own = try await server.graphql(F.swipe, ["id": me.id, "direction": "RIGHT"], token: me.token)
            #expect(own["errors"][0]["extensions"]["code"].string == "BAD_USER_INPUT", "\(own)")

            // The right swipe back makes the pair; both hear of it; again changes nothing.
            let back = try await server.graphql(F.swipe, ["id": me.id, "direction": "RIGHT"], token: close.token)
            #expect(back["data"]["swipeBuddy"]["buddy"]["user"]["username"].string == "bud0", "\(back)")
            let again = try await server.graphql(F.swipe, ["id": me.id, "direction": "RIGHT"], token: close.token)
            #expect(again["data"]["swipeBuddy"]["buddy"]["user"]["username"].string == "bud0", "\(again)")
            #expect(try await server.sql("SELECT count(*)::int FROM buddy_pairs")[0].decode(Int.self, at: 0) == 1)
            for user in [me, close] {
                let count = try await server.graphql("{ notifications { edges { node { kind } } } }", token: user.token)
                #expect(count["data"]["notifications"]["edges"].array.filter { $0["node"]["kind"].string == "BUDDY_MATCHED" }.count == 1)
            }
            let after = try await server.graphql(Self.candidates, token: me.token)
            #expect(!after["data"]["buddyCandidates"]["candidates"].array.contains { $0["user"]["username"].string == "bud1" }, "\(after)")

            // Only buddies see each other's habits and progress.
            let seen = try await server.graphql(
                "query($a: ID!, $b: ID!) { a: node(id: $a) { ... on User { isBuddy habits { name currentStreak } } } b: node(id: $b) { ... on User { isBuddy habits { name } } } }",
                ["a": close.id, "b": far.id], token: me.token)
            #expect(seen["data"]["a"]["isBuddy"].bool == true, "\(seen)")
            #expect(seen["data"]["a"]["habits"].array.count == 2)
            #expect(seen["data"]["b"]["isBuddy"].bool == false)
            #expect(seen["data"]["b"]["habits"].array.isEmpty)
        }
    }

    @Test func mutualRightSwipesAtTheSameInstantMakeOnePair() async throws {
        try await TestServer.with(mounting: [HabitBuddies.self], workers: 2) { server in
            let users = try await server.makeUsers(20, prefix: "race")
            for user in users { _ = try await F.habit(server, token: user.token, "Tidy for 15 minutes") }
            // Ten pairs, each swiping right on the other at once.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for pair in stride(from: 0, to: 20, by: 2) {
                    for (swiper, other) in [(users[pair], users[pair + 1]), (users[pair + 1], users[pair])] {
                        group.addTask {
                            let reply = try await server.graphql(F.swipe, ["id": other.id, "direction": "RIGHT"], token: swiper.token)
                            #expect(reply["errors"].isNull, "\(reply)")
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await server.sql("SELECT count(*)::int FROM buddy_pairs")[0].decode(Int.self, at: 0) == 10)
            let notices = try await server.sql("SELECT count(*)::int FROM notifications WHERE kind = 'BUDDY_MATCHED'")
            #expect(try notices[0].decode(Int.self, at: 0) == 20)
        }
    }

    @Test func theCapOnBuddiesAtAndOverItsSetting() async throws {
        try await TestDatabase.withScratchDatabase { url in
            let server = try await TestServer.start(databaseURL: url, mounting: [HabitBuddies.self], settings: ["max-buddies=1"])
            defer { server.stop() }
            let users = try await server.makeUsers(3, prefix: "cap")
            for user in users { _ = try await F.habit(server, token: user.token, "Write in a journal") }
            try await F.pair(server, users[0], users[1])
            let full = try await server.graphql(BuddyTests.candidates, token: users[0].token)
            #expect(full["data"]["buddyCandidates"]["emptyReason"].string == "BUDDY_LIMIT_REACHED", "\(full)")
            // At the cap, a right swipe is refused; the other one's right swipe makes no pair.
            let over = try await server.graphql(F.swipe, ["id": users[2].id, "direction": "RIGHT"], token: users[0].token)
            #expect(over["errors"][0]["extensions"]["code"].string == "BAD_USER_INPUT", "\(over)")
            let theirs = try await server.graphql(F.swipe, ["id": users[0].id, "direction": "RIGHT"], token: users[2].token)
            #expect(theirs["data"]["swipeBuddy"]["buddy"].isNull, "\(theirs)")
            #expect(try await server.sql("SELECT count(*)::int FROM buddy_pairs")[0].decode(Int.self, at: 0) == 1)
            let profile = try await server.graphql("{ habitDashboard { profile { buddyCount maxBuddies } } }", token: users[0].token)
            #expect(profile["data"]["habitDashboard"]["profile"]["maxBuddies"].int == 1, "\(profile)")
            // Ending the pair makes room again.
            let ended = try await server.graphql(
                "mutation($id: ID!) { removeBuddy(userId: $id) }", ["id": users[1].id], token: users[0].token)
            #expect(ended["data"]["removeBuddy"].bool == true, "\(ended)")
            let now = try await server.graphql(F.swipe, ["id": users[2].id, "direction": "RIGHT"], token: users[0].token)
            #expect(now["data"]["swipeBuddy"]["buddy"]["user"]["username"].string == "cap2", "\(now)")
        }
    }
}
