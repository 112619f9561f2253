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
}
