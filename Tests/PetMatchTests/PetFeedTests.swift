import Foundation
import PetMatch
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// The swipe feed: adoptable pets matching the preferences within their
/// distance, never one already swiped, nearest shelter first then newest,
/// paged by cursor, with the reason when a page is empty.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct PetFeedTests {
    typealias F = PetMatchFixtures

    /// Shelters 5, 20 and 80 km from the viewer's home with dogs and a cat.
    struct World {
        var staff: String
        var viewer: String
        /// Pet ids by name.
        var pets: [String: String]
    }

    func world(_ server: TestServer) async throws -> World {
        let users = try await server.makeUsers(2, prefix: "feed")
        let staff = users[0].token
        let beagle = try await F.breed(server, "DOG", "Beagle")
        let siamese = try await F.breed(server, "CAT", "Siamese")
        let near = try await F.shelter(server, token: staff, name: "Near Rescue", at: F.near)
        let middle = try await F.shelter(server, token: staff, name: "Middle Rescue", at: F.middle)
        let far = try await F.shelter(server, token: staff, name: "Far Rescue", at: F.far)
        var pets: [String: String] = [:]
        // Listed in this order, so later ones are newer.
        for (name, shelter, type, breed) in [
            ("b1", middle, "DOG", beagle), ("a1", near, "DOG", beagle), ("c1", far, "DOG", beagle), ("a2", near, "CAT", siamese),
            ("b2", middle, "DOG", beagle), ("a3", near, "DOG", beagle),
        ] {
            pets[name] = try await F.pet(server, token: staff, shelter: shelter, name: name, type: type, breed: breed)
        }
        try await F.prefer(
            server, token: users[1].token,
            ["type": "DOG", "location": ["latitude": F.home.latitude, "longitude": F.home.longitude], "distanceKm": 50.0])
        return World(staff: staff, viewer: users[1].token, pets: pets)
    }

    func names(_ ids: [String], _ world: World) -> [String] {
        ids.map { id in world.pets.first { $0.value == id }?.key ?? id }
    }

    @Test func nearestShelterFirstThenNewestAndEveryPageSizeAgrees() async throws {
        try await TestServer.with(mounting: [PetMatch.self]) { server in
            let world = try await world(server)
            let whole = try await F.wholeFeed(server, token: world.viewer, first: 10)
            #expect(names(whole, world) == ["a3", "a1", "b2", "b1"])
            let paged = try await F.wholeFeed(server, token: world.viewer, first: 1)
            #expect(paged == whole)
            let first = try await server.graphql(F.feed, ["first": 1], token: world.viewer)
            let card = first["data"]["petMatches"]["edges"][0]["node"]
            #expect(card["shelter"]["name"].string == "Near Rescue")
            #expect(card["primaryBreed"]["name"].string == "Beagle")
            #expect(card["photos"][0].string == "https://example.org/a3.jpg")
            #expect((4.5...5.0).contains(card["distanceKm"].double ?? 0), "\(card)")
            // A wider distance reaches the far shelter; any type brings the cat.
            let wide = try await server.graphql(
                "mutation { updatePetPreferences(input: { type: null, distanceKm: 100 }) { type } }", token: world.viewer)
            #expect(wide["data"]["updatePetPreferences"]["type"].isNull, "\(wide)")
            let wider = try await F.wholeFeed(server, token: world.viewer, first: 2)
            #expect(names(wider, world) == ["a3", "a2", "a1", "b2", "b1", "c1"])
        }
    }

    @Test func swipedAndNoLongerAdoptablePetsLeaveTheFeedAndAnEmptyPageSaysWhy() async throws {
        try await TestServer.with(mounting: [PetMatch.self]) { server in
            let world = try await world(server)
            let swiped = try await server.graphql(F.swipe, ["id": world.pets["a3"]!, "direction": "LEFT"], token: world.viewer)
            #expect(swiped["data"]["swipePet"]["isFavorite"].bool == false, "\(swiped)")
            let status = try await server.graphql(
                "mutation($id: ID!) { setPetStatus(id: $id, status: PENDING) { status } }", ["id": world.pets["b2"]!], token: world.staff)
            #expect(status["data"]["setPetStatus"]["status"].string == "PENDING", "\(status)")
            #expect(names(try await F.wholeFeed(server, token: world.viewer, first: 10), world) == ["a1", "b1"])
            for name in ["a1", "b1"] {
                _ = try await server.graphql(F.swipe, ["id": world.pets[name]!, "direction": "RIGHT"], token: world.viewer)
            }
            let seen = try await server.graphql(F.feed, ["first": 10], token: world.viewer)
            #expect(seen["data"]["petMatches"]["edges"].array.isEmpty)
            #expect(seen["data"]["petMatches"]["emptyReason"].string == "ALL_SEEN", "\(seen)")
            try await F.prefer(server, token: world.viewer, ["type": "RABBIT"])
            let none = try await server.graphql(F.feed, ["first": 10], token: world.viewer)
            #expect(none["data"]["petMatches"]["emptyReason"].string == "NO_MATCHES", "\(none)")
        }
    }

    @Test func aPageCostsTheSameStatementsForOnePetAndForAll() async throws {
        try await TestServer.with(mounting: [PetMatch.self]) { server in
            let world = try await world(server)
            func cost(_ first: Int) async throws -> (Int, Int) {
                let query =
                    "query($first: Int) { petMatches(first: $first) { edges { node { id name photos shelter { name } primaryBreed { name } viewerSwipe viewerFavorite } } } }"
                _ = try await server.graphql(query, ["first": first], token: world.viewer)
                let before = try await server.statementCount()
                let reply = try await server.graphql(query, ["first": first], token: world.viewer)
                let after = try await server.statementCount()
                return (after - before, reply["data"]["petMatches"]["edges"].array.count)
            }
            let one = try await cost(1)
            let all = try await cost(20)
            #expect(one.1 == 1 && all.1 == 4)
            // The preferences, the page (shelters, photos and breeds come
            // with it; the viewer's swipes are known to be none); the token
            // was checked by the request before.
            #expect(one.0 == all.0 && one.0 == 2, "one pet: \(one.0) statements, four: \(all.0)")
        }
    }

    @Test func preferencesStartFromTheDefaultsAndRefuseBadInputWithNothingChanged() async throws {
        try await TestServer.with(mounting: [PetMatch.self]) { server in
            let user = try await server.makeUsers(1, prefix: "prefs")[0]
            let defaults = try await server.graphql(
                "{ petPreferences { type breeds { id } sizes distanceKm location { latitude } } }", token: user.token)
            #expect(defaults["data"]["petPreferences"]["distanceKm"].double == 50, "\(defaults)")
            #expect(defaults["data"]["petPreferences"]["type"].isNull)
            let cat = try await F.breed(server, "CAT", "Siamese")
            for (input, message) in [
                (["distanceKm": -1.0], "more than 0"), (["distanceKm": 0.0], "more than 0"), (["distanceKm": 500.5], "at most 500"),
                (["type": "DOG", "breeds": [cat]], "not a breed of DOG"), (["breeds": [cat]], "Choose a type"),
                (["breeds": ["QnJlZWQ6OTk5OQ"]], "No breed"), (["location": ["latitude": 91.0, "longitude": 0.0]], "Latitude"),
            ] as [([String: any Sendable], String)] {
                let reply = try await server.graphql(F.setPreferences, ["input": input], token: user.token)
                #expect(reply.errorCode == "BAD_USER_INPUT", "\(input): \(reply)")
                #expect(reply.errorMessage?.contains(message) == true, "\(input): \(reply)")
            }
            let rows = try await server.sql("SELECT count(*)::int FROM pet_preferences")
            #expect(try rows[0].decode(Int.self, at: 0) == 0)
            try await F.prefer(
                server, token: user.token, ["type": "CAT", "breeds": [cat], "distanceKm": 500.0, "sizes": ["SMALL", "SMALL"]])
            let set = try await server.graphql("{ petPreferences { type breeds { name } sizes distanceKm } }", token: user.token)
            #expect(set["data"]["petPreferences"]["breeds"][0]["name"].string == "Siamese")
            #expect(set["data"]["petPreferences"]["sizes"].array.count == 1)
            // A new type drops the old type's breeds.
            try await F.prefer(server, token: user.token, ["type": "DOG"])
            let changed = try await server.graphql("{ petPreferences { type breeds { name } } }", token: user.token)
            #expect(changed["data"]["petPreferences"]["breeds"].array.isEmpty, "\(changed)")
            let anonymous = try await server.graphql("{ petMatches { emptyReason } }")
            #expect(anonymous.errorCode == "UNAUTHENTICATED")
        }
    }
}
