import Foundation
import PetMatch
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Shelters and their pets: only staff write them, the catalogue holds a
/// pet's breeds, coat and colour to its type, bad input changes nothing,
/// and the search finds pets like Petfinder's /animals.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct ShelterAndPetTests {
    typealias F = PetMatchFixtures

    @Test func onlyStaffWriteAShelterAndItsPets() async throws {
        try await TestServer.with(mounting: [PetMatch.self]) { server in
            let users = try await server.makeUsers(3, prefix: "staff")
            let (staff, stranger, helper) = (users[0], users[1], users[2])
            let beagle = try await F.breed(server, "DOG", "Beagle")
            let shelter = try await F.shelter(server, token: staff.token, name: "Staff Shelter", at: F.near)
            let pet = try await F.pet(server, token: staff.token, shelter: shelter, name: "Mine", breed: beagle)
            let input: [String: any Sendable] = [
                "shelterId": shelter, "name": "Theirs", "type": "DOG", "primaryBreedId": beagle, "size": "SMALL", "ageGroup": "BABY",
                "gender": "MALE",
            ]
            for (query, variables) in [
                (F.createPet, ["input": input]),
                ("mutation($id: ID!) { updatePet(id: $id, input: { name: \"Stolen\" }) { id } }", ["id": pet]),
                ("mutation($id: ID!) { setPetStatus(id: $id, status: ADOPTED) { id } }", ["id": pet]),
                (
                    "mutation($id: ID!, $u: ID!) { addShelterStaff(shelterId: $id, userId: $u) { id } }",
                    ["id": shelter, "u": stranger.id]
                ),
            ] as [(String, [String: any Sendable])] {
                let reply = try await server.graphql(query, variables, token: stranger.token)
                #expect(reply.errorCode == "FORBIDDEN", "\(query): \(reply)")
            }
            let rows = try await server.sql("SELECT count(*)::int, min(name), min(status) FROM pets")
            #expect(try rows[0].decode(Int.self, at: 0) == 1 && rows[0].decode(String.self, at: 1) == "Mine")
            #expect(try rows[0].decode(String.self, at: 2) == "ADOPTABLE")
            // Staff see each other; others see none.
            let query = "query($id: ID!) { node(id: $id) { ... on Shelter { name viewerIsStaff staff { username } } } }"
            let seen = try await server.graphql(query, ["id": shelter], token: stranger.token)
            #expect(seen["data"]["node"]["viewerIsStaff"].bool == false && seen["data"]["node"]["staff"].array.isEmpty, "\(seen)")
            let added = try await server.graphql(
                "mutation($id: ID!, $u: ID!) { addShelterStaff(shelterId: $id, userId: $u) { staff { username } } }",
                ["id": shelter, "u": helper.id], token: staff.token)
            #expect(added["data"]["addShelterStaff"]["staff"].array.count == 2, "\(added)")
            let edited = try await server.graphql(
                "mutation($id: ID!) { updatePet(id: $id, input: { name: \"Renamed\", secondaryBreedId: null }) { name isMixed } }",
                ["id": pet], token: helper.token)
            #expect(edited["data"]["updatePet"]["name"].string == "Renamed", "\(edited)")
            let remove = "mutation($id: ID!, $u: ID!) { removeShelterStaff(shelterId: $id, userId: $u) { id } }"
            _ = try await server.graphql(remove, ["id": shelter, "u": staff.id], token: helper.token)
            let last = try await server.graphql(remove, ["id": shelter, "u": helper.id], token: helper.token)
            #expect(last.errorCode == "BAD_USER_INPUT" && last.errorMessage == "A shelter keeps at least one staff member.", "\(last)")
            let node = try await server.graphql("query($id: ID!) { node(id: $id) { ... on Pet { name shelter { name } } } }", ["id": pet])
            #expect(node["data"]["node"]["shelter"]["name"].string == "Staff Shelter", "\(node)")
        }
    }

    @Test func aPetsBreedsCoatColourAndTextAreCheckedAtAndOverTheLimits() async throws {
        try await TestServer.with(mounting: [PetMatch.self]) { server in
            let staff = try await server.makeUsers(1, prefix: "limits")[0]
            let beagle = try await F.breed(server, "DOG", "Beagle")
            let siamese = try await F.breed(server, "CAT", "Siamese")
            let budgie = try await F.breed(server, "BIRD", "Budgie")
            let shelter = try await F.shelter(server, token: staff.token, name: "Limit Shelter", at: F.near)
            let photos = (0..<12).map { "https://example.org/\($0).jpg" }
            let text = String(repeating: "a", count: 4000)
            // At the limits: accepted.
            _ = try await F.pet(
                server, token: staff.token, shelter: shelter, name: String(repeating: "n", count: 60), breed: beagle,
                extra: [
                    "photos": photos, "description": text, "coat": "WIRE", "color": "Merle",
                    "secondaryBreedId": try await F.breed(server, "DOG", "Poodle"),
                ])
            for (extra, message) in [
                (["primaryBreedId": siamese], "not a breed of DOG"), (["primaryBreedId": "QnJlZWQ6OTk5OQ"], "No breed"),
                (["name": String(repeating: "n", count: 61)], "1 to 60"), (["name": "  "], "1 to 60"),
                (["photos": photos + ["https://example.org/12.jpg"]], "at most 12"), (["photos": ["ftp://example.org/a.jpg"]], "http"),
                (["description": text + "a"], "at most 4000"), (["color": "Tabby (Brown)"], "not a colour"),
                (["secondaryBreedId": beagle], "differ"),
            ] as [([String: any Sendable], String)] {
                let input =
                    ([
                        "shelterId": shelter, "name": "Checked", "type": "DOG", "primaryBreedId": beagle, "size": "SMALL",
                        "ageGroup": "BABY",
                        "gender": "MALE",
                    ] as [String: any Sendable]).merging(extra) { $1 }
                let reply = try await server.graphql(F.createPet, ["input": input], token: staff.token)
                #expect(reply.errorCode == "BAD_USER_INPUT", "\(extra): \(reply)")
                #expect(reply.errorMessage?.contains(message) == true, "\(extra): \(reply)")
            }
            let bird = try await server.graphql(
                F.createPet,
                [
                    "input": [
                        "shelterId": shelter, "name": "Tweety", "type": "BIRD", "primaryBreedId": budgie, "size": "SMALL",
                        "ageGroup": "BABY",
                        "gender": "MALE", "coat": "SHORT",
                    ] as [String: any Sendable]
                ], token: staff.token)
            #expect(bird.errorCode == "BAD_USER_INPUT" && bird.errorMessage?.contains("has no SHORT coat") == true, "\(bird)")
            let rows = try await server.sql("SELECT count(*)::int, (SELECT count(*)::int FROM pet_photos) FROM pets")
            #expect(try rows[0].decode(Int.self, at: 0) == 1 && rows[0].decode(Int.self, at: 1) == 12)
        }
    }

    @Test func theSearchFiltersByTypeBreedDistanceAndStatus() async throws {
        try await TestServer.with(mounting: [PetMatch.self]) { server in
            let staff = try await server.makeUsers(1, prefix: "search")[0]
            let beagle = try await F.breed(server, "DOG", "Beagle")
            let poodle = try await F.breed(server, "DOG", "Poodle")
            let near = try await F.shelter(server, token: staff.token, name: "Search Near", at: F.near)
            let far = try await F.shelter(server, token: staff.token, name: "Search Far", at: F.far)
            _ = try await F.pet(server, token: staff.token, shelter: near, name: "Bea", breed: beagle)
            let mix = try await F.pet(
                server, token: staff.token, shelter: far, name: "Mix", breed: poodle, extra: ["secondaryBreedId": beagle])
            _ = try await F.pet(server, token: staff.token, shelter: far, name: "Poo", breed: poodle)
            _ = try await server.graphql(
                "mutation($id: ID!) { setPetStatus(id: $id, status: PENDING) { id } }", ["id": mix], token: staff.token)
            let search = """
                query($filter: PetSearchInput, $order: PetOrder) { pets(filter: $filter, orderBy: $order) { edges { node { name distanceKm } } } }
                """
            func names(_ filter: [String: any Sendable], _ order: String = "NEWEST") async throws -> [String] {
                let reply = try await server.graphql(search, ["filter": filter, "order": order])
                #expect(reply["errors"].isNull, "\(reply)")
                return reply["data"]["pets"]["edges"].array.compactMap { $0["node"]["name"].string }
            }
            let home: [String: any Sendable] = ["latitude": F.home.latitude, "longitude": F.home.longitude]
            #expect(try await names([:]) == ["Poo", "Bea"])
            #expect(try await names(["type": "DOG", "breeds": [beagle], "statuses": ["ADOPTABLE", "PENDING"]]) == ["Mix", "Bea"])
            #expect(try await names(["near": home, "distanceKm": 50.0], "DISTANCE") == ["Bea"])
            #expect(try await names(["near": home, "distanceKm": 100.0], "DISTANCE") == ["Bea", "Poo"])
            for (filter, order) in [
                (["near": home, "distanceKm": -5.0], "DISTANCE"), ([:], "DISTANCE"), (["distanceKm": 10.0], "NEWEST"),
                (["type": "CAT", "breeds": [beagle]], "NEWEST"),
            ] as [([String: any Sendable], String)] {
                let reply = try await server.graphql(search, ["filter": filter, "order": order])
                #expect(reply.errorCode == "BAD_USER_INPUT", "\(filter): \(reply)")
            }
            let shelters = try await server.graphql(
                "query($near: CoordinatesInput) { shelters(name: \"search\", near: $near, distanceKm: 100) { edges { node { name distanceKm } } } }",
                ["near": home])
            #expect(
                shelters["data"]["shelters"]["edges"].array.map { $0["node"]["name"].string } == ["Search Near", "Search Far"],
                "\(shelters)")
        }
    }
}
