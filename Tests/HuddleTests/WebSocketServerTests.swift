import Foundation
import HuddleRuntime
import Synchronization
import Testing

/// WebSocket connections through the HTTP server, over raw sockets.
@Suite(.serialized) struct WebSocketServerTests {
    /// Echoes text; "close" makes the server close with 4000; records how the session ended.
    final class EchoSession: WebSocketSession {
        let socket: WebSocket
        let log: EventLoopTests.Log

        init(socket: WebSocket, log: EventLoopTests.Log) {
            self.socket = socket
            self.log = log
        }

        func received(text: String) {
            if text == "close" {
                socket.close(code: 4000, reason: "asked to")
            } else {
                socket.send(text: "echo: \(text) (\(socket.subprotocol ?? "none"))")
            }
        }

        func received(binary: [UInt8]) {}

        func closed(code: UInt16?) {
            log.append("closed \(code.map(String.init) ?? "without code")")
        }
    }

    static func server(log: EventLoopTests.Log) async throws -> HTTPServerTests.RunningServer {
        var service = WebSocketService(
            supportedSubprotocols: ["graphql-transport-ws", "graphql-ws"], allowedOrigins: ["https://app.example"]
        ) { _, socket in
            EchoSession(socket: socket, log: log)
        }
        service.limits = .init(maxMessageBytes: 1000, maxFragments: 10)
        return try await HTTPServerTests.RunningServer(
            configure: { $0.drainTimeout = .milliseconds(300) }, webSocket: service,
            handler: { _ in HTTPResponse(status: 200) }
        )
    }

    static let handshake =
        "GET /graphql HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: graphql-ws\r\n\r\n"

    /// The server's frames in `bytes` (unmasked, as a server sends them).
    static func frames(_ bytes: [UInt8]) -> [(opcode: UInt8, payload: [UInt8])] {
        var frames: [(UInt8, [UInt8])] = []
        var index = 0
        while index + 2 <= bytes.count {
            var length = Int(bytes[index + 1] & 0x7F)
            var start = index + 2
            if length == 126 {
                guard index + 4 <= bytes.count else { break }
                length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
                start += 2
            } else if length == 127 {
                guard index + 10 <= bytes.count else { break }
                length = bytes[(index + 2)..<(index + 10)].reduce(0) { $0 << 8 | Int($1) }
                start += 8
            }
            guard start + length <= bytes.count else { break }
            frames.append((bytes[index] & 0x0F, Array(bytes[start..<(start + length)])))
            index = start + length
        }
        return frames
    }

    /// Connects and completes the handshake, sending `then` in the same packet.
    static func open(_ running: HTTPServerTests.RunningServer, then frames: [UInt8] = []) throws -> (HTTPServerTests.RawClient, [UInt8]) {
        let client = try HTTPServerTests.RawClient(port: running.port)
        client.sendBytes(Array(handshake.utf8) + frames)
        let response = client.receiveBytes { $0.firstRange(of: Array("\r\n\r\n".utf8)) != nil }
        let text = String(decoding: response.bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"))
        #expect(text.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"))
        #expect(text.contains("Sec-WebSocket-Protocol: graphql-ws\r\n"))
        #expect(!text.contains("Content-Length"))
        let headEnd = response.bytes.firstRange(of: Array("\r\n\r\n".utf8))!.upperBound
        return (client, Array(response.bytes[headEnd...]))
    }

    @Test func echoesMessagesAndAnswersPings() async throws {
        let log = EventLoopTests.Log()
        let running = try await Self.server(log: log)
        // The first message travels with the handshake.
        let (client, early) = try Self.open(running, then: WebSocketTests.frame(0x1, Array("first".utf8)))
        var received = early
        client.sendBytes(
            WebSocketTests.frame(0x9, Array("p".utf8)) + WebSocketTests.frame(0x1, Array("sec".utf8), fin: false)
                + WebSocketTests.frame(0x0, Array("ond".utf8)))
        while Self.frames(received).count < 3 {
            let more = client.receiveBytes { _ in true }
            if more.bytes.isEmpty { break }
            received += more.bytes
        }
        let frames = Self.frames(received)
        #expect(frames.map(\.opcode) == [0x1, 0xA, 0x1])
        #expect(
            frames.map { String(decoding: $0.payload, as: UTF8.self) } == ["echo: first (graphql-ws)", "p", "echo: second (graphql-ws)"])
        // A clean close from the client is echoed, then the server closes TCP.
        client.sendBytes(WebSocketTests.frame(0x8, [0x03, 0xE8]))
        let end = client.receiveBytes()
        #expect(Self.frames(end.bytes).first.map { $0.opcode == 0x8 && $0.payload == [0x03, 0xE8] } == true)
        #expect(end.closed)
        await running.stop()
        #expect(log.all == ["closed 1000"])
    }

