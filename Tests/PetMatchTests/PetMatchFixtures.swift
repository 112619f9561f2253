import Foundation
import ServerTestSupport
import TestSupport
import Testing

/// What the petMatch tests share: shelters at known places, pets listed
/// through the API, swipes and the feed.
enum PetMatchFixtures {
    static let createShelter = """
        mutation($input: ShelterInput!) { createShelter(input: $input) { id name viewerIsStaff } }
        """
    static let createPet = """
        mutation($input: CreatePetInput!) { createPet(input: $input) { id name type status primaryBreed { name } photos } }
        """
    static let swipe = """
        mutation($id: ID!, $direction: SwipeDirection!) { swipePet(petId: $id, direction: $direction) { direction isFavorite pet { id viewerSwipe } } }
        """
    static let feed = """
        query($first: Int, $after: String) {
          petMatches(first: $first, after: $after) {
            emptyReason pageInfo { hasNextPage endCursor }
            edges { node { id name distanceKm photos shelter { name phone email } primaryBreed { name } } }
          }
        }
        """
    static let setPreferences = """
        mutation($input: PetPreferencesInput!) { updatePetPreferences(input: $input) { type breeds { name } sizes distanceKm location { latitude } } }
        """

    /// Brooklyn, and points about 5, 20 and 80 km away.
    static let home = (latitude: 40.6782, longitude: -73.9442)
    static let near = (latitude: 40.7200, longitude: -73.9442)
    static let middle = (latitude: 40.8582, longitude: -73.9442)
    static let far = (latitude: 41.3982, longitude: -73.9442)

    /// A shelter the user runs, at `point`; returns its id.
    static func shelter(
        _ server: TestServer, token: String, name: String, at point: (latitude: Double, longitude: Double)
    ) async throws -> String {
        let reply = try await server.graphql(
            createShelter,
            [
                "input": [
                    "name": name, "email": "hello@\(name.lowercased().filter(\.isLetter)).example.org", "city": "Brooklyn",
                    "location": ["latitude": point.latitude, "longitude": point.longitude],
                ] as [String: any Sendable]
            ], token: token)
        return try #require(reply["data"]["createShelter"]["id"].string, "\(reply)")
    }

    /// The global id of a breed by name.
    static func breed(_ server: TestServer, _ type: String, _ name: String) async throws -> String {
        let reply = try await server.graphql("query($t: PetType!) { breeds(type: $t) { id name } }", ["t": type])
        return try #require(reply["data"]["breeds"].array.first { $0["name"].string == name }?["id"].string, "\(reply)")
    }

    /// Lists a pet at the shelter; returns its id.
    static func pet(
        _ server: TestServer, token: String, shelter: String, name: String, type: String = "DOG", breed: String,
        extra: [String: any Sendable] = [:]
    ) async throws -> String {
        let input =
            ([
                "shelterId": shelter, "name": name, "type": type, "primaryBreedId": breed, "size": "MEDIUM", "ageGroup": "YOUNG",
                "gender": "FEMALE", "photos": ["https://example.org/\(name).jpg"],
            ] as [String: any Sendable]).merging(extra) { $1 }
        let reply = try await server.graphql(createPet, ["input": input], token: token)
        return try #require(reply["data"]["createPet"]["id"].string, "\(reply)")
    }

    /// Sets the user's preferences; expects no error.
    static func prefer(_ server: TestServer, token: String, _ input: [String: any Sendable]) async throws {
        let reply = try await server.graphql(setPreferences, ["input": input], token: token)
        #expect(reply["errors"].isNull, "\(reply)")
    }

    /// Every pet of the user's feed, page by page (`first` each), in order.
    static func wholeFeed(_ server: TestServer, token: String, first: Int) async throws -> [String] {
        var ids: [String] = []
        var after: String?
        for _ in 0..<100 {
            var variables: [String: any Sendable] = ["first": first]
            if let after { variables["after"] = after }
            let reply = try await server.graphql(feed, variables, token: token)
            #expect(reply["errors"].isNull, "\(reply)")
            let page = reply["data"]["petMatches"]
            ids += page["edges"].array.compactMap { $0["node"]["id"].string }
            guard page["pageInfo"]["hasNextPage"].bool == true else { return ids }
            after = page["pageInfo"]["endCursor"].string
        }
        Issue.record("the feed did not end")
        return ids
    }
}
