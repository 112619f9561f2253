import HuddleRuntime
import RuntimeTestSupport
import TestSupport
import Testing

/// WebSocket framing (RFC 6455 §5) and the opening handshake (§4.2).
@Suite struct WebSocketTests {

    static func events(_ bytes: [UInt8], limits: WebSocketFrameParser.Limits = .init(), byteByByte: Bool = false) -> [WebSocketFrameParser
        .Event]
    {
        var parser = WebSocketFrameParser(limits: limits)
        if byteByByte { return bytes.flatMap { parser.feed([$0]) } }
        return parser.feed(bytes)
    }

    static func failureCode(_ bytes: [UInt8], limits: WebSocketFrameParser.Limits = .init()) -> UInt16? {
        if case .failure(let code, _)? = events(bytes, limits: limits).last { return code }
        return nil
    }

    @Test func readsMessagesOfEveryLengthEncoding() {
        for count in [0, 125, 126, 200, 65535, 65536, 70000] {
            let payload = [UInt8](repeating: 0x61, count: count)
            #expect(Self.events(clientFrame(0x1, payload)) == [.text(String(repeating: "a", count: count))], "\(count)")
            #expect(Self.events(clientFrame(0x2, payload)) == [.binary(payload)], "\(count)")
        }
    }

    @Test func joinsFragmentsWithControlFramesBetweenThem() {
        let euro = Array("€".utf8)
        let bytes =
            clientFrame(0x1, Array("price: ".utf8) + [euro[0]], fin: false)
            + clientFrame(0x9, Array("hi".utf8))
            + clientFrame(0x0, [euro[1]], fin: false)
            + clientFrame(0xA, [])
            + clientFrame(0x0, [euro[2]] + Array("5".utf8))
        let expected: [WebSocketFrameParser.Event] = [.ping(Array("hi".utf8)), .pong([]), .text("price: €5")]
        #expect(Self.events(bytes) == expected)
        #expect(Self.events(bytes, byteByByte: true) == expected)
    }

    @Test func failsInvalidUTF8AsSoonAsItArrives() {
        // 0xC0 can begin no valid UTF-8: the first fragment is enough.
        var parser = WebSocketFrameParser()
        let first = parser.feed(clientFrame(0x1, Array("ok".utf8) + [0xC0], fin: false))
        #expect(first == [.failure(code: 1007, reason: "text is not valid UTF-8")])
        // A sequence cut off by the final fragment.
        #expect(Self.failureCode(clientFrame(0x1, [0xE2, 0x82], fin: false) + clientFrame(0x0, [])) == 1007)
        // A surrogate, an overlong form, past U+10FFFF.
        for invalid: [UInt8] in [[0xED, 0xA0, 0x80], [0xE0, 0x80, 0xAF], [0xF4, 0x90, 0x80, 0x80]] {
            #expect(Self.failureCode(clientFrame(0x1, invalid)) == 1007)
        }
        // Binary messages carry any bytes.
        #expect(Self.events(clientFrame(0x2, [0xC0])) == [.binary([0xC0])])
    }

    @Test func failsProtocolErrorsWith1002() {
        let cases: [(String, [UInt8])] = [
            ("unmasked", clientFrame(0x1, [0x61], masked: false)),
            ("reserved bit", clientFrame(0x1, [0x61], rsv: 4)),
            ("reserved data opcode", clientFrame(0x3, [])),
            ("reserved control opcode", clientFrame(0xB, [])),
            ("fragmented ping", clientFrame(0x9, [], fin: false)),
            ("ping of 126 bytes", clientFrame(0x9, [UInt8](repeating: 0, count: 126))),
            ("continuation first", clientFrame(0x0, [0x61])),
            ("text inside a message", clientFrame(0x1, [0x61], fin: false) + clientFrame(0x1, [0x62])),
            ("16-bit length for 100 bytes", clientFrame(0x2, [UInt8](repeating: 0, count: 100), forceLengthBytes: 2)),
            ("64-bit length for 1000 bytes", clientFrame(0x2, [UInt8](repeating: 0, count: 1000), forceLengthBytes: 8)),
            ("one-byte close", clientFrame(0x8, [0x03])),
            ("close code 1005", clientFrame(0x8, [0x03, 0xED])),
            ("close code 999", clientFrame(0x8, [0x03, 0xE7])),
            ("close code 2000", clientFrame(0x8, [0x07, 0xD0])),
        ]
        for (name, bytes) in cases {
            #expect(Self.failureCode(bytes) == 1002, "\(name)")
        }
    }

    @Test func readsCloseFrames() {
        #expect(Self.events(clientFrame(0x8, [])) == [.close(code: nil, reason: "")])
        #expect(Self.events(clientFrame(0x8, [0x03, 0xE8] + Array("bye".utf8))) == [.close(code: 1000, reason: "bye")])
        #expect(Self.events(clientFrame(0x8, [0x0F, 0xA0])) == [.close(code: 4000, reason: "")])
        #expect(Self.failureCode(clientFrame(0x8, [0x03, 0xE8, 0xFF])) == 1007)
        // Nothing after a close frame is read.
        #expect(Self.events(clientFrame(0x8, []) + clientFrame(0x1, [0x61])) == [.close(code: nil, reason: "")])
    }

