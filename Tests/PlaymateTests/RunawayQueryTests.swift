import Foundation
import Playmate
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// The queries that took the server's time, sent to `huddle serve`: a
/// fragment spread at two depths stops where it asks to (it once recursed
/// through friendships without end), and nested pages of 100 are refused
/// before anything runs.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct RunawayQueryTests {
    @Test func aFragmentSpreadAtTwoDepthsGoesOnlyAsDeepAsAsked() async throws {
        try await TestServer.with(mounting: [Playmate.self]) { server in
            let users = try await server.makeUsers(2, prefix: "loop")
            let (ann, bo) = (rowID(users[0].id), rowID(users[1].id))
            // Friendships go both ways: a walk through `friends` never ends by itself.
            _ = try await server.sql("INSERT INTO friendships (user_id, friend_id) VALUES (\(ann), \(bo)), (\(bo), \(ann))")
            let reply = try await server.graphql(
                """
                { me { ...F friends(first: 1) { edges { node { ...F } } } } }
                fragment F on User { id friends(first: 1) { edges { node { id } } } }
                """, token: users[0].token)
            #expect(reply["errors"].isNull, "\(reply)")
            let bo1 = reply["data"]["me"]["friends"]["edges"][0]["node"]
            #expect(bo1["id"].string == users[1].id)
            let ann2 = bo1["friends"]["edges"][0]["node"]
            #expect(ann2["id"].string == users[0].id)
            // Asked for two levels of friends: the third is not there.
            #expect(ann2["friends"].isNull)
            #expect(ann2 == .object(["id": .string(users[0].id)]))
        }
    }

    @Test func nestedPagesOfAHundredAreRefusedBeforeTheyRun() async throws {
        try await TestServer.with(mounting: [Playmate.self]) { server in
            let users = try await server.makeUsers(3, prefix: "deep")
            var selection = "id"
            for _ in 0..<8 { selection = "friends(first: 100) { edges { node { \(selection) } } }" }
            // Each user's first request, so each token is looked up once. A
            // statement still finishing from before (a readiness check a slow
            // start left behind) can only add to a count: the least of three
            // is the request's own.
            var counts: [Int] = []
            for user in users {
                let before = try await server.statementCount()
                let reply = try await server.graphql("{ me { \(selection) } }", token: user.token)
                #expect(reply.errorCode == "COST_LIMIT_EXCEEDED")
                #expect(reply["errors"][0]["extensions"]["limit"].int == 50_000)
                #expect(reply["data"].isNull)
                counts.append(try await server.statementCount() - before)
            }
            // Only the token was looked up: no resolver ran.
            #expect(counts.min() == 1, "\(counts)")
        }
    }
}
