import Foundation
import PetMatch
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Deleting an account in petMatch: a shelter's only staff member is told
/// to add another first; otherwise the shelter and its pets stay with the
/// rest of its staff, and the person's swipes and favourites go.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct AccountDeletionTests {
    typealias F = PetMatchFixtures
    static let delete = "mutation { deleteAccount(password: \"correct horse battery\") }"

    @Test func aShelterKeepsAStaffMemberAndThePetsStay() async throws {
        try await TestServer.with(mounting: [PetMatch.self]) { server in
            let ana = try await server.signUp("ana")
            let bob = try await server.signUp("bob")
            let carl = try await server.signUp("carl")
            let shelter = try await F.shelter(server, token: ana.token, name: "Happy Paws", at: F.home)
            let pet = try await F.pet(
                server, token: ana.token, shelter: shelter, name: "Rex", breed: try await F.breed(server, "DOG", "Beagle"))
            let swiped = try await server.graphql(F.swipe, ["id": pet, "direction": "SUPER"], token: carl.token)
            #expect(swiped["errors"].isNull, "\(swiped)")

            let refused = try await server.graphql(Self.delete, token: ana.token)
            #expect(refused.errorCode == "BAD_USER_INPUT")
            #expect(
                refused.errorMessage
                    == "You are the only staff member of \"Happy Paws\"; add another staff member before deleting your account.")
            #expect(try await server.graphql("{ me { username } }", token: ana.token)["data"]["me"]["username"].string == "ana")

            let added = try await server.graphql(
                "mutation($s: ID!, $u: ID!) { addShelterStaff(shelterId: $s, userId: $u) { id } }", ["s": shelter, "u": bob.id],
                token: ana.token)
            #expect(added["errors"].isNull, "\(added)")
            #expect(try await server.graphql(Self.delete, token: ana.token)["data"]["deleteAccount"].bool == true)
            // The pet Ana listed stays, its last editor gone; Bob runs the shelter.
            let page = try await server.graphql(
                "query($id: ID!) { node(id: $id) { ... on Pet { name } } }", ["id": pet], token: bob.token)
            #expect(page["data"]["node"]["name"].string == "Rex", "\(page)")
            #expect(try await server.sql("SELECT count(*)::int FROM shelter_staff")[0].decode(Int.self, at: 0) == 1)

            #expect(try await server.graphql(Self.delete, token: carl.token)["data"]["deleteAccount"].bool == true)
            #expect(try await server.sql("SELECT count(*)::int FROM pet_swipes")[0].decode(Int.self, at: 0) == 0)
            #expect(try await server.sql("SELECT count(*)::int FROM pet_favorites")[0].decode(Int.self, at: 0) == 0)
        }
    }

    /// The shelter's two staff members leaving at the same moment: one goes,
    /// the other is told to add someone first, and the shelter keeps one.
    /// The moment is made the same: the shelter's row is held until both
    /// deletions wait for it, and its lock decides which goes first.
    @Test func twoLastStaffMembersLeavingAtOnceLeaveOne() async throws {
        try await TestServer.with(mounting: [PetMatch.self], statementTimeout: nil) { server in
            let ana = try await server.signUp("ana")
            let bob = try await server.signUp("bob")
            let shelter = try await F.shelter(server, token: ana.token, name: "Happy Paws", at: F.home)
            _ = try await server.graphql(
                "mutation($s: ID!, $u: ID!) { addShelterStaff(shelterId: $s, userId: $u) { id } }", ["s": shelter, "u": bob.id],
                token: ana.token)
            let deletions = try await server.holdingLock("SELECT 1 FROM shelters FOR UPDATE") {
                let deletions = [ana, bob].map { user in Task { try await server.graphql(Self.delete, token: user.token) } }
                try await server.waitForLockWaiters(2)
                return deletions
            }
            var replies: [JSON] = []
            for deletion in deletions { replies.append(try await deletion.value) }
            #expect(replies.filter { $0["data"]["deleteAccount"].bool == true }.count == 1, "\(replies)")
            #expect(replies.filter { $0.errorCode == "BAD_USER_INPUT" }.count == 1, "\(replies)")
            #expect(try await server.sql("SELECT count(*)::int FROM shelter_staff")[0].decode(Int.self, at: 0) == 1)
        }
    }
}