    @Test func limitsMessageSizeAndFragmentCount() {
        let limits = WebSocketFrameParser.Limits(maxMessageBytes: 1000, maxFragments: 4)
        let atSize = [UInt8](repeating: 0x62, count: 1000)
        #expect(Self.events(clientFrame(0x2, atSize), limits: limits) == [.binary(atSize)])
        #expect(Self.failureCode(clientFrame(0x2, atSize + [0x62]), limits: limits) == 1009)
        // Over the limit across fragments, refused before the rest arrives.
        #expect(
            Self.failureCode(
                clientFrame(0x2, Array(atSize[..<600]), fin: false) + Array(clientFrame(0x0, Array(atSize[..<401])).prefix(4)),
                limits: limits
            ) == 1009)
        // A 64-bit length beyond the limit fails on the header alone.
        #expect(Self.failureCode([0x82, 0xFF, 0, 0, 0, 1, 0, 0, 0, 0], limits: limits) == 1009)
        let four = clientFrame(0x1, [0x61], fin: false) + clientFrame(0x0, [0x61], fin: false) + clientFrame(0x0, [0x61], fin: false)
        #expect(Self.events(four + clientFrame(0x0, [0x61]), limits: limits) == [.text("aaaa")])
        #expect(Self.failureCode(four + clientFrame(0x0, [0x61], fin: false) + clientFrame(0x0, [0x61]), limits: limits) == 1009)
    }

    @Test func encodesServerFramesUnmasked() {
        #expect(WebSocketFrame.text("hi") == [0x81, 0x02, 0x68, 0x69])
        #expect(WebSocketFrame.encode(.binary, [UInt8](repeating: 0, count: 126)).prefix(4) == [0x82, 126, 0, 126])
        #expect(WebSocketFrame.encode(.binary, [UInt8](repeating: 0, count: 65536)).prefix(10) == [0x82, 127, 0, 0, 0, 0, 0, 1, 0, 0])
        #expect(WebSocketFrame.close(code: 4400, reason: "bad") == [0x88, 0x05, 0x11, 0x30, 0x62, 0x61, 0x64])
        // A long reason is cut to fit a control frame, at a character boundary.
        let long = WebSocketFrame.close(code: 1000, reason: String(repeating: "é", count: 100))
        #expect(long[1] == 124)
    }

    // MARK: Handshake

    static func head(_ fields: [(String, String)]) -> HTTPRequestHead {
        HTTPRequestHead(method: "GET", target: "/graphql", version: .http11, headers: fields.map { HTTPHeader(name: $0.0, value: $0.1) })
    }

    static let upgrade: [(String, String)] = [
        ("host", "a"), ("upgrade", "websocket"), ("connection", "keep-alive, Upgrade"),
        ("sec-websocket-version", "13"), ("sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ=="),
        ("sec-websocket-protocol", "graphql-ws, graphql-transport-ws"),
    ]

    static func status(_ fields: [(String, String)], origins: [String] = []) -> Int {
        switch WebSocketHandshake.respond(
            to: head(fields), supportedSubprotocols: ["graphql-transport-ws", "graphql-ws"], allowedOrigins: origins)
        {
        case .accept(let response, _): response.status
        case .refuse(let response): response.status
        }
    }

    @Test func acceptsAnUpgradeWithTheRFCsAcceptValue() {
        #expect(WebSocketHandshake.acceptValue(for: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        guard
            case .accept(let response, let subprotocol) = WebSocketHandshake.respond(
                to: Self.head(Self.upgrade), supportedSubprotocols: ["graphql-transport-ws", "graphql-ws"], allowedOrigins: []
            )
        else {
            Issue.record("refused")
            return
        }
        #expect(response.status == 101)
        #expect(subprotocol == "graphql-transport-ws")
        #expect(response.headers.contains { $0 == ("Sec-WebSocket-Accept", "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=") })
    }

    @Test func refusesBadHandshakes() {
        func replacing(_ name: String, with value: String?) -> [(String, String)] {
            Self.upgrade.filter { $0.0 != name } + (value.map { [(name, $0)] } ?? [])
        }
        #expect(Self.status(replacing("sec-websocket-version", with: "8")) == 426)
        #expect(Self.status(replacing("sec-websocket-version", with: nil)) == 426)
        #expect(Self.status(replacing("sec-websocket-key", with: "c2hvcnQ=")) == 400)
        #expect(Self.status(replacing("sec-websocket-key", with: "not base64 at all!!!!!!=")) == 400)
        #expect(Self.status(replacing("connection", with: "keep-alive")) == 400)
        #expect(Self.status(replacing("sec-websocket-protocol", with: "mqtt")) == 400)
        #expect(Self.status(Self.upgrade + [("origin", "https://evil.example")], origins: ["https://app.example"]) == 403)
        #expect(Self.status(Self.upgrade + [("origin", "https://app.example")], origins: ["https://app.example"]) == 101)
        // A page the server served itself (the Playground) connects back to its Host.
        #expect(Self.status(Self.upgrade + [("origin", "http://a")]) == 101)
        #expect(Self.status(Self.upgrade + [("origin", "https://A")]) == 101)
        #expect(Self.status(Self.upgrade + [("origin", "http://a:8080")]) == 403)
        #expect(Self.status(Self.upgrade + [("origin", "http://b")]) == 403)
        #expect(Self.status(Self.upgrade + [("origin", "null")]) == 403)
    }
}
