import Foundation
import HuddlePostgres
import HuddleRuntime
import Playmate
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Friend requests and invitations over HTTP, with their authorization rules.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct FriendAndInvitationTests {
    static let send = TestServer.sendFriendRequest

    @Test func friendRequestsFromSendToRemoval() async throws {
        try await TestServer.with(mounting: [Playmate.self]) { server in
            let users = try await server.makeUsers(3, prefix: "pal")
            let (ana, bob, cid) = (users[0], users[1], users[2])
            let sent = try await server.graphql(Self.send, ["id": bob.id], token: ana.token)
            let requestID = try #require(sent["data"]["sendFriendRequest"]["id"].string, "\(sent)")
            #expect(sent["data"]["sendFriendRequest"]["to"]["username"].string == "pal1")

            // No duplicates, either way; not to yourself.
            #expect(
                try await server.graphql(Self.send, ["id": bob.id], token: ana.token).errorMessage
                    == "You have sent this user a friend request already.")
            #expect(
                try await server.graphql(Self.send, ["id": ana.id], token: bob.token).errorMessage
                    == "This user has sent you a friend request already; accept it instead.")
            #expect(try await server.graphql(Self.send, ["id": ana.id], token: ana.token).errorCode == "BAD_USER_INPUT")

            let incoming = try await server.graphql(
                "{ incomingFriendRequests { edges { node { id from { username } } } } }", token: bob.token)
            #expect(incoming["data"]["incomingFriendRequests"]["edges"][0]["node"]["from"]["username"].string == "pal0")
            let outgoing = try await server.graphql("{ outgoingFriendRequests { edges { node { id } } } }", token: ana.token)
            #expect(outgoing["data"]["outgoingFriendRequests"]["edges"].array.count == 1)
            // A request is a node for its two people only.
            let asNode = "query($id: ID!) { node(id: $id) { ... on FriendRequest { to { username } } } }"
            #expect(
                try await server.graphql(asNode, ["id": requestID], token: ana.token)["data"]["node"]["to"]["username"].string == "pal1")
            #expect(try await server.graphql(asNode, ["id": requestID], token: cid.token)["data"]["node"].isNull)

            // Only the recipient accepts.
            let accept = "mutation($id: ID!) { acceptFriendRequest(requestId: $id) { username isFriend friendCount } }"
            #expect(try await server.graphql(accept, ["id": requestID], token: cid.token).errorCode == "FORBIDDEN")
            #expect(try await server.graphql(accept, ["id": requestID], token: ana.token).errorCode == "FORBIDDEN")
            let accepted = try await server.graphql(accept, ["id": requestID], token: bob.token)
            #expect(accepted["data"]["acceptFriendRequest"]["username"].string == "pal0", "\(accepted)")
            #expect(accepted["data"]["acceptFriendRequest"]["isFriend"].bool == true)
            #expect(try await server.graphql(accept, ["id": requestID], token: bob.token).errorCode == "NOT_FOUND")

            // Friends now: no more requests between them.
            #expect(try await server.graphql(Self.send, ["id": bob.id], token: ana.token).errorMessage == "You are friends already.")
            let friends = try await server.graphql(
                "query($id: ID!) { user(id: $id) { friendCount friends { totalCount edges { node { username } } } } }", ["id": ana.id])
            #expect(friends["data"]["user"]["friendCount"].int == 1)
            #expect(friends["data"]["user"]["friends"]["totalCount"].int == 1)
            #expect(friends["data"]["user"]["friends"]["edges"][0]["node"]["username"].string == "pal1")

            // Deny and cancel.
            let toCid = try await server.graphql(Self.send, ["id": cid.id], token: ana.token)["data"]["sendFriendRequest"]["id"].string!
            #expect(
                try await server.graphql("mutation($id: ID!) { denyFriendRequest(requestId: $id) }", ["id": toCid], token: ana.token)
                    .errorCode == "FORBIDDEN")
            #expect(
                try await server.graphql("mutation($id: ID!) { denyFriendRequest(requestId: $id) }", ["id": toCid], token: cid.token)[
                    "data"]["denyFriendRequest"].string == toCid)
            let again = try await server.graphql(Self.send, ["id": cid.id], token: ana.token)["data"]["sendFriendRequest"]["id"].string!
            #expect(
                try await server.graphql("mutation($id: ID!) { cancelFriendRequest(requestId: $id) }", ["id": again], token: cid.token)
                    .errorCode == "FORBIDDEN")
            #expect(
                try await server.graphql("mutation($id: ID!) { cancelFriendRequest(requestId: $id) }", ["id": again], token: ana.token)[
                    "errors"
                ].isNull)

            // Removing a friend.
            #expect(
                try await server.graphql("mutation($id: ID!) { removeFriend(userId: $id) }", ["id": bob.id], token: ana.token)["errors"]
                    .isNull)
            #expect(
                try await server.graphql("mutation($id: ID!) { removeFriend(userId: $id) }", ["id": bob.id], token: ana.token).errorCode
                    == "NOT_FOUND")
            #expect(try await server.sql("SELECT count(*)::int FROM friendships")[0].decode(Int.self, at: 0) == 0)
        }
    }

    @Test func invitationsToFriendsAnsweredByTheInvitee() async throws {
        try await TestServer.with(mounting: [Playmate.self]) { server in
            let users = try await server.makeUsers(4, prefix: "mate")
            let (ana, bob, cid, dee) = (users[0], users[1], users[2], users[3])
            // Ana befriends Bob and Cid.
            for friend in [bob, cid] {
                let request = try await server.graphql(Self.send, ["id": friend.id], token: ana.token)["data"]["sendFriendRequest"]["id"]
                    .string!
                _ = try await server.graphql(
                    "mutation($id: ID!) { acceptFriendRequest(requestId: $id) { id } }", ["id": request], token: friend.token)
            }
            let session = try await server.graphql(SessionTests.create, SessionTests.input(capacity: 2), token: ana.token)
            let sessionID = try #require(session["data"]["createSportsSession"]["id"].string)
            let invite =
                "mutation($s: ID!, $u: ID!) { inviteToSession(sessionId: $s, userId: $u) { id status to { username } session { id } } }"

            // Only friends, only by players.
            #expect(
                try await server.graphql(invite, ["s": sessionID, "u": dee.id], token: ana.token).errorMessage
                    == "You can invite only your friends.")
            #expect(try await server.graphql(invite, ["s": sessionID, "u": ana.id], token: bob.token).errorCode == "FORBIDDEN")
            let toBob = try await server.graphql(invite, ["s": sessionID, "u": bob.id], token: ana.token)
            let bobInvitation = try #require(toBob["data"]["inviteToSession"]["id"].string, "\(toBob)")
            #expect(toBob["data"]["inviteToSession"]["status"].string == "PENDING")
            #expect(try await server.graphql(invite, ["s": sessionID, "u": bob.id], token: ana.token).errorCode == "BAD_USER_INPUT")
            let toCid = try await server.graphql(invite, ["s": sessionID, "u": cid.id], token: ana.token)["data"]["inviteToSession"]["id"]
                .string!

            let received = try await server.graphql("{ receivedInvitations { edges { node { id from { username } } } } }", token: bob.token)
            #expect(received["data"]["receivedInvitations"]["edges"][0]["node"]["id"].string == bobInvitation)
            let sent = try await server.graphql("{ sentInvitations(status: PENDING) { edges { node { id } } } }", token: ana.token)
            #expect(sent["data"]["sentInvitations"]["edges"].array.count == 2)

            // Nobody else answers your invitation.
            let acceptQuery = "mutation($id: ID!) { acceptInvitation(invitationId: $id) { status session { occupied } } }"
            #expect(try await server.graphql(acceptQuery, ["id": bobInvitation], token: cid.token).errorCode == "FORBIDDEN")
            let accepted = try await server.graphql(acceptQuery, ["id": bobInvitation], token: bob.token)
            #expect(accepted["data"]["acceptInvitation"]["status"].string == "ACCEPTED", "\(accepted)")
            #expect(accepted["data"]["acceptInvitation"]["session"]["occupied"].int == 2)
            // The session is full now: Cid's acceptance is refused and changes nothing.
            let full = try await server.graphql(acceptQuery, ["id": toCid], token: cid.token)
            #expect(full.errorMessage == "This session is full.")
            let declined = try await server.graphql(
                "mutation($id: ID!) { declineInvitation(invitationId: $id) { status answeredAt } }", ["id": toCid], token: cid.token)
            #expect(declined["data"]["declineInvitation"]["status"].string == "DECLINED")
            #expect(try await server.graphql(acceptQuery, ["id": toCid], token: cid.token).errorCode == "BAD_USER_INPUT")

            // Invitations and requests are nodes, for the two people concerned only.
            #expect(
                try await server.graphql(
                    "query($id: ID!) { node(id: $id) { ... on Invitation { status } } }", ["id": bobInvitation], token: bob.token)["data"][
                        "node"]["status"].string == "ACCEPTED")
            #expect(
                try await server.graphql("query($id: ID!) { node(id: $id) { id } }", ["id": bobInvitation], token: dee.token)["data"][
                    "node"
                ].isNull)
            // Ana's inbox reads the invitations of all its notices in one statement:
            // the page, then the invitations' batch (her token was checked before).
            let before = try await server.statementCount()
            let inbox = try await server.graphql(
                "{ notifications { edges { node { kind invitation { status } friendRequest { id } } } } }", token: ana.token)
            #expect(try await server.statementCount() - before == 2, "\(inbox)")
            let answered = inbox["data"]["notifications"]["edges"].array.map { $0["node"] }
            #expect(
                answered.filter { $0["kind"].string == "INVITATION_ACCEPTED" }.map { $0["invitation"]["status"].string } == ["ACCEPTED"])
            #expect(
                answered.filter { $0["kind"].string == "INVITATION_DECLINED" }.map { $0["invitation"]["status"].string } == ["DECLINED"])
            // Each invitation's notice reads as a person would write it.
            let messages = "{ notifications { edges { node { kind message actor { username } session { location { name } } } } } }"
            var texts: [String: String] = [:]
            for token in [bob.token, ana.token] {
                for edge in try await server.graphql(messages, token: token)["data"]["notifications"]["edges"].array {
                    let node = edge["node"]
                    guard let kind = node["kind"].string, kind.hasPrefix("INVITATION"), let actor = node["actor"]["username"].string,
                        let place = node["session"]["location"]["name"].string
                    else { continue }
                    texts[kind] = node["message"].string?.replacingOccurrences(of: actor, with: "NAME")
                        .replacingOccurrences(of: place, with: "PLACE")
                }
            }
            #expect(texts["INVITATION_RECEIVED"] == "NAME invited you to a tennis session at PLACE.", "\(texts)")
            #expect(texts["INVITATION_ACCEPTED"] == "NAME accepted your invitation to a tennis session at PLACE.", "\(texts)")
            #expect(texts["INVITATION_DECLINED"] == "NAME declined your invitation to a tennis session at PLACE.", "\(texts)")
            let kinds = try await server.sql("SELECT kind FROM notifications ORDER BY id").map { try $0.decode(String.self, at: 0) }
            #expect(kinds.filter { $0 == "INVITATION_RECEIVED" }.count == 2)
            #expect(kinds.contains("INVITATION_ACCEPTED"))
            #expect(kinds.contains("INVITATION_DECLINED"))
            // What a notice is about, generically: the invitation, by the rules of node(id:).
            let subjects = try await server.graphql(
                "{ notifications { edges { node { kind subject { __typename ... on Invitation { status } } session { id } } } } }",
                token: ana.token)
            let answers = subjects["data"]["notifications"]["edges"].array.map { $0["node"] }.filter {
                $0["kind"].string == "INVITATION_ACCEPTED"
            }
            #expect(answers.map { $0["subject"]["__typename"].string } == ["Invitation"], "\(subjects)")
            #expect(answers.map { $0["subject"]["status"].string } == ["ACCEPTED"])
            #expect(answers.allSatisfy { $0["session"]["id"].string != nil })
            // The kinds are the mounted apps' list (Playmate's alone here), and the database refuses any other.
            let registered = try await server.sql("SELECT kind || ' ' || app FROM notification_kinds ORDER BY kind").map {
                try $0.decode(String.self, at: 0)
            }
            #expect(
                registered == [
                    "FRIEND_REQUEST_ACCEPTED shared", "FRIEND_REQUEST_RECEIVED shared", "INVITATION_ACCEPTED playmate",
                    "INVITATION_DECLINED playmate", "INVITATION_RECEIVED playmate", "SESSION_DELETED playmate", "SESSION_REMINDER playmate",
                ])
            await #expect {
                try await server.sql("INSERT INTO notifications (user_id, kind) SELECT id, 'SESSION_UPDATED' FROM users LIMIT 1")
            } throws: { ($0 as? PostgresError)?.constraint == "notifications_kind_fkey" }
        }
    }

    /// The feed query costs the same number of statements for 5 sessions
    /// as for 100: one per level, through the loaders.
    @Test func theFeedCostsOneStatementPerLevel() async throws {
        try await TestServer.with(mounting: [Playmate.self]) { server in
            let users = try await server.makeUsers(10, prefix: "feed")
            _ = try await server.sql("INSERT INTO locations (name, latitude, longitude) VALUES ('Court', 40, -74)")
            _ = try await server.sql(
                """
                INSERT INTO sports_sessions (sport, skill_level, creator_id, location_id, latitude, longitude, occurs_at, duration_minutes, capacity)
                SELECT 'TENNIS', 'ANY', (SELECT min(id) FROM users), (SELECT min(id) FROM locations), 40, -74,
                       now() + (i || ' hours')::interval, 60, 10 FROM generate_series(1, 120) AS i
                """)
            _ = try await server.sql(
                "INSERT INTO session_players (session_id, user_id) SELECT s.id, u.id FROM sports_sessions s, users u WHERE u.id % 3 = s.id % 3"
            )
            let feed = """
                query Feed($first: Int) { sportsSessions(first: $first) { edges { cursor node { id sport skillLevel occursAt durationMinutes capacity occupied
                  creator { id username firstName lastName } players { id username } location { name latitude longitude } } }
                  pageInfo { hasNextPage endCursor } } }
                """
            var costs: [Int: Int] = [:]
            for first in [5, 100, 5] {
                let before = try await server.statementCount()
                let reply = try await server.graphql(feed, ["first": first], token: users[0].token)
                #expect(reply["data"]["sportsSessions"]["edges"].array.count == first, "\(reply)")
                costs[first] = try await server.statementCount() - before
            }
            // The page (with its players' ids, its creators and its places
            // joined), then the players; the token is looked up by the first
            // request only.
            #expect(costs[5] == costs[100])
            #expect(costs[100] == 2)
        }
    }
}
