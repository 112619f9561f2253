import Foundation
import HuddleCore
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Inputs an attacker (or a careless client) sends, each answered with a
/// coded error and nothing written, never a 500 or a value stored other
/// than the one sent.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct HostileInputTests {
    typealias H = HabitBuddiesFixtures
    static let mySessions = "query($at: DateTime!) { mySessions(from: $at) { edges { node { id } } } }"

    /// PostgreSQL's text cannot hold U+0000 and libpq would cut the value
    /// there: every such string is refused where it would reach the database.
    @Test func textWithANulCharacterIsRefusedNeverCutShort() async throws {
        try await TestServer.with { server in
            let users = try await server.makeUsers(1, prefix: "nul")
            let ana = users[0]
            func expectRefused(_ reply: JSON, _ what: String) {
                #expect(reply.errorCode == "BAD_USER_INPUT", "\(what): \(reply)")
                #expect(reply.errorMessage == APIError.nulCharacterMessage, "\(what)")
            }
            let project = try await ProlificFixtures.project(server, token: ana.token)
            let snippet = try await server.graphql(
                ProlificFixtures.submit, ["round": project.round, "text": "kept\u{0}lost and more"], token: ana.token)
            expectRefused(snippet, "a snippet")
            #expect(try await server.sql("SELECT count(*)::int FROM snippets")[0].decode(Int.self, at: 0) == 0)

            let biography = try await server.graphql(
                "mutation($b: String) { updateProfile(input: {biography: $b}) { biography } }", ["b": "Hi\u{0}there"], token: ana.token)
            expectRefused(biography, "a biography")
            #expect(try await server.sql("SELECT count(*)::int FROM users WHERE biography LIKE 'Hi%'")[0].decode(Int.self, at: 0) == 0)

            let zone = try await server.graphql(
                "mutation($z: String) { updateHabitProfile(input: {timeZone: $z}) { timeZone } }", ["z": "UTC\u{0}junk"],
                token: ana.token)
            expectRefused(zone, "a time zone")

            let custom = try await server.graphql(
                H.addHabit, ["input": ["customName": "Run\u{0}secretly", "timeZone": "UTC"]], token: ana.token)
            expectRefused(custom, "a habit's name")

            // Signing in as someone else by a name cut at the NUL.
            let logIn = try await server.graphql(
                "mutation($u: String!, $p: String!) { logIn(username: $u, password: $p) { token } }",
                ["u": "nul0\u{0}junk", "p": "whatever"])
            expectRefused(logIn, "a username")
            #expect(logIn["data"]["logIn"]["token"].isNull)
        }
    }

    /// Dates and instants PostgreSQL cannot store, or that would come back
    /// as text the server's own scalar refuses, are refused on the way in.
    @Test func datesOutsideWhatIsStoredAreBadUserInput() async throws {
        try await TestServer.with { server in
            let users = try await server.makeUsers(2, prefix: "when")
            let (me, buddy) = (users[0], users[1])
            for user in users { _ = try await H.habit(server, token: user.token, "Plan tomorrow tonight", timeZone: "Pacific/Pago_Pago") }
            let habit = try await H.habit(server, token: me.token, "Read 20 pages", timeZone: "Pacific/Pago_Pago")

            let yearZero = try await server.graphql(H.checkIn, ["id": habit, "date": "0000-01-01"], token: me.token)
            #expect(yearZero.errorCode == "BAD_USER_INPUT", "\(yearZero)")
            let literal = try await server.graphql(
                #"query($id: ID!) { node(id: $id) { ... on Habit { calendar(month: "0000-01-01") { date } } } }"#, ["id": habit],
                token: me.token)
            #expect(literal.errorCode == "GRAPHQL_VALIDATION_FAILED", "\(literal)")

            try await H.pair(server, me, buddy)
            let farAway = try await server.graphql(
                H.schedule, ["input": ["buddyId": buddy.id, "date": "9999-12-31", "time": "23:50"]], token: me.token)
            #expect(farAway.errorCode == "BAD_USER_INPUT", "\(farAway)")
            #expect(farAway.errorMessage == "\"input.date\" must be within two years.")
            #expect(try await server.sql("SELECT count(*)::int FROM buddy_meetings")[0].decode(Int.self, at: 0) == 0)

            for instant in ["0000-12-31T23:00:00Z", "0001-01-01T00:30:00+01:00", "9999-12-31T23:30:00-01:00", "10000-01-01T00:00:00Z"] {
                let reply = try await server.graphql(Self.mySessions, ["at": instant], token: me.token)
                #expect(reply.errorCode == "BAD_USER_INPUT", "\(instant): \(reply)")
            }
            for instant in ["0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z"] {
                let reply = try await server.graphql(Self.mySessions, ["at": instant], token: me.token)
                #expect(reply["errors"].isNull, "\(instant): \(reply)")
            }
        }
    }

    @Test func aSubscriptionSentForOneResponseIsARequestErrorWithACode() async throws {
        try await TestServer.with { server in
            let reply = try await server.graphql("subscription { notificationReceived { kind } }")
            #expect(reply.errorCode == "BAD_REQUEST", "\(reply)")
            #expect(reply["data"].isNull)
            // @stream is read where results are delivered incrementally.
            let stream = try curl([
                "http://127.0.0.1:\(server.port)/graphql", "-H", "Content-Type: application/json", "-H", "Accept: multipart/mixed",
                "--data", #"{"query":"{ habitCatalogue @stream(initialCount: -1) { id } }"}"#,
            ]).output
            #expect(
                stream.contains(#"{"message":"initialCount must be a positive integer","#)
                    && stream.contains(#""extensions":{"code":"BAD_USER_INPUT"}"#), "\(stream)")
        }
    }

    /// Subscriptions over an event stream count in `huddle_active_subscriptions` as WebSocket ones do.
    @Test func eventStreamSubscriptionsAreCounted() async throws {
        try await TestServer.with { server in
            let ana = try await server.makeUsers(1, prefix: "sse")[0]
            let body = #"{"query":"subscription { notificationReceived { kind } }"}"#
            let client = try RawClient(port: server.port)
            client.send(
                "POST /graphql/stream HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\n"
                    + "Authorization: Bearer \(ana.token)\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            #expect(client.receive { $0.contains(":\n\n") }.text.hasPrefix("HTTP/1.1 200 "))
            try await waitForSubscriptions(1, server: server)
            #expect(try await server.get("/metrics").contains("huddle_active_subscriptions 1\n"))
            withExtendedLifetime(client) {}
        }
    }
}
