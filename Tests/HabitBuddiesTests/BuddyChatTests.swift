import Foundation
import GraphQL
import HabitBuddies
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// The document's fuller matching (chat-before-pairing=1): two right swipes
/// make a match, the two write to each other (live, stored, with receipts),
/// and they are buddies once both confirm; without the setting, swipes pair
/// at once (the other suites).
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct BuddyChatTests {
    static let swipe = """
        mutation($id: ID!) { swipeBuddy(userId: $id, direction: RIGHT) { buddy { user { username } } pending { user { username } viewerConfirmed otherConfirmed } } }
        """
    static let send =
        "mutation($id: ID!, $text: String!) { sendBuddyMessage(userId: $id, text: $text) { id text sender { username } readAt } }"
    static let confirm = "mutation($id: ID!) { confirmBuddy(userId: $id) { user { username } } }"

    @Test func matchesChatAndBecomeBuddiesWhenBothConfirm() async throws {
        try await TestDatabase.withScratchDatabase { url in
            let server = try await TestServer.start(databaseURL: url, mounting: [HabitBuddies.self], settings: ["chat-before-pairing=1"])
            defer { server.stop() }
            let users = try await server.makeUsers(3, prefix: "chat")
            let (ana, bob, cara) = (users[0], users[1], users[2])
            for user in users { _ = try await HabitBuddiesFixtures.habit(server, token: user.token, "Meditate for 10 minutes") }

            let first = try await server.graphql(Self.swipe, ["id": bob.id], token: ana.token)
            #expect(first["data"]["swipeBuddy"]["pending"].isNull && first["data"]["swipeBuddy"]["buddy"].isNull, "\(first)")
            let second = try await server.graphql(Self.swipe, ["id": ana.id], token: bob.token)
            #expect(second["data"]["swipeBuddy"]["buddy"].isNull, "\(second)")
            #expect(second["data"]["swipeBuddy"]["pending"]["user"]["username"].string == "chat0", "\(second)")
            // Not buddies yet; each has the match, and its notice.
            let before = try await server.graphql(
                "{ buddies { user { username } } pendingBuddies { user { username } viewerConfirmed } notifications { edges { node { kind } } } }",
                token: ana.token)
            #expect(before["data"]["buddies"].array.isEmpty, "\(before)")
            #expect(before["data"]["pendingBuddies"].array.map { $0["user"]["username"].string } == ["chat1"])
            #expect(before["data"]["notifications"]["edges"].array.map { $0["node"]["kind"].string } == ["BUDDY_PENDING"])

            // Bob listens; Ana writes; Bob gets it live, and it is kept.
            let bobClient = try subscriber(port: server.port, token: bob.token)
            bobClient.send(
                #"{"id":"1","type":"subscribe","payload":{"query":"subscription { buddyMessageReceived { message { text sender { username } } notification { kind message } } }"}}"#
            )
            try await waitForSubscriptions(1, server: server)
            let sent = try await server.graphql(Self.send, ["id": bob.id, "text": "  Hi! Mornings work for me.  "], token: ana.token)
            #expect(sent["data"]["sendBuddyMessage"]["text"].string == "  Hi! Mornings work for me.  ", "\(sent)")
            #expect(sent["data"]["sendBuddyMessage"]["readAt"].isNull)
            let live = try HabitBuddiesLiveTests.event(bobClient)["payload"]["data"]["buddyMessageReceived"]
            #expect(live["message"]["text"].string == "  Hi! Mornings work for me.  ", "\(live)")
            #expect(live["notification"]["kind"].string == "BUDDY_MESSAGE")
            #expect(live["notification"]["message"].string == "chat0:   Hi! Mornings work for me.  ")
            _ = try await server.graphql(Self.send, ["id": ana.id, "text": "Mine too."], token: bob.token)

            // The conversation, newest first, the same for both; receipts.
            let conversation = "query($id: ID!) { buddyMessages(userId: $id) { edges { node { text sender { username } readAt } } } }"
            let seenByAna = try await server.graphql(conversation, ["id": bob.id], token: ana.token)
            #expect(
                seenByAna["data"]["buddyMessages"]["edges"].array.map { $0["node"]["text"].string } == [
                    "Mine too.", "  Hi! Mornings work for me.  ",
                ], "\(seenByAna)")
            let read = try await server.graphql(
                "mutation($id: ID!) { markBuddyMessagesRead(userId: $id) }", ["id": ana.id], token: bob.token)
            #expect(read["data"]["markBuddyMessagesRead"].int == 1, "\(read)")
            let receipts = try await server.graphql(conversation, ["id": bob.id], token: ana.token)
            let edges = receipts["data"]["buddyMessages"]["edges"].array
            #expect(edges.last?["node"]["readAt"].string != nil && edges.first?["node"]["readAt"].isNull == true, "\(receipts)")

            // Nobody else, and nothing empty or too long.
            let stranger = try await server.graphql(Self.send, ["id": ana.id, "text": "Hello?"], token: cara.token)
            #expect(stranger.errorCode == "FORBIDDEN", "\(stranger)")
            for text in ["   ", String(repeating: "a", count: 2001)] {
                let refused = try await server.graphql(Self.send, ["id": bob.id, "text": text], token: ana.token)
                #expect(refused.errorCode == "BAD_USER_INPUT", "\(refused)")
            }
            let longest = try await server.graphql(
                Self.send, ["id": bob.id, "text": String(repeating: "a", count: 2000)], token: ana.token)
            #expect(longest["errors"].isNull, "\(longest)")

            // One confirms: still waiting. The other does: buddies, and the chat goes on.
            let waiting = try await server.graphql(Self.confirm, ["id": bob.id], token: ana.token)
            #expect(waiting["errors"].isNull && waiting["data"]["confirmBuddy"].isNull, "\(waiting)")
            let paired = try await server.graphql(Self.confirm, ["id": ana.id], token: bob.token)
            #expect(paired["data"]["confirmBuddy"]["user"]["username"].string == "chat0", "\(paired)")
            let after = try await server.graphql("{ buddies { user { username } } pendingBuddies { user { username } } }", token: ana.token)
            #expect(after["data"]["buddies"].array.map { $0["user"]["username"].string } == ["chat1"], "\(after)")
            #expect(after["data"]["pendingBuddies"].array.isEmpty)
            let buddiesTalk = try await server.graphql(Self.send, ["id": bob.id, "text": "See you Monday."], token: ana.token)
            #expect(buddiesTalk["errors"].isNull, "\(buddiesTalk)")
            let nothing = try await server.graphql(Self.confirm, ["id": cara.id], token: ana.token)
            #expect(nothing.errorCode == "NOT_FOUND", "\(nothing)")

            // Declining a match ends it, and its chat with it.
            _ = try await server.graphql(Self.swipe, ["id": cara.id], token: ana.token)
            _ = try await server.graphql(Self.swipe, ["id": ana.id], token: cara.token)
            let declined = try await server.graphql("mutation($id: ID!) { declineBuddy(userId: $id) }", ["id": ana.id], token: cara.token)
            #expect(declined["data"]["declineBuddy"].bool == true, "\(declined)")
            let closed = try await server.graphql(Self.send, ["id": ana.id, "text": "Wait!"], token: cara.token)
            #expect(closed.errorCode == "FORBIDDEN", "\(closed)")
        }
    }
}

