import Foundation
import HuddleRuntime
import RuntimeTestSupport
import Synchronization
import TestSupport
import Testing

/// The HTTP/1.1 server over real sockets: curl, and a raw socket for what
/// curl will not send.
@Suite(.serialized) struct HTTPServerTests {

    private func responses(in text: String) -> [String] {
        text.components(separatedBy: "HTTP/1.1 ").dropFirst().map { "HTTP/1.1 " + $0 }
    }

    // MARK: curl

    @Test func servesCurlAndKeepsTheConnectionAlive() async throws {
        let running = try await RunningServer()
        let url = "http://127.0.0.1:\(running.port)"
        let (output, errors) = try curl(["-v", "\(url)/one", "\(url)/two", "-d", "hello"])
        #expect(output == "POST /one helloPOST /two hello")
        #expect(errors.contains("Re-using existing connection") || errors.contains("Reusing existing connection"))
        await running.stop()
    }

    @Test func answersHeadWithoutABody() async throws {
        let running = try await RunningServer()
        let (output, _) = try curl(["-I", "http://127.0.0.1:\(running.port)/x"])
        #expect(output.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(output.contains("Content-Length: 8\r\n"))
        #expect(output.hasSuffix("\r\n\r\n"))
        await running.stop()
    }

    @Test func sendsContinueBeforeTheBody() async throws {
        let running = try await RunningServer()
        let body = String(repeating: "x", count: 2000)
        let (output, errors) = try curl([
            "-v", "-H", "Expect: 100-continue", "--data-binary", body, "http://127.0.0.1:\(running.port)/e",
        ])
        #expect(output == "POST /e \(body)")
        #expect(errors.contains("HTTP/1.1 100 Continue"))
        await running.stop()
    }

    @Test func readsChunkedBodiesFromCurl() async throws {
        let running = try await RunningServer()
        let (output, _) = try curl(["-H", "Transfer-Encoding: chunked", "--data-binary", "abc", "http://127.0.0.1:\(running.port)/c"])
        #expect(output == "POST /c abc")
        await running.stop()
    }

    // MARK: Raw sockets

    @Test func answersPipelinedRequestsInOrder() async throws {
        let running = try await RunningServer()
        let client = try RawClient(port: running.port)
        client.send(
            "GET /slow HTTP/1.1\r\nHost: a\r\n\r\nGET /fast HTTP/1.1\r\nHost: a\r\n\r\nPOST /last HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nConnection: close\r\n\r\nz"
        )
        let (text, closed) = client.receive()
        let bodies = responses(in: text).map { $0.components(separatedBy: "\r\n\r\n").last! }
        #expect(bodies == ["GET /slow ", "GET /fast ", "POST /last z"])
        #expect(closed)
        await running.stop()
    }

