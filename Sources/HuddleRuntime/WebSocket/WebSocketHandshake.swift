import COpenSSL

/// The opening handshake's server side (RFC 6455 §4.2): checks an upgrade
/// request and answers 101, or says why not.
public enum WebSocketHandshake {
    /// What the handshake concluded.
    public enum Outcome: Sendable {
        /// Switch protocols with this 101 response, speaking `subprotocol`.
        case accept(HTTPResponse, subprotocol: String?)
        /// Answer with this instead, and keep to HTTP.
        case refuse(HTTPResponse)
    }

    /// Whether the request asks to become a WebSocket at all.
    /// Whether an Origin (`scheme://host[:port]`) is the server the request
    /// is addressed to (its Host field), as a browser sends it for a page
    /// the server itself served.
    static func isSameOrigin(_ origin: String, host: String?) -> Bool {
        guard let host, !host.isEmpty else { return false }
        for scheme in ["http://", "https://"] where origin.hasPrefix(scheme) {
            return origin.dropFirst(scheme.count).lowercased() == host.lowercased()
        }
        return false
    }

    public static func isUpgrade(_ head: HTTPRequestHead) -> Bool {
        head.tokens("upgrade").contains("websocket")
    }

    /// `supportedSubprotocols` in the server's order of preference; a client
    /// offering none of them is refused with 400 when `requireSubprotocol`,
    /// and otherwise accepted without one, for the session to refuse in its
    /// own way (graphql-transport-ws closes with 4406).
    /// `allowedOrigins` holds `*` for any; a request without Origin is not
    /// from a browser and passes, and so does a page of this server's own
    /// (its Origin names the Host it connects to: the Playground).
    public static func respond(
        to head: HTTPRequestHead, supportedSubprotocols: [String], requireSubprotocol: Bool = true, allowedOrigins: [String]
    ) -> Outcome {
        guard head.method == "GET" else { return .refuse(refusal(405, "a WebSocket handshake is a GET", [("Allow", "GET")])) }
        guard isUpgrade(head), head.tokens("connection").contains("upgrade") else {
            return .refuse(refusal(400, "not a WebSocket upgrade"))
        }
        guard head.header("sec-websocket-version") == "13" else {
            return .refuse(
                refusal(426, "only WebSocket version 13 is supported", [("Sec-WebSocket-Version", "13"), ("Upgrade", "websocket")]))
        }
        guard let key = head.header("sec-websocket-key"), decodedLength(base64: key) == 16 else {
            return .refuse(refusal(400, "Sec-WebSocket-Key must be 16 bytes in base64"))
        }
        if let origin = head.header("origin"), !allowedOrigins.contains("*"), !allowedOrigins.contains(origin),
            !isSameOrigin(origin, host: head.header("host"))
        {
            return .refuse(refusal(403, "origin not allowed"))
        }
        let offered = head.headers.filter { $0.name == "sec-websocket-protocol" }
            .flatMap { $0.value.split(separator: ",").map { $0.trimmingSpaces() } }
        var headers: [(name: String, value: String)] = [
            ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Accept", acceptValue(for: key)),
        ]
        let chosen = supportedSubprotocols.first { offered.contains($0) }
        if let chosen {
            headers.append(("Sec-WebSocket-Protocol", chosen))
        } else if requireSubprotocol && !supportedSubprotocols.isEmpty {
            return .refuse(refusal(400, "Sec-WebSocket-Protocol must offer one of: \(supportedSubprotocols.joined(separator: ", "))"))
        }
        return .accept(HTTPResponse(status: 101, headers: headers), subprotocol: chosen)
    }

    /// base64(SHA-1(key + the RFC's GUID)).
    public static func acceptValue(for key: String) -> String {
        let input = Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8)
        var digest = [UInt8](repeating: 0, count: Int(SHA_DIGEST_LENGTH))
        _ = input.withUnsafeBufferPointer { SHA1($0.baseAddress, $0.count, &digest) }
        var encoded = [UInt8](repeating: 0, count: 29)
        let count = EVP_EncodeBlock(&encoded, digest, Int32(digest.count))
        return String(decoding: encoded[..<Int(count)], as: UTF8.self)
    }

    /// The byte count `text` decodes to, nil when it is not padded base64.
    static func decodedLength(base64 text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count % 4 == 0 else { return nil }
        let padding = bytes.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        guard padding <= 2 else { return nil }
        let isAlphabet = { (byte: UInt8) in
            (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/")
        }
        guard bytes.dropLast(padding).allSatisfy(isAlphabet) else { return nil }
        return bytes.count / 4 * 3 - padding
    }

    private static func refusal(_ status: Int, _ reason: String, _ headers: [(name: String, value: String)] = []) -> HTTPResponse {
        var response = HTTPResponse.error(HTTPError(status, reason))
        response.headers += headers
        return response
    }
}
