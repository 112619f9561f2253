import Foundation
import Testing

/// A client connection: frames out, text messages or the close code in.
package final class WebSocketClient {
    package let raw: RawClient
    package var buffer: [UInt8] = []
    /// Whether `next()` passes over the server's keep-alives (a
    /// graphql-transport-ws ping, answered with a pong; graphql-ws's
    /// "ka"): they come every 12 seconds, and a slow machine stretches
    /// a test past that between any two of its messages. A test of the
    /// keep-alives themselves turns it off.
    package var skipsKeepAlives = true

    package init(port: Int, subprotocol: String? = "graphql-transport-ws") throws {
        raw = try RawClient(port: port)
        let offer = subprotocol.map { "Sec-WebSocket-Protocol: \($0)\r\n" } ?? ""
        raw.send(
            "GET /graphql HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\(offer)\r\n"
        )
        let head = raw.receiveBytes { $0.firstRange(of: Array("\r\n\r\n".utf8)) != nil }.bytes
        let end = head.firstRange(of: Array("\r\n\r\n".utf8))!.upperBound
        #expect(String(decoding: head[..<end], as: UTF8.self).hasPrefix("HTTP/1.1 101 "))
        buffer = Array(head[end...])
    }

    package func send(_ json: String) {
        raw.sendBytes(clientFrame(0x1, Array(json.utf8)))
    }

    /// The next frame: ("text", message) or ("close", "CODE reason").
    package func next() -> (kind: String, text: String)? {
        while true {
            if let frame = serverFrames(buffer).first {
                let headerLength = frame.payload.count > 65535 ? 10 : frame.payload.count > 125 ? 4 : 2
                buffer.removeFirst(headerLength + frame.payload.count)
                if frame.opcode == 0x8 {
                    let code = UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1])
                    return ("close", "\(code) \(String(decoding: frame.payload[2...], as: UTF8.self))")
                }
                let text = String(decoding: frame.payload, as: UTF8.self)
                if skipsKeepAlives {
                    if text == #"{"type":"ping"}"# {
                        send(#"{"type":"pong"}"#)
                        continue
                    }
                    if text == #"{"type":"ka"}"# { continue }
                }
                return ("text", text)
            }
            let more = raw.receiveBytes { _ in true }
            if more.bytes.isEmpty { return nil }
            buffer += more.bytes
        }
    }

    package func initialise(token: String = "user-ada") {
        send(#"{"type":"connection_init","payload":{"authToken":"\#(token)"}}"#)
        #expect(next()?.text == #"{"type":"connection_ack"}"#)
    }
}
