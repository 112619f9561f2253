import Foundation
import HuddlePostgres
import HuddleRuntime
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

@testable import PetMatch

/// The feed measures and orders shelters in the process: to the last bit
/// as earthdistance does in SQL, and never from a copy older than the
/// table.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct ShelterDirectoryTests {
    typealias F = PetMatchFixtures

    @Test func distancesAreEarthdistancesToTheLastBit() async throws {
        try await TestDatabase.withScratchDatabase { url in
            try await EventLoop.withOwnThread { loop in
                let pool = PostgresPool(TestDatabase.configuration(url: url), on: loop)
                _ = try await pool.query("CREATE EXTENSION IF NOT EXISTS earthdistance CASCADE")
                // Points all over the globe (poles, date line, antipodes), from every origin.
                let rows = try await pool.query(
                    """
                    WITH points AS (
                        SELECT (random() * 180 - 90)::float8 AS lat, (random() * 360 - 180)::float8 AS lon FROM generate_series(1, 300)
                        UNION ALL VALUES (90, 0), (-90, 0), (0, 180), (0, -180), (40.6782, -73.9442), (40.72, -73.9442), (-40.6782, 106.0558))
                    SELECT a.lat, a.lon, b.lat, b.lon, earth_distance(ll_to_earth(a.lat, a.lon), ll_to_earth(b.lat, b.lon))
                    FROM points a, (SELECT * FROM points ORDER BY random() LIMIT 40) b
                    """)
                var compared = 0
                for row in rows {
                    let (latitude, longitude): (Double, Double) = (try row.decode(at: 0), try row.decode(at: 1))
                    let a = EarthPoint(latitude: latitude, longitude: longitude)
                    let b = EarthPoint(latitude: try row.decode(at: 2), longitude: try row.decode(at: 3))
                    let sql: Double = try row.decode(at: 4)
                    #expect(a.distance(to: b) == sql, "from \(latitude), \(longitude)")
                    compared += 1
                }
                #expect(compared == 307 * 40)
                await pool.close()
            }
        }
    }

    @Test func aShelterMovedOutOfReachLeavesTheFeedOfEveryProcess() async throws {
        try await TestServer.withTwo(mounting: [PetMatch.self]) { first, second in
            let users = try await first.makeUsers(2, prefix: "moved")
            let beagle = try await F.breed(first, "DOG", "Beagle")
            let near = try await F.shelter(first, token: users[0].token, name: "Near Rescue", at: F.near)
            let far = try await F.shelter(first, token: users[0].token, name: "Far Rescue", at: F.far)
            let rex = try await F.pet(first, token: users[0].token, shelter: near, name: "Rex", type: "DOG", breed: beagle)
            let max = try await F.pet(first, token: users[0].token, shelter: far, name: "Max", type: "DOG", breed: beagle)
            try await F.prefer(
                first, token: users[1].token,
                ["type": "DOG", "location": ["latitude": F.home.latitude, "longitude": F.home.longitude], "distanceKm": 50.0])
            for server in [first, second] {
                #expect(try await F.wholeFeed(server, token: users[1].token, first: 5) == [rex])
            }
            // Staff move the near shelter out of reach on one process, and the far one within it by SQL.
            let moved = try await first.graphql(
                """
                mutation($id: ID!) { updateShelter(id: $id, input: { name: "Near Rescue", email: "hello@near.example.org",
                  city: "Paris", location: { latitude: 48.85, longitude: 2.35 } }) { id } }
                """, ["id": near], token: users[0].token)
            #expect(moved["errors"].isNull, "\(moved)")
            _ = try await first.sql("UPDATE shelters SET latitude = 40.80 WHERE name = 'Far Rescue'")
            for server in [first, second] {
                var feed: [String] = []
                for _ in 0..<100 {
                    feed = try await F.wholeFeed(server, token: users[1].token, first: 5)
                    if feed == [max] { break }
                    try await Task.sleep(for: .milliseconds(20))
                }
                #expect(feed == [max])
                let card = try await server.graphql(F.feed, ["first": 1], token: users[1].token)["data"]["petMatches"]["edges"][0]["node"]
                #expect(card["shelter"]["name"].string == "Far Rescue")
                #expect((13.0...14.0).contains(card["distanceKm"].double ?? 0), "\(card)")
            }
        }
    }

    /// With `shelters-in-memory=0` PostgreSQL's GiST index orders the
    /// shelters: the same feed, page by page, distances and all.
    @Test func postgreSQLsOrderAndTheProcesssAreTheSame() async throws {
        try await TestDatabase.withScratchDatabase { url in
            let memory = try await TestServer.start(databaseURL: url, mounting: [PetMatch.self])
            defer { memory.stop() }
            let index = try await TestServer.start(databaseURL: url, mounting: [PetMatch.self], settings: ["shelters-in-memory=0"])
            defer { index.stop() }
            let users = try await memory.makeUsers(2, prefix: "order")
            let beagle = try await F.breed(memory, "DOG", "Beagle")
            for (number, point) in [F.near, F.middle, F.far, F.near, F.home].enumerated() {
                let shelter = try await F.shelter(memory, token: users[0].token, name: "Rescue \(number)", at: point)
                for pet in 0..<3 {
                    _ = try await F.pet(
                        memory, token: users[0].token, shelter: shelter, name: "Dog\(number)x\(pet)", type: "DOG", breed: beagle)
                }
            }
            try await F.prefer(
                memory, token: users[1].token,
                ["type": "DOG", "location": ["latitude": F.home.latitude, "longitude": F.home.longitude], "distanceKm": 100.0])
            for first in [1, 2, 5, 20] {
                let fromMemory = try await F.wholeFeed(memory, token: users[1].token, first: first)
                #expect(fromMemory.count == 15)
                #expect(try await F.wholeFeed(index, token: users[1].token, first: first) == fromMemory, "pages of \(first)")
            }
            let page = "{ petMatches(first: 20) { edges { cursor node { id distanceKm shelter { id distanceKm } } } } }"
            let a = try await memory.graphql(page, token: users[1].token)
            #expect(a["errors"].isNull, "\(a)")
            #expect(try await index.graphql(page, token: users[1].token) == a)
        }
    }
}
