import Foundation
import PetMatch
import PostgresTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// A shelter's staff add uploaded photos to a pet (by curl's multipart
/// request and by a one-time URL), put them in order and remove them; the
/// pictures belong to the pet and go with their photo.
@Suite(.enabled(if: TestDatabase.available), .hangGuard) struct PetPhotoTests {
    typealias F = PetMatchFixtures

    static let add = "mutation($p: ID!, $f: Upload!) { addPetPhoto(petId: $p, file: $f) { photos(size: THUMBNAIL, format: JPEG) } }"

    static func pictureCount(_ server: TestServer) async throws -> Int {
        try await server.sql("SELECT count(*)::int FROM media WHERE purpose = 'pet-photo' AND owner_id IS NULL")[0].decode(Int.self, at: 0)
    }

    @Test func staffAddOrderAndRemoveUploadedPhotos() async throws {
        let pictures = try ScratchDirectory("huddle-pet-photos")
        let made = try await ClientProcess.python("images.py", ["make", pictures.url.path]).finished()
        #expect(made.status == 0, "\(made.errors)")
        try await TestServer.with(mounting: [PetMatch.self]) { server in
            let users = try await server.makeUsers(2, prefix: "photos")
            let (staff, visitor) = (users[0], users[1])
            let beagle = try await F.breed(server, "DOG", "Beagle")
            let shelter = try await F.shelter(server, token: staff.token, name: "Photo Shelter", at: F.near)
            let pet = try await F.pet(server, token: staff.token, shelter: shelter, name: "Snap", breed: beagle)

            // One by multipart request, one by a one-time URL.
            let operations = #"{"query":"\#(Self.add)","variables":{"p":"\#(pet)","f":null}}"#
            let first = try server.multipart(
                ["operations=\(operations)", #"map={"0":["variables.f"]}"#, "0=@\(pictures.path("gps.jpg"))"], token: staff.token)
            #expect(first.status == 200, "\(first.json)")
            let second = try await server.graphql(
                Self.add, ["p": pet, "f": try await server.upload(pictures.path("small.png"), token: staff.token)], token: staff.token)
            let photos = second["data"]["addPetPhoto"]["photos"].array.compactMap(\.string)
            #expect(photos.count == 3, "\(second)")
            #expect(photos.first == "https://example.org/Snap.jpg")
            #expect(photos.dropFirst().allSatisfy { $0.hasPrefix("/media/") && $0.hasSuffix("/thumbnail.jpg") }, "\(photos)")
            #expect(try await Self.pictureCount(server) == 2, "the pictures are the pet's, no one's account's")
            let served = try curlFetch("http://127.0.0.1:\(server.port)\(photos[1])")
            #expect(served.status == 200 && served.headers["content-type"] == "image/jpeg")

            // Someone not on the staff may neither add nor reorder.
            let theirs = try await server.upload(pictures.path("small.png"), token: visitor.token)
            let refused = try await server.graphql(Self.add, ["p": pet, "f": theirs], token: visitor.token)
            #expect(refused.errorCode == "FORBIDDEN", "\(refused)")
            // Another user's upload cannot be added by the staff either.
            let notYours = try await server.graphql(Self.add, ["p": pet, "f": theirs], token: staff.token)
            #expect(notYours.errorCode == "BAD_USER_INPUT", "\(notYours)")

            // The last first, then the URL photo removed.
            let reordered = try await server.graphql(
                "mutation($p: ID!) { reorderPetPhotos(petId: $p, order: [2, 0, 1]) { photos(size: THUMBNAIL, format: JPEG) } }",
                ["p": pet], token: staff.token)
            #expect(reordered["data"]["reorderPetPhotos"]["photos"].array.compactMap(\.string) == [photos[2], photos[0], photos[1]])
            let badOrder = try await server.graphql(
                "mutation($p: ID!) { reorderPetPhotos(petId: $p, order: [0, 0, 1]) { id } }", ["p": pet], token: staff.token)
            #expect(badOrder.errorCode == "BAD_USER_INPUT", "\(badOrder)")
            let removed = try await server.graphql(
                "mutation($p: ID!) { removePetPhoto(petId: $p, position: 1) { photos(size: THUMBNAIL, format: JPEG) } }",
                ["p": pet], token: staff.token)
            #expect(removed["data"]["removePetPhoto"]["photos"].array.compactMap(\.string) == [photos[2], photos[1]], "\(removed)")
            #expect(try await Self.pictureCount(server) == 2)
            // An uploaded one removed: its picture goes.
            _ = try await server.graphql(
                "mutation($p: ID!) { removePetPhoto(petId: $p, position: 0) { id } }", ["p": pet], token: staff.token)
            #expect(try await Self.pictureCount(server) == 1)
            #expect(try curlFetch("http://127.0.0.1:\(server.port)\(photos[2])").status == 404)

            // Photos replaced by URLs: the uploaded one goes too.
            let urls = (1...12).map { "https://example.org/\($0).jpg" }
            let replaced = try await server.graphql(
                "mutation($p: ID!, $u: [String!]!) { updatePet(id: $p, input: { photos: $u }) { photos } }", ["p": pet, "u": urls],
                token: staff.token)
            #expect(replaced["data"]["updatePet"]["photos"].array.count == 12, "\(replaced)")
            #expect(try await Self.pictureCount(server) == 0)
            // Twelve is the most.
            let thirteenth = try await server.graphql(
                Self.add, ["p": pet, "f": try await server.upload(pictures.path("small.png"), token: staff.token)], token: staff.token)
            #expect(thirteenth.errorCode == "BAD_USER_INPUT", "\(thirteenth)")
        }
    }
}
