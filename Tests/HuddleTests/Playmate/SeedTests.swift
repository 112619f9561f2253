import Foundation
import Testing

/// `huddle seed`: deterministic demo data that the API serves.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct SeedTests {
    @Test func demoDataIsDeterministicAndServed() async throws {
        let counts = try await TestDatabase.withScratchDatabase { url in
            let seeded = try HuddleCommand.run(["seed"], environment: ["DATABASE_URL": url])
            #expect(seeded.status == 0, "\(seeded.standardError)")
            let again = try HuddleCommand.run(["seed"], environment: ["DATABASE_URL": url])
            #expect(again.status == 1)
            #expect(again.standardError.contains("the database has users already"))

            let server = try await TestServer.start(databaseURL: url)
            defer { server.stop() }
            let login = try await server.graphql(#"mutation { logIn(username: "demo", password: "playmate-demo") { token } }"#)
            let token = try #require(login["data"]["logIn"]["token"].string, "\(login)")
            let me = try await server.graphql(
                """
                { me { friendCount } incomingFriendRequests { edges { node { from { username } } } }
                  receivedInvitations { edges { node { status } } } suggestedSessions(first: 3) { score }
                  sportsSessions(first: 50) { edges { node { occupied capacity players { id } } } } }
                """, token: token)
            #expect(me["data"]["me"]["friendCount"].int ?? 0 >= 10, "\(me)")
            #expect(me["data"]["incomingFriendRequests"]["edges"].array.count == 1)
            #expect(me["data"]["receivedInvitations"]["edges"].array.count == 2)
            let sessions = me["data"]["sportsSessions"]["edges"].array
            #expect(sessions.count == 50)
            #expect(
                sessions.allSatisfy {
                    ($0["node"]["occupied"].int ?? 0) >= 2 && $0["node"]["players"].array.count == $0["node"]["occupied"].int
                })
            return seeded.standardOutput
        }
        // The same rows every time.
        let secondCounts = try await TestDatabase.withScratchDatabase { url in
            try HuddleCommand.run(["seed", "--scale", "demo"], environment: ["DATABASE_URL": url]).standardOutput
        }
        #expect(counts == secondCounts)
        #expect(counts.hasPrefix("seeded 40 users, 12 locations, 60 sessions with "))
        #expect(try HuddleCommand.run(["seed", "--scale", "huge"]).status == 2)
    }
}
