import Foundation
import GraphQL
import GraphQLTransport
import HuddlePostgres
import HuddleRuntime
import Playmate
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// `huddle serve` while its PostgreSQL is stopped and started again: a
/// signed-in request is "try again later" (503, SERVICE_UNAVAILABLE,
/// Retry-After), never answered as if signed out; nothing shows the
/// database's own text; everything works again once it is back. The server
/// runs on a private cluster of its own, so stopping it disturbs no other test.
@Suite(.serialized, .hangGuard)
struct DatabaseOutageTests {
    struct Answer {
        var status: Int
        var headers: String
        var body: JSON
        var text: String
    }

    func post(_ server: TestServer, _ query: String, token: String? = nil) async throws -> Answer {
        try await offThePool { try Self.post(port: server.port, query, token: token) }
    }

    static func post(port: Int, _ query: String, token: String?) throws -> Answer {
        let headerFile = FileManager.default.temporaryDirectory.appendingPathComponent("huddle-headers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: headerFile) }
        let body = String(decoding: try JSONSerialization.data(withJSONObject: ["query": query]), as: UTF8.self)
        var arguments = [
            "-X", "POST", "-H", "Content-Type: application/json", "-H", "Accept: application/graphql-response+json",
            "--data-binary", body, "-D", headerFile.path, "-w", "\n%{http_code}", "--max-time", "20",
        ]
        if let token { arguments += ["-H", "Authorization: Bearer \(token)"] }
        let (output, _) = try curl(arguments + ["http://127.0.0.1:\(port)/graphql"])
        var lines = output.components(separatedBy: "\n")
        let status = Int(lines.removeLast()) ?? 0
        let text = lines.joined(separator: "\n")
        let headers = (try? String(contentsOf: headerFile, encoding: .utf8)) ?? ""
        return Answer(status: status, headers: headers, body: JSON((try? JSONReader().read(text)) ?? .null), text: text)
    }

    @Test func aSignedInRequestDuringAnOutageIsTryAgainLaterNotSignedOut() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("huddle-outage-\(UUID().uuidString.prefix(8))").path
        let cluster = try await offThePool { try PrivatePostgres(directory: directory) }
        defer {
            try? cluster.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
        let server = try await TestServer.start(databaseURL: cluster.url, mounting: [Playmate.self], databaseWait: .seconds(2))
        defer { server.stop() }
        let (token, _) = try await server.signUp("outage_ann")
        #expect(try await post(server, "{ me { username } }", token: token).body["data"]["me"]["username"].string == "outage_ann")

        try await offThePool { try cluster.stop() }

        let me = try await post(server, "{ me { username } }", token: token)
        #expect(me.status == 503)
        #expect(me.headers.contains("Retry-After: 5"))
        #expect(me.body.errorCode == "SERVICE_UNAVAILABLE")
        #expect(me.body["data"].isNull && !me.text.contains("\"data\""))
        let mutation = try await post(server, #"mutation { updateProfile(input: {biography: "hi"}) { id } }"#, token: token)
        #expect(mutation.status == 503)
        #expect(mutation.body.errorCode == "SERVICE_UNAVAILABLE")
        #expect(!mutation.text.contains("UNAUTHENTICATED"))

        // Without a token nothing needs checking: what needs no database works,
        // and what does fails as a field error with a code, not PostgreSQL's text.
        #expect(try await post(server, "{ __typename }").text == #"{"data":{"__typename":"Query"}}"#)
        let search = try await post(server, "{ searchLocations(query: \"park\") { name } }")
        #expect(search.status == 200)
        #expect(search.body.errorCode == "SERVICE_UNAVAILABLE")
        #expect(search.body.errorMessage == "The database is unavailable; try again shortly.")
        #expect(!search.text.contains("PostgreSQL") && !search.text.contains(directory) && !search.text.contains("socket"))

        let port = server.port
        let (readiness, _) = try await offThePool {
            try curl(["-s", "-w", "%{http_code}", "http://127.0.0.1:\(port)/readyz"])
        }
        #expect(readiness == "database unavailable\n503")

        // A websocket whose token cannot be checked is told to come back, not that it is forbidden.
        let closed = try await offThePool {
            let client = try WebSocketClient(port: port)
            client.send(#"{"type":"connection_init","payload":{"token":"\#(token)"}}"#)
            return client.next()
        }
        #expect(closed?.kind == "close")
        #expect(closed?.text == "1013 Try again later")

        try await offThePool { try cluster.start() }
        var back: Answer?
        for _ in 0..<200 {
            let answer = try await post(server, "{ me { username } }", token: token)
            if answer.status == 200 {
                back = answer
                break
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(back?.body["data"]["me"]["username"].string == "outage_ann")
    }
}
