import Foundation
import HuddleRuntime
import RuntimeTestSupport
import Synchronization
import TestSupport
import Testing

/// Request bodies streamed to their handler as they arrive (uploads): past
/// the collected-body limit, in order, held back while the handler is
/// behind, and cut short with a status the handler reads.
@Suite(.serialized) struct HTTPStreamedBodyTests {
    /// What the handler saw of the last body: its length, or the status that cut it short.
    final class Outcome: Sendable {
        let value = Mutex<String?>(nil)
    }

    /// A server streaming `/up…` bodies of up to `limit` bytes (everything
    /// else collected within 1 KB), whose handler reads the body (after
    /// `delay` on `/up/late`) and answers with its length and SHA-256, or
    /// with what cut it short; `/up/refuse` answers 401 without reading.
    private func server(limit: Int = 8 << 20, outcome: Outcome = Outcome(), configure: (inout HTTPServer.Configuration) -> Void = { _ in })
        async throws -> RunningServer
    {
        try await RunningServer(
            configure: { configuration in
                configuration.limits.maxBodyBytes = 1024
                configuration.streamsBody = { head in head.target.hasPrefix("/up") ? limit : nil }
                configure(&configuration)
            },
            handler: { request in
                guard let stream = request.bodyStream else {
                    return HTTPResponse(status: 200, contentType: "text/plain", body: "collected \(request.body.count)")
                }
                if request.head.target == "/up/refuse" {
                    return HTTPResponse(status: 401, contentType: "text/plain", body: "sign in first")
                }
                if request.head.target == "/up/late" { try? await Task.sleep(for: .seconds(1)) }
                var body: [UInt8] = []
                do throws(HTTPError) {
                    while let bytes = try await stream.next() { body += bytes }
                } catch {
                    outcome.value.withLock { $0 = "\(error.status)" }
                    return .error(error)
                }
                outcome.value.withLock { $0 = "\(body.count)" }
                return HTTPResponse(status: 200, contentType: "text/plain", body: "\(body.count) \(Digest.sha256Hex(body))")
            })
    }

