import Foundation
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Results of several megabytes, within the response limit, reach a client
/// that reads them whole on every transport: backpressure waits for a
/// reader that reads, however large a message, and closes only on one that
/// reads nothing; a shutdown finishes sending what it accepted.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct LargeResultTests {
    /// About 11 MB: the schema's types with their fields, 120 times over.
    static let selection =
        "__schema { types { name description fields { name description args { name description type { name } } type { name kind ofType { name } } } } }"
    static let query = "{ " + (0..<120).map { "a\($0): \(selection)" }.joined(separator: " ") + " }"
    static let deferred = "{ __typename ... @defer { " + (0..<120).map { "a\($0): \(selection)" }.joined(separator: " ") + " } }"

    static func withServer(_ body: (TestServer) async throws -> Void) async throws {
        try await TestDatabase.withScratchDatabase { url in
            let server = try await TestServer.launch(
                databaseURL: url, arguments: ["--max-aliases", "0", "--max-root-fields", "0", "--log-level", "error"])
            defer { server.stop() }
            try await body(server)
        }
    }

    static func json(_ text: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }

    @Test func aLargeResultOverWebSocketArrivesWholeAndTheSocketStays() async throws {
        try await Self.withServer { server in
            let client = try WebSocketClient(port: server.port)
            client.send(#"{"type":"connection_init"}"#)
            #expect(client.next()?.text == #"{"type":"connection_ack"}"#)
            let payload = String(decoding: try JSONSerialization.data(withJSONObject: ["query": Self.query]), as: UTF8.self)
            // 120 introspections of the whole schema: seconds of work in a
            // debug build, more on a loaded machine, before the first byte.
            client.raw.waitAtMost(seconds: 300)
            client.send(#"{"id":"big","type":"subscribe","payload":\#(payload)}"#)
            let next = client.next()
            #expect(next?.kind == "text")
            #expect((next?.text.utf8.count ?? 0) > 8_000_000)
            let message = Self.json(next?.text ?? "")
            let data = (message?["payload"] as? [String: Any])?["data"] as? [String: Any]
            #expect(data?.count == 120)
            #expect(client.next()?.text == #"{"id":"big","type":"complete"}"#)
            // Still open: another operation runs.
            client.send(#"{"id":"small","type":"subscribe","payload":{"query":"{ __typename }"}}"#)
            #expect(client.next()?.text == #"{"id":"small","type":"next","payload":{"data":{"__typename":"Query"}}}"#)
        }
    }

    @Test func aLargeDeferredPartAndALargeEventArriveWhole() async throws {
        try await Self.withServer { server in
            let body = String(decoding: try JSONSerialization.data(withJSONObject: ["query": Self.deferred]), as: UTF8.self)
            let multipart = try curl([
                "http://127.0.0.1:\(server.port)/graphql", "-H", "Content-Type: application/json", "-H", "Accept: multipart/mixed",
                "--data", body,
            ])
            #expect(multipart.errors.isEmpty, "\(multipart.errors)")
            #expect(multipart.output.utf8.count > 8_000_000)
            #expect(multipart.output.hasSuffix("\r\n-----\r\n"))
            let parts = multipart.output.components(separatedBy: "\r\n---\r\nContent-Type: application/json; charset=utf-8\r\n\r\n")
            #expect(parts.count == 3)
            let last = Self.json(parts.last.map { String($0.dropLast("\r\n-----\r\n".count)) } ?? "")
            #expect(last?["hasNext"] as? Bool == false)

            let events = try curl([
                "http://127.0.0.1:\(server.port)/graphql/stream", "-H", "Content-Type: application/json", "-H",
                "Accept: text/event-stream", "--data",
                String(decoding: try JSONSerialization.data(withJSONObject: ["query": Self.query]), as: UTF8.self),
            ])
            #expect(events.errors.isEmpty, "\(events.errors)")
            #expect(events.output.hasSuffix("event: complete\ndata:\n\n"))
            let next = events.output.components(separatedBy: "\n").first { $0.hasPrefix("data: {") }.map { String($0.dropFirst(6)) }
            #expect((Self.json(next ?? "")?["data"] as? [String: Any])?.count == 120)
        }
    }

    /// A response accepted before SIGTERM is sent whole to a client that
    /// reads it, even one that starts reading after the drain timeout.
    @Test func aShutdownFinishesSendingALargeResponse() async throws {
        try await Self.withServer { server in
            let client = try RawClient(port: server.port)
            let body = String(decoding: try JSONSerialization.data(withJSONObject: ["query": Self.query]), as: UTF8.self)
            client.send(
                "POST /graphql HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            // The head once the response is being written, then nothing read for longer than the drain timeout (2 s).
            let head = try await offThePool { client.receiveBytes { $0.firstRange(of: Array("\r\n\r\n".utf8)) != nil }.bytes }
            server.signal(SIGTERM)
            // On a thread of its own: on the test pool, other tests' blocking
            // reads could hold this one back past the server's send timeout.
            let received = try await offThePool {
                Thread.sleep(forTimeInterval: 3)
                var received = head
                // Until the server closes: a quiet read (5 s) on a loaded machine
                // is not the end. A server that never closes is given two minutes.
                let deadline = ContinuousClock.now + .seconds(120)
                while ContinuousClock.now < deadline {
                    let more = client.receiveBytes()
                    received += more.bytes
                    if more.closed { break }
                }
                return received
            }
            let text = String(decoding: received, as: UTF8.self)
            let split = try #require(text.range(of: "\r\n\r\n"))
            #expect(text.hasPrefix("HTTP/1.1 200 "))
            let length = text[..<split.lowerBound].split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }
            #expect(length == text[split.upperBound...].utf8.count)
            #expect((Self.json(String(text[split.upperBound...]))?["data"] as? [String: Any])?.count == 120)
        }
    }
}
