import Foundation
import HuddleServer
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// A WebSocket signed in with a token stops acting for its user when the
/// token ends, wherever it ends: logging out over HTTP on this server or
/// another, an operator's SQL; with the token cache on or off. The socket
/// is closed with 4403 and its running subscription goes with it.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct SignedInSocketTests {
    static let logOut = "mutation { logOut }"
    static let subscription = "subscription { notificationReceived { kind } }"

    /// A socket signed in with `token`, running the subscription, counted by its server.
    static func listening(
        _ server: TestServer, token: String, subprotocol: String, running: Int
    ) async throws -> WebSocketClient {
        let client = try subscriber(port: server.port, token: token, subprotocol: subprotocol)
        let start = subprotocol == "graphql-ws" ? "start" : "subscribe"
        client.send(#"{"id":"1","type":"\#(start)","payload":{"query":"\#(subscription)"}}"#)
        try await waitForSubscriptions(running, server: server)
        return client
    }

    /// The code and reason the socket is closed with, past keep-alives and
    /// the legacy protocol's connection_error; nil when it is not closed.
    static func closing(_ client: WebSocketClient) -> String? {
        while let frame = client.next() {
            if frame.kind == "close" { return frame.text }
            let skipped = [#"{"type":"ping"}"#, #"{"type":"ka"}"#]
            if skipped.contains(frame.text) || frame.text.contains(#""type":"connection_error""#) { continue }
            Issue.record("unexpected message before the close: \(frame.text)")
        }
        return nil
    }

    static let ended = "4403 Forbidden: the connection's sign-in has ended"

    @Test(arguments: ["graphql-transport-ws", "graphql-ws"])
    func loggingOutClosesTheTokensSocketsOnEveryServer(subprotocol: String) async throws {
        try await TestServer.withTwo { first, second in
            let users = try await first.makeUsers(2, prefix: "sock")
            let (ana, bob) = (users[0], users[1])
            let here = try await Self.listening(first, token: ana.token, subprotocol: subprotocol, running: 1)
            let there = try await Self.listening(second, token: ana.token, subprotocol: subprotocol, running: 1)
            // Another user's socket is left alone.
            let other = try await Self.listening(second, token: bob.token, subprotocol: subprotocol, running: 2)

            let reply = try await first.graphql(Self.logOut, token: ana.token)
            #expect(reply["data"]["logOut"].bool == true, "\(reply)")
            #expect(Self.closing(here) == Self.ended)
            #expect(Self.closing(there) == Self.ended)
            try await waitForSubscriptions(1, server: second)
            try await waitForSubscriptions(0, server: first)
            #expect(try await second.get("/metrics").contains("huddle_active_subscriptions 1\n"))

            // Bob's socket still answers.
            let query = subprotocol == "graphql-ws" ? "start" : "subscribe"
            other.send(#"{"id":"2","type":"\#(query)","payload":{"query":"{ me { username } }"}}"#)
            var answer = other.next()
            while answer?.text == #"{"type":"ka"}"# || answer?.text == #"{"type":"ping"}"# { answer = other.next() }
            #expect(answer?.text.contains(#"{"me":{"username":"sock1"}}"#) == true, "\(String(describing: answer))")
        }
    }

    @Test func anOperatorsDeleteClosesTheSocketWithTheCacheOff() async throws {
        try await TestDatabase.withScratchDatabase { url in
            let server = try await TestServer.start(databaseURL: url) { $0.tokenCacheLifetime = .zero }
            defer { server.stop() }
            let ana = try await server.makeUsers(1, prefix: "op")[0]
            let socket = try await Self.listening(server, token: ana.token, subprotocol: "graphql-transport-ws", running: 1)
            _ = try await server.sql("DELETE FROM auth_tokens WHERE user_id = (SELECT id FROM users WHERE username = 'op0')")
            #expect(Self.closing(socket) == Self.ended)
        }
    }

    /// An operation started after the token ended is refused even when no
    /// notice of it came: the sign-in is asked again before each operation
    /// (of the database here, with the cache off).
    @Test func anOperationAfterTheTokenEndedUnannouncedClosesTheSocket() async throws {
        try await TestDatabase.withScratchDatabase { url in
            let server = try await TestServer.start(databaseURL: url) { $0.tokenCacheLifetime = .zero }
            defer { server.stop() }
            let ana = try await server.makeUsers(1, prefix: "exp")[0]
            let socket = try subscriber(port: server.port, token: ana.token)
            // Expired without the trigger's notice, as time passing expires a token.
            _ = try await server.sql("ALTER TABLE auth_tokens DISABLE TRIGGER USER")
            _ = try await server.sql("UPDATE auth_tokens SET expires_at = now() - interval '1 second'")
            _ = try await server.sql("ALTER TABLE auth_tokens ENABLE TRIGGER USER")
            socket.send(#"{"id":"1","type":"subscribe","payload":{"query":"{ me { username } }"}}"#)
            #expect(Self.closing(socket) == Self.ended)
        }
    }
}
