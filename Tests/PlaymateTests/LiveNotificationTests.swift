import Foundation
import GraphQLTransport
import Playmate
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Live events over WebSocket (graphql-transport-ws and graphql-ws), fed by
/// LISTEN/NOTIFY, across two server processes on one database.
@Suite(.enabled(if: TestDatabase.available), .serialized, .hangGuard)
struct LiveNotificationTests {

    @Test func anInvitationMadeThroughOneServerReachesASubscriberOfTheOther() async throws {
        try await TestServer.withTwo(mounting: [Playmate.self]) { first, second in
            let users = try await first.makeUsers(2, prefix: "live")
            let (ana, bob) = (users[0], users[1])
            let request = try await first.graphql(FriendAndInvitationTests.send, ["id": bob.id], token: ana.token)["data"][
                "sendFriendRequest"]["id"].string!
            _ = try await first.graphql(
                "mutation($id: ID!) { acceptFriendRequest(requestId: $id) { id } }", ["id": request], token: bob.token)
            let session = try await first.graphql(SessionTests.create, SessionTests.input(), token: ana.token)
            let sessionID = try #require(session["data"]["createSportsSession"]["id"].string)

            // Bob listens on the second server, over both subprotocols.
            let modern = try subscriber(port: second.port, token: bob.token)
            modern.send(
                #"{"id":"1","type":"subscribe","payload":{"query":"subscription { invitationReceived { status from { username } session { id } } }"}}"#
            )
            let legacy = try subscriber(port: second.port, token: bob.token, subprotocol: "graphql-ws")
            legacy.send(
                #"{"id":"9","type":"start","payload":{"query":"subscription { notificationReceived { kind actor { username } } }"}}"#)
            try await waitUntilListening(on: "huddle_user_\(rowID(bob.id))", server: second)
            try await waitForSubscriptions(2, server: second)

            // Ana invites him through the first server.
            let invited = try await first.graphql(
                "mutation($s: ID!, $u: ID!) { inviteToSession(sessionId: $s, userId: $u) { id } }", ["s": sessionID, "u": bob.id],
                token: ana.token)
            #expect(invited["errors"].isNull, "\(invited)")
            let event = modern.next()
            #expect(
                event?.text
                    == #"{"id":"1","type":"next","payload":{"data":{"invitationReceived":{"status":"PENDING","from":{"username":"live0"},"session":{"id":"\#(sessionID)"}}}}}"#
            )
            // graphql-ws sends keep-alives ("ka") between messages.
            var legacyEvent = legacy.next()
            while legacyEvent?.text == #"{"type":"ka"}"# { legacyEvent = legacy.next() }
            #expect(
                legacyEvent?.text
                    == #"{"id":"9","type":"data","payload":{"data":{"notificationReceived":{"kind":"INVITATION_RECEIVED","actor":{"username":"live0"}}}}}"#
            )

            // A subscriber that was away catches up from the inbox.
            let inbox = try await second.graphql("{ notifications { edges { node { id kind read } } } }", token: bob.token)
            let noticeIDs = inbox["data"]["notifications"]["edges"].array.map { $0["node"]["id"].string! }
            // The friend request accepted by Bob is Ana's; Bob has the request and the invitation.
            #expect(noticeIDs.count == 2, "\(inbox)")
            let late = try subscriber(port: first.port, token: bob.token)
            late.send(
                #"{"id":"2","type":"subscribe","payload":{"query":"subscription($after: ID) { notificationReceived(after: $after) { kind } }","variables":{"after":"\#(noticeIDs[1])"}}}"#
            )
            #expect(
                late.next()?.text == #"{"id":"2","type":"next","payload":{"data":{"notificationReceived":{"kind":"INVITATION_RECEIVED"}}}}"#
            )
            #expect(
                try await second.graphql("mutation { markNotificationsRead }", token: bob.token)["data"]["markNotificationsRead"].int == 2)
            #expect(try await second.graphql("{ unreadNotificationCount }", token: bob.token)["data"]["unreadNotificationCount"].int == 0)

            // Session events: Bob joins through the first server; a watcher on the second sees it, then the deletion.
            let watcher = try subscriber(port: second.port, token: ana.token)
            watcher.send(
                #"{"id":"3","type":"subscribe","payload":{"query":"subscription($id: ID!) { sessionUpdated(sessionId: $id) { kind actor { username } session { occupied } } }","variables":{"id":"\#(sessionID)"}}}"#
            )
            try await waitUntilListening(on: "huddle_session_\(rowID(sessionID))", server: second)
            _ = try await first.graphql(
                "mutation($id: ID!) { joinSportsSession(sessionId: $id) { id } }", ["id": sessionID], token: bob.token)
            #expect(
                watcher.next()?.text
                    == #"{"id":"3","type":"next","payload":{"data":{"sessionUpdated":{"kind":"PLAYER_JOINED","actor":{"username":"live1"},"session":{"occupied":2}}}}}"#
            )
            _ = try await first.graphql("mutation($id: ID!) { deleteSportsSession(sessionId: $id) }", ["id": sessionID], token: ana.token)
            #expect(
                watcher.next()?.text
                    == #"{"id":"3","type":"next","payload":{"data":{"sessionUpdated":{"kind":"DELETED","actor":{"username":"live0"},"session":null}}}}"#
            )
            #expect(watcher.next()?.text == #"{"id":"3","type":"complete"}"#)

            // Without a valid token, the connection is refused.
            let stranger = try WebSocketClient(port: second.port)
            stranger.send(#"{"type":"connection_init","payload":{"token":"forged"}}"#)
            #expect(stranger.next()?.text.hasPrefix("4403") == true)
        }
    }
}
