import Foundation
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// `huddle seed`: deterministic demo data that the API serves.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct SeedTests {
    /// A global id as the server writes them (base64url without padding).
    static func globalID(_ plain: String) -> String {
        Data(plain.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    @Test func demoDataIsDeterministicAndServed() async throws {
        let counts = try await TestDatabase.withScratchDatabase { url in
            let seeded = try HuddleCommand.run(["seed"], environment: ["DATABASE_URL": url])
            #expect(seeded.status == 0, "\(seeded.standardError)")
            let again = try HuddleCommand.run(["seed"], environment: ["DATABASE_URL": url])
            #expect(again.status == 1)
            #expect(again.standardError.contains("the database has users already"))

            let server = try await TestServer.launch(databaseURL: url)
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
            // Places where their names are; past sessions, so statistics are not all zero.
            let demo = try await server.graphql(
                """
                { searchLocations(query: "Central Park") { name latitude longitude }
                  me { statistics { sessionsPlayed hoursPlayed } } sessionSuggestions { emptyReason } }
                """, token: token)
            let park = demo["data"]["searchLocations"].array.first { $0["name"].string == "Central Park" }
            #expect(abs((park?["latitude"].double ?? 0) - 40.78) < 0.01 && abs((park?["longitude"].double ?? 0) + 73.97) < 0.01, "\(demo)")
            #expect(demo["data"]["me"]["statistics"]["sessionsPlayed"].int ?? 0 > 0, "\(demo)")
            #expect(demo["data"]["me"]["statistics"]["hoursPlayed"].double ?? 0 > 0)
            let sessions = me["data"]["sportsSessions"]["edges"].array
            // 45 of the 60 are to come; the others are over.
            #expect(sessions.count == 45)
            #expect(
                sessions.allSatisfy {
                    ($0["node"]["occupied"].int ?? 0) >= 2 && $0["node"]["players"].array.count == $0["node"]["occupied"].int
                })
            // Pictures the server serves: the demo account's, a pet's card, a project's cover.
            let pictures = try await server.graphql(
                """
                { me { avatar(size: THUMBNAIL, format: JPEG) }
                  pet(id: "\(Self.globalID("Pet:1"))") { photos(size: FEED, format: WEBP) }
                  project(id: "\(Self.globalID("Project:1"))") { cover(size: FULL) } }
                """, token: token)
            let paths = [
                pictures["data"]["me"]["avatar"].string, pictures["data"]["pet"]["photos"].array.first?.string,
                pictures["data"]["project"]["cover"].string,
            ]
            #expect(paths.allSatisfy { $0?.hasPrefix("/media/") == true }, "\(pictures)")
            for path in paths.compactMap(\.self) {
                let served = try curlFetch("http://127.0.0.1:\(server.port)\(path)")
                #expect(served.status == 200 && served.headers["content-type"]?.hasPrefix("image/") == true, "\(path)")
            }
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

    /// `--apps` seeds the shared accounts and only the named apps, which is
    /// what a benchmark of one screen needs. (The bench scale, which seeds
    /// the apps at once, is what `scripts/bench/dataset.sh` runs: minutes of
    /// both cores, too much for the test command.)
    /// A seed that failed rolled its rows back but not its sequences; the
    /// next seed of the still-empty database must not trip over the ids
    /// they skipped (every later `huddle serve` failed on that).
    @Test func aSeedAfterAFailedOneStartsTheIdsAgain() async throws {
        try await TestDatabase.withScratchDatabase { url in
            let migrated = try HuddleCommand.run(["migrate"], environment: ["DATABASE_URL": url])
            #expect(migrated.status == 0, "\(migrated.standardError)")
            // What a failed seed leaves: ids taken, no rows.
            try await TestDatabase.withPool(url: url) { pool, _ in
                _ = try await pool.query("SELECT nextval(pg_get_serial_sequence('users', 'id')) FROM generate_series(1, 40)")
                _ = try await pool.query("SELECT nextval(pg_get_serial_sequence('locations', 'id')) FROM generate_series(1, 12)")
            }
            let seeded = try HuddleCommand.run(["seed"], environment: ["DATABASE_URL": url])
            #expect(seeded.status == 0, "\(seeded.standardError)")
            #expect(seeded.standardOutput.hasPrefix("seeded 40 users"), "\(seeded.standardOutput)")
        }
    }

    @Test func seedsOnlyTheNamedApps() async throws {
        let unknown = try HuddleCommand.run(["seed", "--apps", "playmate,chess"])
        #expect(unknown.status == 2)
        #expect(unknown.standardError.contains("no app named chess"), "\(unknown.standardError)")
        try await TestDatabase.withScratchDatabase { url in
            let seeded = try HuddleCommand.run(["seed", "--apps", "prolific, Playmate"], environment: ["DATABASE_URL": url])
            #expect(seeded.status == 0, "\(seeded.standardError)")
            #expect(seeded.standardOutput.hasPrefix("seeded 40 users, 12 locations, 60 sessions with "), "\(seeded.standardOutput)")
            #expect(seeded.standardOutput.contains(" projects, "))
            #expect(!seeded.standardOutput.contains("shelters") && !seeded.standardOutput.contains("check-ins"), "\(seeded.standardOutput)")
            let server = try await TestServer.launch(databaseURL: url)
            defer { server.stop() }
            let answer = try await server.graphql(
                "{ sportsSessions(first: 2) { edges { node { id } } } projects(first: 1) { edges { node { id } } } }")
            #expect(answer["data"]["sportsSessions"]["edges"].array.count == 2, "\(answer)")
            #expect(answer["data"]["projects"]["edges"].array.count == 1, "\(answer)")
            let pets = try await server.sql("SELECT count(*)::int FROM pets")[0].decode(Int.self, at: 0)
            #expect(pets == 0)
        }
    }
}
