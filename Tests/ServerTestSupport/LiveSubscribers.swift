import Foundation
import PostgresTestSupport
import RuntimeTestSupport
import TestSupport
import Testing

/// A websocket client with the given token in connection_init.
package func subscriber(port: Int, token: String, subprotocol: String = "graphql-transport-ws") throws -> WebSocketClient {
    let client = try WebSocketClient(port: port, subprotocol: subprotocol)
    client.send(#"{"type":"connection_init","payload":{"token":"\#(token)"}}"#)
    let ack = client.next()?.text
    #expect(ack == #"{"type":"connection_ack"}"#)
    return client
}

/// The row id inside a global id.
package func rowID(_ globalID: String) -> String {
    let padded = globalID + String(repeating: "=", count: (4 - globalID.count % 4) % 4)
    return String(String(decoding: Data(base64Encoded: padded)!, as: UTF8.self).split(separator: ":")[1])
}

/// Waits until a server's listener has run LISTEN on `channel` (its last
/// statement, as pg_stat_activity shows), so an event sent now reaches it.
package func waitUntilListening(on channel: String, server: TestServer) async throws {
    for _ in 0..<200 {
        let rows = try await server.sql("SELECT 1 FROM pg_stat_activity WHERE query = $1", ["LISTEN \"\(channel)\""])
        if !rows.isEmpty { return }
        try await Task.sleep(for: .milliseconds(50))
    }
    Issue.record("nobody listens on \(channel)")
}

/// Waits until a server runs `count` subscriptions (its /metrics), and a
/// moment more for the last to take its starting point.
package func waitForSubscriptions(_ count: Int, server: TestServer) async throws {
    for _ in 0..<200 {
        if try await server.get("/metrics").contains("huddle_active_subscriptions \(count)\n") { break }
        try await Task.sleep(for: .milliseconds(50))
    }
    try await Task.sleep(for: .milliseconds(200))
}
