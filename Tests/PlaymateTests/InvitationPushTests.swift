import Foundation
import Playmate
import PostgresTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// An invitation to a session reaches the friend's iPhone through APNs
/// (HTTP/2, the provider token checked by the stand-in) and their browser
/// through Web Push, and the operator's webhook, signed.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct InvitationPushTests {
    @Test func anInvitationReachesTheFriendsDevices() async throws {
        let services = try PushServices()
        try await TestServer.with(mounting: [Playmate.self], pushing(to: services)) { server in
            let users = try await server.makeUsers(2, prefix: "invited")
            let (ana, bob) = (users[0], users[1])
            let request =
                try await server.graphql(TestServer.sendFriendRequest, ["id": bob.id], token: ana.token)["data"]["sendFriendRequest"][
                    "id"
                ].string ?? ""
            _ = try await server.graphql(
                "mutation($id: ID!) { acceptFriendRequest(requestId: $id) { id } }", ["id": request], token: bob.token)
            let phone = String(repeating: "c3", count: 32)
            let apns = try await server.graphql(
                registerPushEndpoint, ["input": ["apns": ["token": phone, "topic": "com.example.playmate", "environment": "PRODUCTION"]]],
                token: bob.token)
            #expect(apns.errorCode == nil, "\(apns)")
            let subscription = try services.subscribe()
            let web = try await server.graphql(
                registerPushEndpoint,
                ["input": ["webPush": ["endpoint": subscription.endpoint, "p256dh": subscription.p256dh, "auth": subscription.auth]]],
                token: bob.token)
            #expect(web.errorCode == nil, "\(web)")

            let session = try await server.graphql(SessionTests.create, SessionTests.input(capacity: 2), token: ana.token)
            let sessionID = try #require(session["data"]["createSportsSession"]["id"].string, "\(session)")
            let invited = try await server.graphql(
                "mutation($s: ID!, $u: ID!) { inviteToSession(sessionId: $s, userId: $u) { id } }", ["s": sessionID, "u": bob.id],
                token: ana.token)
            #expect(invited.errorCode == nil, "\(invited)")

            let pushed = try #require(try await services.waitFor(1, of: "apns").first)
            #expect(pushed["token"] as? String == phone && pushed["topic"] as? String == "com.example.playmate", "\(pushed)")
            #expect(pushed["http"] as? String == "2" && pushed["providerToken"] as? Bool == true, "\(pushed)")
            let payload = try #require(pushed["payload"] as? [String: Any])
            #expect(payload["kind"] as? String == "INVITATION_RECEIVED", "\(payload)")
            #expect(((payload["aps"] as? [String: Any])?["alert"] as? [String: Any])?["title"] as? String == "Playmate: you're invited")
            let browser = try #require(try await services.waitFor(1, of: "webpush").first)
            #expect(
                browser["vapid"] as? Bool == true && (browser["payload"] as? [String: Any])?["kind"] as? String == "INVITATION_RECEIVED")
            // The webhook has every notice: the friend request, its acceptance, the invitation.
            let hooks = try await services.waitFor(3, of: "webhook").compactMap {
                (($0["payload"] as? [String: Any])?["data"] as? [String: Any])?["kind"] as? String
            }
            #expect(hooks.sorted() == ["FRIEND_REQUEST_ACCEPTED", "FRIEND_REQUEST_RECEIVED", "INVITATION_RECEIVED"], "\(hooks)")
        }
    }
}