    @Test func refusesMalformedRequestsAndCloses() async throws {
        let running = try await RunningServer()
        let cases: [(String, String)] = [
            ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", "400"),
            ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabc", "400"),
            ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: abc\r\n\r\n", "400"),
            ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "400"),
            ("GET / HTTP/1.1\r\nHost: a\r\nX: 1\r\n  folded\r\n\r\n", "400"),
            ("GET / HTTP/1.1\r\nHost : a\r\n\r\n", "400"),
            ("GET / HTTP/1.1\r\n\r\n", "400"),
            ("GET / HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n", "400"),
            ("GET / HTTP/3.0\r\nHost: a\r\n\r\n", "505"),
        ]
        for (request, status) in cases {
            let client = try RawClient(port: running.port)
            client.send(request)
            let (text, closed) = client.receive()
            #expect(text.hasPrefix("HTTP/1.1 \(status) "), "\(request.debugDescription)")
            #expect(text.contains("Connection: close\r\n"))
            #expect(closed)
        }
        await running.stop()
    }

    @Test func answersEarlierPipelinedRequestsBeforeTheRefusal() async throws {
        let running = try await RunningServer()
        let client = try RawClient(port: running.port)
        client.send("GET /ok HTTP/1.1\r\nHost: a\r\n\r\nGET /bad HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")
        let statuses = responses(in: client.receive().text).map { $0.prefix(12) }
        #expect(statuses == ["HTTP/1.1 200", "HTTP/1.1 400"])
        await running.stop()
    }

    @Test func enforcesTheLimitsAtAndJustOverThem() async throws {
        let running = try await RunningServer { configuration in
            configuration.limits = .init(maxTargetBytes: 200, maxHeaderBytes: 300, maxBodyBytes: 100)
        }
        func status(_ request: String) throws -> String {
            let client = try RawClient(port: running.port)
            client.send(request)
            return String(client.receive { $0.contains("\r\n\r\n") }.text.prefix(12))
        }
        let target = "/" + String(repeating: "t", count: 199)
        #expect(try status("GET \(target) HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n") == "HTTP/1.1 200")
        #expect(try status("GET \(target)t HTTP/1.1\r\nHost: a\r\n\r\n") == "HTTP/1.1 414")
        // 16 + 9 + 19 + 2 bytes besides the X field's "X: " + n + CRLF.
        let fill = String(repeating: "h", count: 300 - 16 - 9 - 19 - 2 - 5)
        #expect(try status("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\nX: \(fill)\r\n\r\n") == "HTTP/1.1 200")
        #expect(try status("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\nX: \(fill)h\r\n\r\n") == "HTTP/1.1 431")
        let body = String(repeating: "b", count: 100)
        #expect(try status("POST / HTTP/1.1\r\nHost: a\r\nConnection: close\r\nContent-Length: 100\r\n\r\n\(body)") == "HTTP/1.1 200")
        #expect(try status("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 101\r\n\r\n\(body)b") == "HTTP/1.1 413")
        await running.stop()
    }

    @Test func timesOutSlowHeadsStalledBodiesAndIdleConnections() async throws {
        let running = try await RunningServer { configuration in
            configuration.headerTimeout = .milliseconds(200)
            configuration.bodyTimeout = .milliseconds(200)
            configuration.idleTimeout = .milliseconds(300)
            configuration.drainTimeout = .milliseconds(100)
        }
        let slowHead = try RawClient(port: running.port)
        slowHead.send("GET / HTTP/1.1\r\nHo")
        let head = slowHead.receive()
        #expect(head.text.hasPrefix("HTTP/1.1 408 "))
        #expect(head.closed)

        let stalledBody = try RawClient(port: running.port)
        stalledBody.send("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nabc")
        #expect(stalledBody.receive().text.hasPrefix("HTTP/1.1 408 "))

        let idle = try RawClient(port: running.port)
        idle.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n")
        let idleResult = idle.receive()
        #expect(idleResult.text.hasPrefix("HTTP/1.1 200 "))
        #expect(idleResult.closed)
        await running.stop()
    }

    @Test func refusesConnectionsBeyondTheCapWith503() async throws {
        let running = try await RunningServer { $0.maxConnections = 1 }
        let first = try RawClient(port: running.port)
        first.send("GET /1 HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(first.receive { $0.hasSuffix("GET /1 ") }.text.hasPrefix("HTTP/1.1 200 "))
        let second = try RawClient(port: running.port)
        let refused = second.receive()
        #expect(refused.text.hasPrefix("HTTP/1.1 503 "))
        #expect(refused.text.contains(/\r\nX-Request-Id: [0-9a-f]{32}\r\n/), "\(refused.text)")
        #expect(refused.closed)
        // The first connection still works.
        first.send("GET /2 HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(first.receive { $0.hasSuffix("GET /2 ") }.text.hasPrefix("HTTP/1.1 200 "))
        await running.stop()
    }

    @Test func stopsReadingWhileTheClientDoesNotReadItsResponses() async throws {
        let size = 256 * 1024
        let big = [UInt8](repeating: 0x61, count: size)
        let running = try await RunningServer(configure: { $0.maxUnsentBytes = 16 * 1024 }) { _ in
            HTTPResponse(status: 200, headers: [], body: big)
        }
        let client = try RawClient(port: running.port)
        let count = 64
        client.send(
            String(repeating: "GET / HTTP/1.1\r\nHost: a\r\n\r\n", count: count - 1)
                + "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        try await Task.sleep(for: .milliseconds(300))
        // Kernel buffers hold a few responses; the rest wait unread.
        let handledWhileBlocked = running.handled.value
        #expect(handledWhileBlocked < count)
        let (text, closed) = client.receive()
        #expect(closed)
        #expect(text.utf8.count > count * size)
        #expect(running.handled.value == count)
        await running.stop()
    }

    @Test func logsOneLinePerRequestAtTheChosenLevel() async throws {
        for level in [LogLevel.info, .warning] {
            let lines = Log()
            let running = try await RunningServer(configure: { $0.logger = Logger(level: level) { lines.append($0) } }) { request in
                var response = HTTPResponse(status: request.head.target.hasPrefix("/fail") ? 500 : 200, body: Array("abc".utf8))
                var operation = LoggedOperation(type: "query", name: "Op")
                operation.errorCodes = ["BAD_USER_INPUT", "FORBIDDEN"]
                operation.cost = 7
                operation.userID = "42"
                response.operation = operation
                return response
            }
            let client = try RawClient(port: running.port)
            client.send(
                "GET /ok?secret=1 HTTP/1.1\r\nHost: a\r\nX-Request-Id: abc-123\r\n\r\nGET /fail HTTP/1.1\r\nHost: a\r\n\r\n"
                    + "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"
            )
            _ = client.receive()
            await running.stop()
            let all = lines.all
            let parsed = all.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            #expect(parsed.count == all.count, "every line is a JSON object: \(all)")
            // The shutdown's own lines aside.
            let objects = parsed.filter { $0["msg"] as? String == "request" }
            let logged = all.filter { $0.contains(#""msg":"request""#) }
            if level == .info {
                #expect(logged.count == 3)
                let first = objects[0]
                #expect(first["level"] as? String == "info" && first["msg"] as? String == "request")
                #expect((first["time"] as? String)?.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil, "\(first)")
                #expect(first["request_id"] as? String == "abc-123")
                #expect(first["method"] as? String == "GET" && first["path"] as? String == "/ok")
                #expect(first["operation_type"] as? String == "query" && first["operation"] as? String == "Op")
                #expect(first["status"] as? Int == 200 && first["bytes"] as? Int == 3 && first["duration_ms"] is Double)
                #expect(first["cost"] as? Int == 7 && first["error_codes"] as? String == "BAD_USER_INPUT,FORBIDDEN")
                #expect(first["user_id"] as? String == "42" && first["client"] as? String == "127.0.0.1")
                #expect(!logged[0].contains("secret"))
                // A request with no id of its own gets one: 32 hex digits, each its own.
                let made = objects.dropFirst().compactMap { $0["request_id"] as? String }
                #expect(made.count == 2 && Set(made).count == 2 && made.allSatisfy { $0.wholeMatch(of: /[0-9a-f]{32}/) != nil })
                #expect(objects[2]["status"] as? Int == 400)
            }
            #expect(objects.filter { $0["level"] as? String == "error" && $0["path"] as? String == "/fail" }.count == 1)
            if level == .warning { #expect(logged.count == 1) }
        }
    }

    /// The request's id comes back in `X-Request-Id`: the client's when it
    /// is one a log can carry (1 to 128 of letters, digits and `-_.:/+=@`),
    /// else one made here; the handler sees it as `RequestID.current`.
    @Test func echoesTheRequestIdOrMakesOne() async throws {
        let running = try await RunningServer(handler: { request in
            HTTPResponse(status: 200, contentType: "text/plain", body: (RequestID.current ?? "none") + "|" + request.id)
        })
        let long = String(repeating: "a", count: 128)
        for (sent, kept) in [("Root=1-67a2/b:c+d@e_f.g", true), (long, true), (long + "a", false), ("two words", false), ("", false)] {
            let client = try RawClient(port: running.port)
            client.send("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\nX-Request-Id: \(sent)\r\n\r\n")
            let response = client.receive().text
            let echoed = response.split(separator: "\r\n").first { $0.lowercased().hasPrefix("x-request-id: ") }.map {
                String($0.dropFirst(14))
            }
            let body = response.components(separatedBy: "\r\n\r\n").last ?? ""
            if kept {
                #expect(echoed == sent, "\(response)")
            } else {
                #expect(echoed?.wholeMatch(of: /[0-9a-f]{32}/) != nil, "\(response)")
            }
            #expect(body == "\(echoed ?? "?")|\(echoed ?? "?")", "\(response)")
        }
        await running.stop()
    }

    /// On a terminal the same fields read as text, a value quoted only
    /// when it holds a space, an `=` or a quote.
    @Test func logsTextForAPersonAtATerminal() {
        let lines = Log()
        Logger(level: .info, format: .text) { lines.append($0) }.log(
            .warning, "slow request", ["request_id": .string("abc"), "operation": .string("My Op"), "duration_ms": .double(1234.5)])
        Logger(level: .info, format: .text) { lines.append($0) }.log(.info, "request", ["operation": .string("evil\u{1B}[2J")])
        #expect(lines.all.last?.hasSuffix(#" INFO request operation="evil\u001b[2J""#) == true, "\(lines.all)")
        let line = lines.all.first ?? ""
        #expect(
            line.wholeMatch(
                of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z WARNING slow request request_id=abc operation="My Op" duration_ms=1234.500/)
                != nil, "\(line)")
    }

    @Test func shutdownFinishesRequestsInFlightAndStopsAccepting() async throws {
        let running = try await RunningServer { $0.drainTimeout = .seconds(5) }
        let client = try RawClient(port: running.port)
        client.send("GET /slowest HTTP/1.1\r\nHost: a\r\n\r\n")
        try await Task.sleep(for: .milliseconds(20))
        let stopping = running.beginShutdown()
        let reader = client
        let (text, closed) = try await offThePool { reader.receive() }
        #expect(text.hasPrefix("HTTP/1.1 200 "))
        #expect(text.contains("Connection: close\r\n"))
        #expect(closed)
        await stopping.value
        #expect(throws: (any Error).self) { try RawClient(port: running.port) }
        await running.stop()
    }

    /// A handler that waits half a minute unless its task is cancelled.
    final class Waiting: Sendable {
        let started = Counter()
        let cancelled = Counter()

        func handle(_ request: HTTPRequest) async -> HTTPResponse {
            guard request.head.target == "/wait" else { return HTTPResponse(status: 200, contentType: "text/plain", body: "at once") }
            started.increment()
            do {
                try await Task.sleep(for: .seconds(30))
            } catch {
                cancelled.increment()
            }
            return HTTPResponse(status: 200, contentType: "text/plain", body: "late")
        }

        func waitUntil(_ counter: Counter, reaches value: Int) async throws {
            for _ in 0..<500 where counter.value < value { try await Task.sleep(for: .milliseconds(10)) }
        }
    }

    @Test func aRequestWhoseClientHangsUpIsCancelled() async throws {
        let waiting = Waiting()
        let running = try await RunningServer(handler: { await waiting.handle($0) })
        do {
            let client = try RawClient(port: running.port)
            client.send("GET /wait HTTP/1.1\r\nHost: a\r\n\r\n")
            try await waiting.waitUntil(waiting.started, reaches: 1)
            #expect(waiting.cancelled.value == 0)
        }
        // The client's socket is closed here.
        try await waiting.waitUntil(waiting.cancelled, reaches: 1)
        #expect(waiting.cancelled.value == 1)
        // The connection is gone and the server goes on serving.
        let (output, _) = try curl(["http://127.0.0.1:\(running.port)/echo"])
        #expect(output == "at once")
        await running.stop()
    }

    @Test func shutdownCancelsWhatIsStillRunningAtTheGracePeriod() async throws {
        let waiting = Waiting()
        let running = try await RunningServer(
            configure: { $0.shutdownGracePeriod = .milliseconds(200) }, handler: { await waiting.handle($0) })
        let client = try RawClient(port: running.port)
        client.send("GET /wait HTTP/1.1\r\nHost: a\r\n\r\n")
        try await waiting.waitUntil(waiting.started, reaches: 1)
        await running.shutdown()
        try await waiting.waitUntil(waiting.cancelled, reaches: 1)
        #expect(waiting.cancelled.value == 1)
        #expect(client.receive().closed)
        await running.stop()
    }
}