extension BuddyChatTests {
    /// A declined match stays declined, whoever swipes again; a left swipe
    /// ends a match; a confirmation over the cap changes nothing.
    @Test func declinedMatchesStayDeclinedAndTheCapHolds() async throws {
        try await TestDatabase.withScratchDatabase { url in
            let server = try await TestServer.start(
                databaseURL: url, mounting: [HabitBuddies.self], settings: ["chat-before-pairing=1", "max-buddies=1"])
            defer { server.stop() }
            let users = try await server.makeUsers(4, prefix: "cap")
            let (ana, bob, cara, dan) = (users[0], users[1], users[2], users[3])
            for user in users { _ = try await HabitBuddiesFixtures.habit(server, token: user.token, "Meditate for 10 minutes") }
            func match(_ a: (token: String, id: String), _ b: (token: String, id: String)) async throws {
                _ = try await server.graphql(Self.swipe, ["id": b.id], token: a.token)
                let second = try await server.graphql(Self.swipe, ["id": a.id], token: b.token)
                #expect(second["data"]["swipeBuddy"]["pending"]["user"]["username"].string != nil, "\(second)")
            }
            func pending(_ user: (token: String, id: String)) async throws -> [String] {
                let answer = try await server.graphql("{ pendingBuddies { user { username } } }", token: user.token)
                return answer["data"]["pendingBuddies"].array.compactMap { $0["user"]["username"].string }
            }
            // Bob declines Ana; her swiping right again makes no match, nor any notice.
            try await match(ana, bob)
            _ = try await server.graphql("mutation($id: ID!) { declineBuddy(userId: $id) }", ["id": ana.id], token: bob.token)
            let again = try await server.graphql(Self.swipe, ["id": bob.id], token: ana.token)
            #expect(again["data"]["swipeBuddy"]["pending"].isNull, "\(again)")
            #expect(try await pending(ana).isEmpty)
            #expect(try await pending(bob).isEmpty)
            // A left swipe on a match ends it.
            try await match(ana, cara)
            _ = try await server.graphql(
                "mutation($id: ID!) { swipeBuddy(userId: $id, direction: LEFT) { direction } }", ["id": ana.id], token: cara.token)
            #expect(try await pending(ana).isEmpty)
            // Dan pairs with Cara; a match between Dan and Ana cannot be confirmed past the cap of one.
            try await match(cara, dan)
            _ = try await server.graphql(Self.confirm, ["id": dan.id], token: cara.token)
            let paired = try await server.graphql(Self.confirm, ["id": cara.id], token: dan.token)
            #expect(paired["data"]["confirmBuddy"]["user"]["username"].string == "cap2", "\(paired)")
            _ = try await server.sql("DELETE FROM buddy_swipes WHERE user_id IN ($1, $2)", [rowID(ana.id), rowID(dan.id)])
            _ = try await server.sql(
                "INSERT INTO buddy_swipes (user_id, candidate_id, direction) VALUES ($1, $2, 'RIGHT')", [rowID(dan.id), rowID(ana.id)])
            _ = try await server.sql(
                "INSERT INTO buddy_matches (first_id, second_id) VALUES (least($1::bigint, $2::bigint), greatest($1::bigint, $2::bigint))",
                [rowID(ana.id), rowID(dan.id)])
            _ = try await server.graphql(Self.confirm, ["id": dan.id], token: ana.token)
            let over = try await server.graphql(Self.confirm, ["id": ana.id], token: dan.token)
            #expect(over.errorCode == "BAD_USER_INPUT", "\(over)")
            let still = try await server.sql(
                """
                SELECT (CASE WHEN first_id = $1::bigint THEN first_confirmed ELSE second_confirmed END)
                       AND NOT (CASE WHEN first_id = $1::bigint THEN second_confirmed ELSE first_confirmed END)
                FROM buddy_matches WHERE first_id = least($1::bigint, $2::bigint) AND second_id = greatest($1::bigint, $2::bigint)
                """, [rowID(ana.id), rowID(dan.id)])
            // The match stays, with Ana's confirmation only.
            #expect(try still.map { try $0.decode(Bool.self, at: 0) } == [true])
        }
    }
}