    @Test func aStreamedBodyPastTheCollectedLimitArrivesWholeAndInOrder() async throws {
        let running = try await server()
        let body = (0..<(5 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("streamed-\(UUID().uuidString)")
        try Data(body).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let expected = "\(body.count) \(Digest.sha256Hex(body))"
        let url = "http://127.0.0.1:\(running.port)"
        #expect(try curl(["--data-binary", "@\(file.path)", "\(url)/up"]).output == expected)
        // Chunked, and with a next request on the same connection.
        let (output, errors) = try curl([
            "-v", "-H", "Transfer-Encoding: chunked", "--data-binary", "@\(file.path)", "\(url)/up", "--next", "-d", "x", "\(url)/after",
        ])
        #expect(output == expected + "collected 1")
        #expect(errors.contains("Re-using existing connection") || errors.contains("Reusing existing connection"))
        await running.stop()
    }

    @Test func aBodyOverItsLimitIsRefusedAtAndJustOverIt() async throws {
        let outcome = Outcome()
        let running = try await server(limit: 100_000, outcome: outcome)
        let url = "http://127.0.0.1:\(running.port)/up"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("limit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(repeating: 7, count: 100_000).write(to: file)
        #expect(try curl(["--data-binary", "@\(file.path)", url]).output.hasPrefix("100000 "))
        try Data(repeating: 7, count: 100_001).write(to: file)
        // Announced by its length: refused before the handler sees it.
        let handledBefore = running.handled.value
        #expect(try curl(["-o", "/dev/null", "-w", "%{http_code}", "--data-binary", "@\(file.path)", url]).output == "413")
        #expect(running.handled.value == handledBefore)
        // Chunked: the handler reads up to the limit, then the 413.
        let chunked = try curl([
            "-o", "/dev/null", "-w", "%{http_code}", "-H", "Transfer-Encoding: chunked", "--data-binary", "@\(file.path)", url,
        ])
        #expect(chunked.output == "413")
        #expect(outcome.value.withLock { $0 } == "413")
        await running.stop()
    }

    @Test func aHandlerThatIsBehindHoldsTheClientBack() async throws {
        let running = try await server(limit: 64 << 20)
        let client = try RawClient(port: running.port)
        client.send("POST /up/late HTTP/1.1\r\nHost: a\r\nContent-Length: \(64 << 20)\r\n\r\n")
        // While the handler waits, the server reads a bounded amount and
        // then stops: what the client can hand to the kernel stays within
        // the sockets' buffers, far short of the whole body.
        let accepted = sendWhileAccepted(client.descriptor, total: 64 << 20, patience: .milliseconds(500))
        #expect(accepted < 32 << 20, "\(accepted) bytes taken while the handler read nothing")
        // Once it reads, the rest goes through.
        let rest = (64 << 20) - accepted
        client.sendBytes([UInt8](repeating: 0, count: rest))
        let (text, _) = client.receive { text in
            let parts = text.components(separatedBy: "\r\n\r\n")
            return parts.count > 1 && parts[1].count >= 8 + 1 + 64
        }
        #expect(text.hasPrefix("HTTP/1.1 200"), "\(text.prefix(200))")
        #expect(text.contains("\r\n\r\n\(64 << 20) "), "\(text.prefix(300))")
        await running.stop()
    }

    @Test func aBodyThatStopsArrivingTimesOutForTheHandler() async throws {
        let outcome = Outcome()
        let running = try await server(outcome: outcome) { $0.bodyTimeout = .milliseconds(300) }
        let client = try RawClient(port: running.port)
        client.send("POST /up HTTP/1.1\r\nHost: a\r\nContent-Length: 1000\r\n\r\npart of it")
        let (text, closed) = client.receive()
        #expect(text.hasPrefix("HTTP/1.1 408 "), "\(text)")
        #expect(closed)
        #expect(outcome.value.withLock { $0 } == "408")
        await running.stop()
    }

    @Test func anAnswerBeforeTheBodyClosesTheConnectionAfterIt() async throws {
        let running = try await server()
        let client = try RawClient(port: running.port)
        client.send("POST /up/refuse HTTP/1.1\r\nHost: a\r\nContent-Length: 100000\r\n\r\nsome")
        client.send("GET /never HTTP/1.1\r\nHost: a\r\n\r\n")
        let (text, closed) = client.receive()
        #expect(text.hasPrefix("HTTP/1.1 401 "), "\(text)")
        #expect(text.contains("Connection: close\r\n"))
        #expect(!text.contains("collected"))
        #expect(closed)
        await running.stop()
    }

    @Test func aClientGoneMidBodyEndsTheHandlersRead() async throws {
        let outcome = Outcome()
        let running = try await server(outcome: outcome)
        do {
            let client = try RawClient(port: running.port)
            client.send("POST /up HTTP/1.1\r\nHost: a\r\nContent-Length: 100000\r\n\r\nsome")
            try await Task.sleep(for: .milliseconds(100))
        }
        var seen: String?
        for _ in 0..<200 {
            seen = outcome.value.withLock { $0 }
            if seen != nil { break }
            try await Task.sleep(for: .milliseconds(25))
        }
        #expect(seen == "400")
        await running.stop()
    }

    @Test func aShutdownStillReadsTheBodyOfARequestTakenBeforeIt() async throws {
        let running = try await server()
        let client = try RawClient(port: running.port)
        client.send("POST /up HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nhalf ")
        try await Task.sleep(for: .milliseconds(200))
        let shutdown = running.beginShutdown()
        try await Task.sleep(for: .milliseconds(200))
        client.send("done!")
        let (text, closed) = client.receive()
        #expect(text.hasPrefix("HTTP/1.1 200 "), "\(text)")
        #expect(text.contains("\r\n\r\n10 "), "\(text)")
        #expect(closed)
        await shutdown.value
        await running.stop()
    }

    @Test func aClientWaitingForContinueIsToldOnlyWhenTheHandlerReads() async throws {
        let running = try await server()
        // Refused from its head: no 100, the answer at once, the body never sent.
        let refused = try RawClient(port: running.port)
        refused.send("POST /up/refuse HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 5000000\r\n\r\n")
        let (answer, _) = refused.receive { $0.contains("sign in first") }
        #expect(answer.hasPrefix("HTTP/1.1 401 "), "\(answer)")
        #expect(!answer.contains("100 Continue"))
        // Read by its handler: 100 first, then the answer to the body sent after it.
        let read = try RawClient(port: running.port)
        read.send("POST /up HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n")
        let (interim, _) = read.receive { $0.contains("\r\n\r\n") }
        #expect(interim.hasPrefix("HTTP/1.1 100 Continue\r\n\r\n"), "\(interim)")
        read.send("abc")
        let (final, _) = read.receive { $0.contains("\r\n\r\n3 ") }
        #expect(final.contains("HTTP/1.1 200 "), "\(final)")
        await running.stop()
    }

    /// Sends zeros without blocking until `total` are taken or the kernel
    /// takes nothing more for `patience`; how many it took.
    private func sendWhileAccepted(_ descriptor: Int32, total: Int, patience: Duration) -> Int {
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(descriptor, F_SETFL, flags) }
        let chunk = [UInt8](repeating: 0, count: 65536)
        var sent = 0
        var lastProgress = ContinuousClock.now
        while sent < total && ContinuousClock.now - lastProgress < patience {
            let count = chunk.withUnsafeBytes {
                Foundation.send(descriptor, $0.baseAddress, min($0.count, total - sent), Int32(MSG_NOSIGNAL))
            }
            if count > 0 {
                sent += count
                lastProgress = .now
            } else {
                usleep(5000)
            }
        }
        return sent
    }
}
