import Foundation
import GraphQL
import PetMatch
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// When staff change a favourite pet, everyone who favourited it hears of
/// it: an inbox notice and `favoritePetUpdated`, from whichever server
/// process made the change, and missed ones caught up with `after`.
@Suite(.enabled(if: TestDatabase.available), .serialized, .hangGuard)
struct FavoritePetLiveTests {
    typealias F = PetMatchFixtures

    @Test func aStatusChangeThroughOneServerReachesAFavouriterSubscribedToTheOther() async throws {
        try await TestServer.withTwo(mounting: [PetMatch.self]) { first, second in
            let users = try await first.makeUsers(3, prefix: "fav")
            let (staff, fan, bystander) = (users[0], users[1], users[2])
            let beagle = try await F.breed(first, "DOG", "Beagle")
            let shelter = try await F.shelter(first, token: staff.token, name: "Live Shelter", at: F.near)
            let pet = try await F.pet(first, token: staff.token, shelter: shelter, name: "Lucky", breed: beagle)
            _ = try await first.graphql(F.swipe, ["id": pet, "direction": "SUPER"], token: fan.token)
            _ = try await first.graphql(F.swipe, ["id": pet, "direction": "LEFT"], token: bystander.token)

            let client = try subscriber(port: second.port, token: fan.token)
            client.send(
                #"{"id":"1","type":"subscribe","payload":{"query":"subscription { favoritePetUpdated { kind pet { name status } notification { id message } } }"}}"#
            )
            try await waitForSubscriptions(1, server: second)
            let changed = try await first.graphql(
                "mutation($id: ID!) { setPetStatus(id: $id, status: ADOPTED) { status } }", ["id": pet], token: staff.token)
            #expect(changed["errors"].isNull, "\(changed)")
            let event = try #require(client.next()?.text)
            let message = JSON(try JSONReader().read(event))
            let update = message["payload"]["data"]["favoritePetUpdated"]
            #expect(update["kind"].string == "FAVORITE_PET_STATUS_CHANGED", "\(event)")
            #expect(update["pet"]["status"].string == "ADOPTED" && update["notification"]["message"].string == "Lucky has been adopted.")

            // A detail change while nobody listens is caught up with `after`.
            let edited = try await first.graphql(
                "mutation($id: ID!) { updatePet(id: $id, input: { description: \"Found a home!\" }) { id } }", ["id": pet],
                token: staff.token)
            #expect(edited["errors"].isNull, "\(edited)")
            let catchUp = try subscriber(port: second.port, token: fan.token)
            catchUp.send(
                #"{"id":"2","type":"subscribe","payload":{"query":"subscription($after: ID) { favoritePetUpdated(after: $after) { kind pet { description } } }","variables":{"after":"\#(update["notification"]["id"].string ?? "")"}}}"#
            )
            let missed = JSON(try JSONReader().read(try #require(catchUp.next()?.text)))
            #expect(missed["payload"]["data"]["favoritePetUpdated"]["kind"].string == "FAVORITE_PET_UPDATED", "\(missed)")
            #expect(missed["payload"]["data"]["favoritePetUpdated"]["pet"]["description"].string == "Found a home!")
            // The inbox has them; the one who swiped left heard nothing.
            let inbox = try await first.graphql("{ notifications { edges { node { kind pet { name } } } } }", token: fan.token)
            #expect(inbox["data"]["notifications"]["edges"].array.count == 2, "\(inbox)")
            let none = try await first.graphql("{ unreadNotificationCount }", token: bystander.token)
            #expect(none["data"]["unreadNotificationCount"].int == 0)
        }
    }
}
