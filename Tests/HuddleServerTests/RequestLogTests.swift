import Foundation
import HuddleRuntime
import PostgresTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// The request log of a real server, read as an operator's collector reads
/// it: one JSON object per line, naming the request (its id, echoed to the
/// client and put in its errors), the operation (by the document's name
/// when the request gives none), its cost and error codes, the client and
/// the signed-in user; never a token, a password or a variable's value.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct RequestLogTests {
    @Test func eachLineNamesTheRequestTheOperationAndWhoAsked() async throws {
        let lines = Log()
        try await TestServer.with({ configuration in
            configuration.http.logger = Logger(level: .info) { lines.append($0) }
            // Every request counts as slow: its warning line names the document by hash.
            configuration.http.slowRequestThreshold = .zero
        }) { server in
            let secret = "correct horse battery"
            let me = try await server.signUp("logged", password: secret)
            let named = "query Mine { me { id username } }"
            let reply = try await server.graphql(named, token: me.token, headers: ["X-Request-Id": "req-mine-1"])
            #expect(reply["errors"].isNull, "\(reply)")
            let failing = try await server.graphql("{ nope }", headers: ["X-Request-Id": "req-nope-1"])
            #expect(failing["errors"][0]["extensions"]["requestId"].string == "req-nope-1", "\(failing)")
            // A request's line is written once its response is sent: it may come just after the client has it.
            let deadline = ContinuousClock.now + .seconds(60)
            while !lines.all.contains(where: { $0.contains(#""request_id":"req-nope-1""#) && $0.contains(#""msg":"request""#) }),
                ContinuousClock.now < deadline
            {
                try await Task.sleep(for: .milliseconds(10))
            }

            let objects = lines.all.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            #expect(objects.count == lines.all.count, "\(lines.all.filter { !$0.hasPrefix("{") })")
            let mine = try #require(objects.first { $0["msg"] as? String == "request" && $0["request_id"] as? String == "req-mine-1" })
            #expect(mine["operation_type"] as? String == "query" && mine["operation"] as? String == "Mine", "\(mine)")
            #expect(mine["user_id"] as? String == String(rowID(me.id)) && mine["client"] as? String == "127.0.0.1", "\(mine)")
            #expect(mine["status"] as? Int == 200 && mine["cost"] is Int && mine["error_codes"] == nil, "\(mine)")
            let nope = try #require(objects.first { $0["msg"] as? String == "request" && $0["request_id"] as? String == "req-nope-1" })
            #expect(nope["error_codes"] as? String == "GRAPHQL_VALIDATION_FAILED" && nope["user_id"] == nil, "\(nope)")
            let slow = try #require(objects.first { $0["msg"] as? String == "slow request" && $0["request_id"] as? String == "req-mine-1" })
            #expect(slow["level"] as? String == "warning" && slow["document_sha256"] as? String == Digest.sha256Hex(Array(named.utf8)))
            // The sign-up's password (a variable) and the token appear nowhere.
            #expect(!lines.all.contains { $0.contains(secret) || $0.contains(me.token) })
        }
    }

    /// An operation on a WebSocket has a line of its own when it ends,
    /// named by the socket's request id and its own, and its errors carry
    /// that name.
    @Test func webSocketOperationsHaveLinesOfTheirOwn() async throws {
        let lines = Log()
        try await TestServer.with({ configuration in
            configuration.http.logger = Logger(level: .info) { lines.append($0) }
        }) { server in
            let client = try WebSocketClient(port: server.port)
            client.initialise()
            client.send(#"{"id":"op1","type":"subscribe","payload":{"query":"query Ws { __typename }"}}"#)
            #expect(client.next()?.text.contains(#""__typename":"Query""#) == true)
            #expect(client.next()?.text == #"{"id":"op1","type":"complete"}"#)
            client.send(#"{"id":"op2","type":"subscribe","payload":{"query":"{ nope }"}}"#)
            let failed = client.next()?.text ?? ""
            let named = try #require(failed.firstMatch(of: /"requestId":"([0-9a-f]{32}):op2"/), "\(failed)")
            func operation(_ id: String) -> [String: Any]? {
                lines.all.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                    .first { $0["msg"] as? String == "operation" && ($0["request_id"] as? String)?.hasSuffix(":" + id) == true }
            }
            for _ in 0..<200 where operation("op2") == nil { try await Task.sleep(for: .milliseconds(25)) }
            let first = try #require(operation("op1"), "\(lines.all)")
            #expect(first["protocol"] as? String == "graphql-transport-ws" && first["operation_type"] as? String == "query")
            #expect(first["operation"] as? String == "Ws" && first["outcome"] as? String == "completed" && first["duration_ms"] is Double)
            let second = try #require(operation("op2"))
            #expect(second["request_id"] as? String == "\(named.1):op2")
            #expect(second["error_codes"] as? String == "GRAPHQL_VALIDATION_FAILED")
            // The upgrade's own request line has the socket's id.
            #expect(lines.all.contains { $0.contains(#""msg":"request""#) && $0.contains(#""request_id":"\#(named.1)""#) })
        }
    }
}