    @Test func failsTheConnectionOnProtocolErrors() async throws {
        let log = EventLoopTests.Log()
        let running = try await Self.server(log: log)
        let cases: [([UInt8], UInt16)] = [
            (WebSocketTests.frame(0x1, Array("x".utf8), masked: false), 1002),
            (WebSocketTests.frame(0x1, [0xFF]), 1007),
            (WebSocketTests.frame(0x1, [UInt8](repeating: 0x61, count: 1001)), 1009),
        ]
        for (frame, code) in cases {
            let (client, _) = try Self.open(running)
            client.sendBytes(frame)
            let answer = client.receiveBytes()
            let close = Self.frames(answer.bytes).first
            #expect(close?.opcode == 0x8)
            #expect(close.map { UInt16($0.payload[0]) << 8 | UInt16($0.payload[1]) } == code)
            #expect(answer.closed)
        }
        await running.stop()
        #expect(log.all == Array(repeating: "closed without code", count: 3))
    }

    @Test func closesFromTheServerSide() async throws {
        let log = EventLoopTests.Log()
        let running = try await Self.server(log: log)
        let (client, _) = try Self.open(running)
        client.sendBytes(WebSocketTests.frame(0x1, Array("close".utf8)))
        let close = Self.frames(client.receiveBytes { Self.frames($0).count == 1 }.bytes).first
        #expect(close?.opcode == 0x8)
        #expect(close.map { Array($0.payload[2...]) } == Array("asked to".utf8))
        client.sendBytes(WebSocketTests.frame(0x8, [0x0F, 0xA0]))
        #expect(client.receiveBytes().closed)
        await running.stop()
        #expect(log.all == ["closed 4000"])
    }

    @Test func closesWith1001OnShutdown() async throws {
        let log = EventLoopTests.Log()
        let running = try await Self.server(log: log)
        let (client, _) = try Self.open(running)
        async let stopped: Void = running.shutdown()
        let reader = client
        let received = try await offThePool { reader.receiveBytes { Self.frames($0).count == 1 }.bytes }
        let close = Self.frames(received).first
        #expect(close.map { UInt16($0.payload[0]) << 8 | UInt16($0.payload[1]) } == 1001)
        await stopped
        await running.stop()
    }

    @Test func refusesBadHandshakesOverHTTP() async throws {
        let log = EventLoopTests.Log()
        let running = try await Self.server(log: log)
        let oldVersion = Self.handshake.replacingOccurrences(of: "Version: 13", with: "Version: 8")
        let wrongOrigin = Self.handshake.replacingOccurrences(of: "Host: a\r\n", with: "Host: a\r\nOrigin: https://evil.example\r\n")
        for (request, status) in [(oldVersion, "426"), (wrongOrigin, "403")] {
            let client = try HTTPServerTests.RawClient(port: running.port)
            client.send(request)
            let answer = client.receive()
            #expect(answer.text.hasPrefix("HTTP/1.1 \(status) "))
            #expect(answer.closed)
        }
        await running.stop()
    }
}
