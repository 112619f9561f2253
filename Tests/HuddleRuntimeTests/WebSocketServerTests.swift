import Foundation
import HuddleRuntime
import RuntimeTestSupport
import Synchronization
import TestSupport
import Testing

/// WebSocket connections through the HTTP server, over raw sockets.
@Suite(.serialized) struct WebSocketServerTests {
    /// Echoes text; "close" makes the server close with 4000; records how the session ended.
    final class EchoSession: WebSocketSession {
        let socket: WebSocket
        let log: Log

        init(socket: WebSocket, log: Log) {
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

    static func server(log: Log) async throws -> RunningServer {
        var service = WebSocketService(
            supportedSubprotocols: ["graphql-transport-ws", "graphql-ws"], allowedOrigins: ["https://app.example"]
        ) { _, socket in
            EchoSession(socket: socket, log: log)
        }
        service.limits = .init(maxMessageBytes: 1000, maxFragments: 10)
        return try await RunningServer(
            configure: { $0.drainTimeout = .milliseconds(300) }, webSocket: service,
            handler: { _ in HTTPResponse(status: 200) }
        )
    }

    static let handshake =
        "GET /graphql HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: graphql-ws\r\n\r\n"

    /// Connects and completes the handshake, sending `then` in the same packet.
    static func open(_ running: RunningServer, then frames: [UInt8] = []) throws -> (RawClient, [UInt8]) {
        let client = try RawClient(port: running.port)
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
        let log = Log()
        let running = try await Self.server(log: log)
        // The first message travels with the handshake.
        let (client, early) = try Self.open(running, then: clientFrame(0x1, Array("first".utf8)))
        var received = early
        client.sendBytes(
            clientFrame(0x9, Array("p".utf8)) + clientFrame(0x1, Array("sec".utf8), fin: false)
                + clientFrame(0x0, Array("ond".utf8)))
        while serverFrames(received).count < 3 {
            let more = client.receiveBytes { _ in true }
            if more.bytes.isEmpty { break }
            received += more.bytes
        }
        let frames = serverFrames(received)
        #expect(frames.map(\.opcode) == [0x1, 0xA, 0x1])
        #expect(
            frames.map { String(decoding: $0.payload, as: UTF8.self) } == ["echo: first (graphql-ws)", "p", "echo: second (graphql-ws)"])
        // A clean close from the client is echoed, then the server closes TCP.
        client.sendBytes(clientFrame(0x8, [0x03, 0xE8]))
        let end = client.receiveBytes()
        #expect(serverFrames(end.bytes).first.map { $0.opcode == 0x8 && $0.payload == [0x03, 0xE8] } == true)
        #expect(end.closed)
        await running.stop()
        #expect(log.all == ["closed 1000"])
    }

    @Test func failsTheConnectionOnProtocolErrors() async throws {
        let log = Log()
        let running = try await Self.server(log: log)
        let cases: [([UInt8], UInt16)] = [
            (clientFrame(0x1, Array("x".utf8), masked: false), 1002),
            (clientFrame(0x1, [0xFF]), 1007),
            (clientFrame(0x1, [UInt8](repeating: 0x61, count: 1001)), 1009),
        ]
        for (frame, code) in cases {
            let (client, _) = try Self.open(running)
            client.sendBytes(frame)
            let answer = client.receiveBytes()
            let close = serverFrames(answer.bytes).first
            #expect(close?.opcode == 0x8)
            #expect(close.map { UInt16($0.payload[0]) << 8 | UInt16($0.payload[1]) } == code)
            #expect(answer.closed)
        }
        await running.stop()
        #expect(log.all == Array(repeating: "closed without code", count: 3))
    }

    @Test func closesFromTheServerSide() async throws {
        let log = Log()
        let running = try await Self.server(log: log)
        let (client, _) = try Self.open(running)
        client.sendBytes(clientFrame(0x1, Array("close".utf8)))
        let close = serverFrames(client.receiveBytes { serverFrames($0).count == 1 }.bytes).first
        #expect(close?.opcode == 0x8)
        #expect(close.map { Array($0.payload[2...]) } == Array("asked to".utf8))
        client.sendBytes(clientFrame(0x8, [0x0F, 0xA0]))
        #expect(client.receiveBytes().closed)
        await running.stop()
        #expect(log.all == ["closed 4000"])
    }

    @Test func closesWith1001OnShutdown() async throws {
        let log = Log()
        let running = try await Self.server(log: log)
        let (client, _) = try Self.open(running)
        let stopping = running.beginShutdown()
        let reader = client
        let received = try await offThePool { reader.receiveBytes { serverFrames($0).count == 1 }.bytes }
        let close = serverFrames(received).first
        #expect(close.map { UInt16($0.payload[0]) << 8 | UInt16($0.payload[1]) } == 1001)
        await stopping.value
        await running.stop()
    }

    @Test func refusesBadHandshakesOverHTTP() async throws {
        let log = Log()
        let running = try await Self.server(log: log)
        let oldVersion = Self.handshake.replacingOccurrences(of: "Version: 13", with: "Version: 8")
        let wrongOrigin = Self.handshake.replacingOccurrences(of: "Host: a\r\n", with: "Host: a\r\nOrigin: https://evil.example\r\n")
        for (request, status) in [(oldVersion, "426"), (wrongOrigin, "403")] {
            let client = try RawClient(port: running.port)
            client.send(request)
            let answer = client.receive()
            #expect(answer.text.hasPrefix("HTTP/1.1 \(status) "))
            #expect(answer.closed)
        }
        await running.stop()
    }
}
