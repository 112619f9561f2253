import Foundation
import HuddleCore
import HuddleRuntime
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// `deleteAccount` in the shared core: the password is asked for, every
/// device is signed out, the account's rows go, and its name and address
/// are free again.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct AccountDeletionTests {
    static let delete = "mutation($p: String!) { deleteAccount(password: $p) }"

    @Test func theAccountGoesWithItsTokensFriendshipsAndMail() async throws {
        try await TestServer.with({ $0.tokenCacheLifetime = .seconds(3600) }) { server in
            let ana = try await server.signUp("ana")
            let bob = try await server.signUp("bob")
            // A second device, and a friendship with a notice whose actor is Ana.
            let second = try await server.graphql(
                "mutation { logIn(username: \"ana\", password: \"correct horse battery\") { token } }")["data"]["logIn"]["token"].string!
            _ = try await server.graphql(TestServer.sendFriendRequest, ["id": bob.id], token: ana.token)
            #expect(try await server.graphql("{ me { id } }", token: second)["data"]["me"]["id"].string == ana.id)

            #expect(try await server.graphql(Self.delete, ["p": "wrong"], token: ana.token).errorMessage == "The password is not right.")
            #expect(try await server.graphql(Self.delete, ["p": "correct horse battery"]).errorCode == "UNAUTHENTICATED")
            let deleted = try await server.graphql(Self.delete, ["p": "correct horse battery"], token: ana.token)
            #expect(deleted["data"]["deleteAccount"].bool == true, "\(deleted)")

            // Both devices are signed out, the cached one too.
            #expect(try await server.graphql("{ me { id } }", token: ana.token)["data"]["me"].isNull)
            #expect(try await server.graphql("{ me { id } }", token: second)["data"]["me"].isNull)
            #expect(try await server.graphql("query($id: ID!) { user(id: $id) { id } }", ["id": ana.id])["data"]["user"].isNull)
            // Bob's inbox keeps the notice, without its sender.
            let inbox = try await server.graphql("{ notifications { edges { node { kind actor { id } } } } }", token: bob.token)
            #expect(inbox["data"]["notifications"]["edges"][0]["node"]["kind"].string == "FRIEND_REQUEST_RECEIVED", "\(inbox)")
            #expect(inbox["data"]["notifications"]["edges"][0]["node"]["actor"].isNull)
            for table in ["auth_tokens", "friend_requests", "email_outbox", "account_tokens"] {
                let left = try await server.sql(
                    "SELECT count(*)::int FROM \(table) WHERE \(table == "friend_requests" ? "from_user" : "user_id") = $1",
                    [Int64(rowID(ana.id))!])
                #expect(try left[0].decode(Int.self, at: 0) == 0, "\(table)")
            }
            // The name and the address can be taken again.
            let again = try await server.signUp("ana")
            #expect(again.id != ana.id)
        }
    }
}
