import Foundation
import PetMatch
import PostgresTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// A favourite pet adopted reaches its fans' Android phones through FCM's
/// HTTP v1 API (the stand-in checks the OAuth2 exchange and the message),
/// while a fan who turned that kind off hears of it in the inbox only; a
/// pet's detail edits are promotional and capped per day.
@Suite(.enabled(if: TestDatabase.available), .hangGuard, .serialized)
struct AdoptionPushTests {
    typealias F = PetMatchFixtures

    @Test func anAdoptionIsPushedToFansWhoWantIt() async throws {
        let services = try PushServices()
        try await TestServer.with(mounting: [PetMatch.self], pushing(to: services)) { server in
            let users = try await server.makeUsers(3, prefix: "fcm")
            let (staff, fan, quiet) = (users[0], users[1], users[2])
            let beagle = try await F.breed(server, "DOG", "Beagle")
            let shelter = try await F.shelter(server, token: staff.token, name: "Push Shelter", at: F.near)
            let pet = try await F.pet(server, token: staff.token, shelter: shelter, name: "Lucky", breed: beagle)
            for user in [fan, quiet] {
                _ = try await server.graphql(F.swipe, ["id": pet, "direction": "SUPER"], token: user.token)
                let reply = try await server.graphql(
                    registerPushEndpoint, ["input": ["fcm": ["token": "fcm-\(user.id)"]]], token: user.token)
                #expect(reply.errorCode == nil, "\(reply)")
            }
            let off = try await server.graphql(
                "mutation { setNotificationPreference(kind: FAVORITE_PET_STATUS_CHANGED, push: false) { push } }", token: quiet.token)
            #expect(off["data"]["setNotificationPreference"]["push"].bool == false, "\(off)")
            let changed = try await server.graphql(
                "mutation($id: ID!) { setPetStatus(id: $id, status: ADOPTED) { status } }", ["id": pet], token: staff.token)
            #expect(changed["errors"].isNull, "\(changed)")

            let message = try #require(try await services.waitFor(1, of: "fcm").first?["message"] as? [String: Any])
            #expect(message["token"] as? String == "fcm-\(fan.id)", "\(message)")
            #expect((message["notification"] as? [String: Any])?["body"] as? String == "Lucky has been adopted.", "\(message)")
            #expect((message["data"] as? [String: Any])?["kind"] as? String == "FAVORITE_PET_STATUS_CHANGED")
            #expect((message["android"] as? [String: Any])?["ttl"] as? String == "86400s", "\(message)")
            #expect(try await services.waitFor(2, of: "webhook").count == 2)

            // Detail edits are promotional: at most the setting's number a day.
            for number in 1...4 {
                _ = try await server.graphql(
                    "mutation($id: ID!, $d: String!) { updatePet(id: $id, input: { description: $d }) { id } }",
                    ["id": pet, "d": "Edit \(number)"], token: staff.token)
            }
            #expect(try await services.waitFor(10, of: "webhook").count == 10)
            for _ in 0..<100 {
                let left = try await server.sql("SELECT count(*)::int FROM scheduled_jobs WHERE kind = 'notice.deliver'")[0].decode(
                    Int.self, at: 0)
                if left == 0 { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            let pushed = try services.received().filter { $0["service"] as? String == "fcm" }.compactMap {
                (($0["message"] as? [String: Any])?["data"] as? [String: Any])?["kind"] as? String
            }
            // The fan: the adoption and three edits; the quiet fan the three edits only (the kind turned off is the adoption).
            #expect(pushed.filter { $0 == "FAVORITE_PET_UPDATED" }.count == 6, "\(pushed)")
            #expect(pushed.filter { $0 == "FAVORITE_PET_STATUS_CHANGED" }.count == 1, "\(pushed)")
            let dropped = try await server.sql("SELECT count(*)::int FROM notice_deliveries WHERE state = 'dropped'")[0].decode(
                Int.self, at: 0)
            #expect(dropped == 2, "the fourth edit to each fan")
        }
    }

    /// Deliveries run four at a time; a burst of promotional notices for one
    /// user still pushes the cap's number and no more (each delivery takes
    /// its place under the user's lock).
    @Test func aBurstOfPromotionalNoticesStopsAtTheCap() async throws {
        let services = try PushServices()
        try await TestServer.with(mounting: [PetMatch.self], pushing(to: services)) { server in
            let users = try await server.makeUsers(2, prefix: "burst")
            let (staff, fan) = (users[0], users[1])
            let beagle = try await F.breed(server, "DOG", "Beagle")
            let shelter = try await F.shelter(server, token: staff.token, name: "Burst Shelter", at: F.near)
            let pet = try await F.pet(server, token: staff.token, shelter: shelter, name: "Sunny", breed: beagle)
            _ = try await server.graphql(F.swipe, ["id": pet, "direction": "SUPER"], token: fan.token)
            let reply = try await server.graphql(
                registerPushEndpoint, ["input": ["fcm": ["token": "fcm-burst-\(fan.id)"]]], token: fan.token)
            #expect(reply.errorCode == nil, "\(reply)")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for number in 1...12 {
                    group.addTask {
                        let edited = try await server.graphql(
                            "mutation($id: ID!, $d: String!) { updatePet(id: $id, input: { description: $d }) { id } }",
                            ["id": pet, "d": "Burst \(number)"], token: staff.token)
                        #expect(edited["errors"].isNull, "\(edited)")
                    }
                }
                try await group.waitForAll()
            }
            var settled = false
            for _ in 0..<400 {
                let open = try await server.sql(
                    """
                    SELECT ((SELECT count(*) FROM scheduled_jobs WHERE kind = 'notice.deliver')
                         + (SELECT count(*) FROM notice_deliveries WHERE state = 'pending'))::int
                    """)[0].decode(Int.self, at: 0)
                if open == 0 {
                    settled = true
                    break
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(settled)
            let sent = try await server.sql(
                "SELECT count(*)::int FROM notice_deliveries WHERE channel = 'FCM' AND state = 'sent'")[0].decode(Int.self, at: 0)
            let dropped = try await server.sql(
                "SELECT count(*)::int FROM notice_deliveries WHERE channel = 'FCM' AND state = 'dropped'")[0].decode(Int.self, at: 0)
            #expect(sent == 3 && dropped == 9, "sent \(sent), dropped \(dropped)")
            let pushed = try services.received().filter { $0["service"] as? String == "fcm" }
            #expect(pushed.count == 3, "\(pushed)")
        }
    }
}
