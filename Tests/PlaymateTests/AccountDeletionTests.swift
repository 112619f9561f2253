import Foundation
import Playmate
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Deleting an account in Playmate: the sessions it made that are still to
/// come are cancelled and their players told; the places it held in
/// others' sessions are freed.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct AccountDeletionTests {
    static let delete = "mutation { deleteAccount(password: \"correct horse battery\") }"
    static let join = "mutation($id: ID!) { joinSportsSession(sessionId: $id) { occupied } }"
    static let session = "query($id: ID!) { node(id: $id) { ... on SportsSession { occupied players { username } } } }"

    @Test func madeSessionsAreCancelledAndJoinedPlacesFreed() async throws {
        try await TestServer.with(mounting: [Playmate.self]) { server in
            let ana = try await server.signUp("ana")
            let bob = try await server.signUp("bob")
            let carl = try await server.signUp("carl")
            let anas = try #require(
                try await server.graphql(SessionTests.create, SessionTests.input(), token: ana.token)["data"]["createSportsSession"]["id"]
                    .string)
            let carls = try #require(
                try await server.graphql(SessionTests.create, SessionTests.input(sport: "SOCCER"), token: carl.token)[
                    "data"]["createSportsSession"]["id"].string)
            #expect(try await server.graphql(Self.join, ["id": anas], token: carl.token)["data"]["joinSportsSession"]["occupied"].int == 2)
            #expect(try await server.graphql(Self.join, ["id": carls], token: bob.token)["data"]["joinSportsSession"]["occupied"].int == 2)

            #expect(try await server.graphql(Self.delete, token: bob.token)["data"]["deleteAccount"].bool == true)
            let freed = try await server.graphql(Self.session, ["id": carls], token: carl.token)
            #expect(freed["data"]["node"]["occupied"].int == 1, "\(freed)")
            #expect(freed["data"]["node"]["players"].array.map { $0["username"].string } == ["carl"])

            #expect(try await server.graphql(Self.delete, token: ana.token)["data"]["deleteAccount"].bool == true)
            #expect(try await server.graphql(Self.session, ["id": anas], token: carl.token)["data"]["node"].isNull)
            let inbox = try await server.graphql("{ notifications { edges { node { kind message actor { id } } } } }", token: carl.token)
            let notices = inbox["data"]["notifications"]["edges"].array.map { $0["node"] }
            #expect(notices.map { $0["kind"].string } == ["SESSION_DELETED"], "\(inbox)")
            let said = notices.first?["message"].string ?? ""
            #expect(
                said.hasPrefix("The tennis session at Central Park Courts on ")
                    && said.hasSuffix(" was called off: its organiser left Playmate."), "\(said)")
            #expect(notices.first?["actor"].isNull == true)
            // Their scheduled reminders went with the sessions.
            #expect(
                try await server.sql(
                    "SELECT count(*)::int FROM scheduled_jobs WHERE kind LIKE 'playmate.%' AND subject_id = $1", [Int64(rowID(anas))!])[0]
                    .decode(Int.self, at: 0) == 0)
        }
    }
}
