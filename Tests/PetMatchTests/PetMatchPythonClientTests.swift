import Foundation
import PetMatch
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Python's `gql`, as the petMatch app: the feed, a right swipe and the
/// favourites over HTTP, then `favoritePetUpdated` over graphql-transport-ws
/// and graphql-ws at once while the shelter adopts the pet out.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct PetMatchPythonClientTests {
    typealias F = PetMatchFixtures

    @Test func gqlSwipesAFavouriteAndHearsItAdoptedOverBothSubprotocols() async throws {
        try await TestServer.with(mounting: [PetMatch.self]) { server in
            let users = try await server.makeUsers(2, prefix: "pypet")
            let (staff, fan) = (users[0].token, users[1].token)
            let beagle = try await F.breed(server, "DOG", "Beagle")
            let shelter = try await F.shelter(server, token: staff, name: "Harbour Rescue", at: F.near)
            _ = try await F.pet(server, token: staff, shelter: shelter, name: "Biscuit", breed: beagle)
            let pepper = try await F.pet(server, token: staff, shelter: shelter, name: "Pepper", breed: beagle)
            try await F.prefer(
                server, token: fan,
                ["type": "DOG", "location": ["latitude": F.home.latitude, "longitude": F.home.longitude], "distanceKm": 25.0])

            let client = try ClientProcess.python("petmatch_client.py", ["\(server.port)", fan])
            try await waitForSubscriptions(2, server: server)
            let adopted = try await server.graphql(
                "mutation($id: ID!) { setPetStatus(id: $id, status: ADOPTED) { status } }", ["id": pepper], token: staff)
            #expect(adopted["errors"].isNull, "\(adopted)")
            let outcome = try await client.finished()
            #expect(outcome.status == 0, "\(outcome.errors)")
            let update = "FAVORITE_PET_STATUS_CHANGED Pepper ADOPTED: Pepper has been adopted."
            #expect(
                outcome.output == """
                    feed Pepper at Harbour Rescue, Biscuit at Harbour Rescue
                    swiped right, favourite: True
                    favourites Pepper
                    feed after Biscuit
                    graphql-transport-ws \(update)
                    graphql-ws \(update)

                    """)
        }
    }
}
