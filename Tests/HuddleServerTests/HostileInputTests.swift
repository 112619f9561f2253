import Foundation
import HuddleCore
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Requests an attacker (or a careless client) sends the server, each
/// answered with a coded error, never a 500; each app's own are in its tests.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct HostileInputTests {
    @Test func aSubscriptionSentForOneResponseIsARequestErrorWithACode() async throws {
        try await TestServer.with(mounting: everyApp) { server in
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
                    && stream.contains(#""extensions":{"code":"BAD_USER_INPUT","requestId":"#), "\(stream)")
        }
    }

    /// Subscriptions over an event stream count in `huddle_active_subscriptions` as WebSocket ones do.
    @Test func eventStreamSubscriptionsAreCounted() async throws {
        try await TestServer.with(mounting: everyApp) { server in
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
