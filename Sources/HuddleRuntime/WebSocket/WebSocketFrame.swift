/// Frames the server sends: unmasked (RFC 6455 §5.1), each a whole message.
public enum WebSocketFrame {
    public enum Opcode: UInt8, Sendable {
        case text = 0x1, binary = 0x2, close = 0x8, ping = 0x9, pong = 0xA
    }

    public static func encode(_ opcode: Opcode, _ payload: some Collection<UInt8>) -> [UInt8] {
        var frame: [UInt8] = [0x80 | opcode.rawValue]
        frame.reserveCapacity(payload.count + 10)
        switch payload.count {
        case 0...125:
            frame.append(UInt8(payload.count))
        case 126...0xFFFF:
            frame += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default:
            frame.append(127)
            for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8((UInt64(payload.count) >> UInt64(shift)) & 0xFF)) }
        }
        frame += payload
        return frame
    }

    public static func text(_ text: String) -> [UInt8] { encode(.text, text.utf8) }

    /// A text frame of `prefix`, `body` and `suffix` made in one buffer:
    /// for a message that wraps a payload written once for many sockets.
    public static func text(_ prefix: [UInt8], _ body: [UInt8], _ suffix: UInt8) -> [UInt8] {
        let length = prefix.count + body.count + 1
        var frame: [UInt8] = []
        frame.reserveCapacity(length + 10)
        frame.append(0x80 | Opcode.text.rawValue)
        switch length {
        case 0...125:
            frame.append(UInt8(length))
        case 126...0xFFFF:
            frame += [126, UInt8(length >> 8), UInt8(length & 0xFF)]
        default:
            frame.append(127)
            for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8((UInt64(length) >> UInt64(shift)) & 0xFF)) }
        }
        frame += prefix
        frame += body
        frame.append(suffix)
        return frame
    }

    /// A close frame; the reason is cut to fit a control frame's 125 bytes
    /// at a character boundary.
    public static func close(code: UInt16, reason: String = "") -> [UInt8] {
        var reasonBytes: [UInt8] = []
        for character in reason {
            let bytes = Array(String(character).utf8)
            if reasonBytes.count + bytes.count > 123 { break }
            reasonBytes += bytes
        }
        return encode(.close, [UInt8(code >> 8), UInt8(code & 0xFF)] + reasonBytes)
    }
}
