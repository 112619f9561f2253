import Foundation
import PetMatch
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Swipes (one per user and pet, only on adoptable pets) and favourites
/// (right and super swipes, super first, removable without coming back
/// to the feed), each seen by its user only.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct SwipeAndFavoriteTests {
    typealias F = PetMatchFixtures
    static let favorites = "{ favoritePets(first: 10) { edges { isSuper node { id name viewerFavorite shelter { phone email } } } } }"

    @Test func swipesAreIdempotentAndMakeFavouritesSuperFirst() async throws {
        try await TestServer.with(mounting: [PetMatch.self]) { server in
            let users = try await server.makeUsers(3, prefix: "swipe")
            let (staff, viewer, other) = (users[0].token, users[1].token, users[2].token)
            let beagle = try await F.breed(server, "DOG", "Beagle")
            let shelter = try await F.shelter(server, token: staff, name: "Swipe Shelter", at: F.near)
            let first = try await F.pet(server, token: staff, shelter: shelter, name: "First", breed: beagle)
            let second = try await F.pet(server, token: staff, shelter: shelter, name: "Second", breed: beagle)
            let third = try await F.pet(server, token: staff, shelter: shelter, name: "Third", breed: beagle)
            for _ in 0..<2 {
                let reply = try await server.graphql(F.swipe, ["id": first, "direction": "RIGHT"], token: viewer)
                #expect(reply["data"]["swipePet"]["isFavorite"].bool == true, "\(reply)")
                #expect(reply["data"]["swipePet"]["pet"]["viewerSwipe"].string == "RIGHT")
            }
            _ = try await server.graphql(F.swipe, ["id": second, "direction": "SUPER"], token: viewer)
            _ = try await server.graphql(F.swipe, ["id": third, "direction": "RIGHT"], token: viewer)
            let rows = try await server.sql("SELECT count(*)::int FROM pet_swipes")
            #expect(try rows[0].decode(Int.self, at: 0) == 3)
            let favorites = try await server.graphql(Self.favorites, token: viewer)
            let listed = favorites["data"]["favoritePets"]["edges"].array
            #expect(listed.map { $0["node"]["name"].string } == ["Second", "Third", "First"], "\(favorites)")
            #expect(listed.map { $0["isSuper"].bool } == [true, false, false])
            #expect(listed[0]["node"]["shelter"]["email"].string == "hello@swipeshelter.example.org")
            // A left swipe after a right one takes the favourite away.
            _ = try await server.graphql(F.swipe, ["id": third, "direction": "LEFT"], token: viewer)
            // Removing keeps the swipe: the pet does not come back to the feed.
            let removed = try await server.graphql(
                "mutation($ids: [ID!]!) { removeFavoritePets(petIds: $ids) }", ["ids": [first, first, third]], token: viewer)
            #expect(removed["data"]["removeFavoritePets"].array.map(\.string) == [first], "\(removed)")
            let after = try await server.graphql(Self.favorites, token: viewer)
            #expect(after["data"]["favoritePets"]["edges"].array.map { $0["node"]["name"].string } == ["Second"])
            try await F.prefer(server, token: viewer, ["location": ["latitude": F.home.latitude, "longitude": F.home.longitude]])
            #expect(try await F.wholeFeed(server, token: viewer, first: 10).isEmpty)
            // Nobody else sees them.
            let theirs = try await server.graphql(
                "query($id: ID!) { pet(id: $id) { viewerSwipe viewerFavorite } favoritePets { edges { cursor } } }", ["id": second],
                token: other)
            #expect(theirs["data"]["pet"]["viewerSwipe"].isNull && theirs["data"]["pet"]["viewerFavorite"].bool == false, "\(theirs)")
            #expect(theirs["data"]["favoritePets"]["edges"].array.isEmpty)
        }
    }

    @Test func aPetNoLongerAdoptableOrUnknownIsRefusedWithNothingWritten() async throws {
        try await TestServer.with(mounting: [PetMatch.self]) { server in
            let users = try await server.makeUsers(2, prefix: "gone")
            let beagle = try await F.breed(server, "DOG", "Beagle")
            let shelter = try await F.shelter(server, token: users[0].token, name: "Gone Shelter", at: F.near)
            let pet = try await F.pet(server, token: users[0].token, shelter: shelter, name: "Adopted", breed: beagle)
            _ = try await server.graphql(
                "mutation($id: ID!) { setPetStatus(id: $id, status: ADOPTED) { id } }", ["id": pet], token: users[0].token)
            let refused = try await server.graphql(F.swipe, ["id": pet, "direction": "SUPER"], token: users[1].token)
            #expect(refused.errorCode == "BAD_USER_INPUT" && refused.errorMessage == "This pet is no longer up for adoption.", "\(refused)")
            let unknown = try await server.graphql(F.swipe, ["id": "UGV0Ojk5OTk5", "direction": "LEFT"], token: users[1].token)
            #expect(unknown.errorCode == "NOT_FOUND", "\(unknown)")
            let malformed = try await server.graphql(F.swipe, ["id": shelter, "direction": "LEFT"], token: users[1].token)
            #expect(malformed.errorCode == "BAD_USER_INPUT", "\(malformed)")
            let rows = try await server.sql("SELECT (SELECT count(*) FROM pet_swipes)::int + (SELECT count(*) FROM pet_favorites)::int")
            #expect(try rows[0].decode(Int.self, at: 0) == 0)
        }
    }

    @Test func concurrentSwipesOnOnePetByOneUserLeaveOneSwipe() async throws {
        try await TestServer.with(mounting: [PetMatch.self], workers: 2) { server in
            let users = try await server.makeUsers(2, prefix: "race")
            let beagle = try await F.breed(server, "DOG", "Beagle")
            let shelter = try await F.shelter(server, token: users[0].token, name: "Race Shelter", at: F.near)
            let pet = try await F.pet(server, token: users[0].token, shelter: shelter, name: "Raced", breed: beagle)
            let directions = ["LEFT", "RIGHT", "SUPER"]
            let replies = try await withThrowingTaskGroup(of: JSON.self) { group in
                for index in 0..<30 {
                    group.addTask {
                        try await server.graphql(F.swipe, ["id": pet, "direction": directions[index % 3]], token: users[1].token)
                    }
                }
                return try await group.reduce(into: [JSON]()) { $0.append($1) }
            }
            #expect(replies.allSatisfy { $0["errors"].isNull }, "\(replies.filter { !$0["errors"].isNull })")
            let rows = try await server.sql(
                """
                SELECT count(*)::int, min(direction), (SELECT count(*)::int FROM pet_favorites f WHERE f.pet_id = s.pet_id),
                       (SELECT bool_or(is_super) FROM pet_favorites f WHERE f.pet_id = s.pet_id)
                FROM pet_swipes s GROUP BY s.pet_id
                """)
            #expect(rows.count == 1)
            #expect(try rows[0].decode(Int.self, at: 0) == 1)
            // The favourite agrees with the swipe that won.
            let direction = try rows[0].decode(String.self, at: 1)
            #expect(try rows[0].decode(Int.self, at: 2) == (direction == "LEFT" ? 0 : 1))
            #expect(try rows[0].decode(Bool?.self, at: 3) == (direction == "LEFT" ? nil : direction == "SUPER"))
        }
    }
}
