/// Reads the frames a client sends (RFC 6455 §5) as bytes arrive and joins
/// fragments into messages, strictly: whatever the RFC says a server must
/// fail the connection for is reported with the close code to send.
///
/// 1002 for protocol errors (an unmasked frame, reserved bits or opcodes, a
/// fragmented or oversized control frame, a continuation out of place, a
/// non-minimal length); 1007 for text that is not UTF-8, found as soon as
/// the bytes so far cannot begin valid UTF-8, even across fragments; 1009
/// for a message over `maxMessageBytes` or with more than `maxFragments`
/// fragments.
public struct WebSocketFrameParser: Sendable {
    public struct Limits: Sendable {
        public var maxMessageBytes: Int
        public var maxFragments: Int

        public init(maxMessageBytes: Int = 1 << 20, maxFragments: Int = 1024) {
            self.maxMessageBytes = maxMessageBytes
            self.maxFragments = maxFragments
        }
    }

    public enum Event: Sendable, Equatable {
        case text(String)
        case binary([UInt8])
        case ping([UInt8])
        case pong([UInt8])
        /// The peer's close frame: its code (nil when it sent none) and reason.
        case close(code: UInt16?, reason: String)
        /// The connection must be failed with this close code. Always the
        /// last event; the parser reads nothing after it.
        case failure(code: UInt16, reason: String)
    }

    public let limits: Limits
    private var buffer: [UInt8] = []
    private var message: [UInt8] = []
    private var messageIsText = false
    private var inMessage = false
    private var fragments = 0
    private var utf8 = UTF8Validator()
    /// After a close frame or a failure.
    private var finished = false

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Consumes `bytes`; returns the events they complete, in order.
    public mutating func feed(_ bytes: some Collection<UInt8>) -> [Event] {
        guard !finished else { return [] }
        buffer.append(contentsOf: bytes)
        var events: [Event] = []
        var position = 0
        defer {
            buffer.removeFirst(min(position, buffer.count))
            // An idle connection (most of a subscriber's life) holds no buffer.
            if buffer.isEmpty { buffer = [] }
        }
        do throws(Failure) {
            while !finished, let frameEnd = try nextFrame(at: position, into: &events) {
                position = frameEnd
            }
        } catch {
            finished = true
            buffer = []
            position = 0
            events.append(.failure(code: error.code, reason: error.reason))
        }
        return events
    }

    private struct Failure: Error {
        var code: UInt16
        var reason: String
    }

    /// Handles the frame at `start` when it has all arrived; returns where it ends.
    private mutating func nextFrame(at start: Int, into events: inout [Event]) throws(Failure) -> Int? {
        let available = buffer.count - start
        guard available >= 2 else { return nil }
        let first = buffer[start], second = buffer[start + 1]
        let fin = first & 0x80 != 0
        guard first & 0x70 == 0 else { throw Failure(code: 1002, reason: "reserved bits set without an extension") }
        let opcode = first & 0x0F
        guard second & 0x80 != 0 else { throw Failure(code: 1002, reason: "client frames must be masked") }
        var length = Int(second & 0x7F)
        var headerLength = 2
        let isControl = opcode & 0x08 != 0
        if isControl {
            guard opcode <= 0x0A else { throw Failure(code: 1002, reason: "reserved opcode \(opcode)") }
            guard fin else { throw Failure(code: 1002, reason: "fragmented control frame") }
            guard length <= 125 else { throw Failure(code: 1002, reason: "control frame longer than 125 bytes") }
        } else {
            guard opcode <= 0x02 else { throw Failure(code: 1002, reason: "reserved opcode \(opcode)") }
            if opcode == 0 && !inMessage { throw Failure(code: 1002, reason: "continuation frame without a message to continue") }
            if opcode != 0 && inMessage { throw Failure(code: 1002, reason: "new message before the last one finished") }
        }
        if length == 126 {
            guard available >= 4 else { return nil }
            length = Int(buffer[start + 2]) << 8 | Int(buffer[start + 3])
            guard length >= 126 else { throw Failure(code: 1002, reason: "length not minimally encoded") }
            headerLength = 4
        } else if length == 127 {
            guard available >= 10 else { return nil }
            var long: UInt64 = 0
            for index in 0..<8 { long = long << 8 | UInt64(buffer[start + 2 + index]) }
            guard long >> 63 == 0 else { throw Failure(code: 1002, reason: "length with its top bit set") }
            guard long > 0xFFFF else { throw Failure(code: 1002, reason: "length not minimally encoded") }
            guard long <= UInt64(limits.maxMessageBytes) else { throw Failure(code: 1009, reason: "message too big") }
            length = Int(long)
            headerLength = 10
        }
        if !isControl && message.count + length > limits.maxMessageBytes {
            throw Failure(code: 1009, reason: "message too big")
        }
        guard available >= headerLength + 4 + length else { return nil }
        let maskStart = start + headerLength
        let mask = (buffer[maskStart], buffer[maskStart + 1], buffer[maskStart + 2], buffer[maskStart + 3])
        let payloadStart = maskStart + 4
        var payload = Array(buffer[payloadStart..<(payloadStart + length)])
        payload.withUnsafeMutableBufferPointer { bytes in
            for index in bytes.indices {
                switch index & 3 {
                case 0: bytes[index] ^= mask.0
                case 1: bytes[index] ^= mask.1
                case 2: bytes[index] ^= mask.2
                default: bytes[index] ^= mask.3
                }
            }
        }
        let end = payloadStart + length
        switch opcode {
        case 0x8:
            events.append(try Self.closeEvent(payload))
            finished = true  // Nothing after a close frame counts.
        case 0x9: events.append(.ping(payload))
        case 0xA: events.append(.pong(payload))
        default:
            if opcode != 0 {
                inMessage = true
                messageIsText = opcode == 0x1
                fragments = 0
                utf8 = UTF8Validator()
            }
            fragments += 1
            guard fragments <= limits.maxFragments else { throw Failure(code: 1009, reason: "too many fragments") }
            if messageIsText {
                guard utf8.consume(payload) else { throw Failure(code: 1007, reason: "text is not valid UTF-8") }
            }
            message += payload
            if fin {
                if messageIsText {
                    guard utf8.isComplete else { throw Failure(code: 1007, reason: "text is not valid UTF-8") }
                    events.append(.text(String(decoding: message, as: UTF8.self)))
                } else {
                    events.append(.binary(message))
                }
                message = []
                inMessage = false
            }
        }
        return end
    }

    private static func closeEvent(_ payload: [UInt8]) throws(Failure) -> Event {
        if payload.isEmpty { return .close(code: nil, reason: "") }
        guard payload.count >= 2 else { throw Failure(code: 1002, reason: "close frame with a one-byte payload") }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        guard isValidCloseCode(code) else { throw Failure(code: 1002, reason: "invalid close code \(code)") }
        var validator = UTF8Validator()
        let reason = Array(payload[2...])
        guard validator.consume(reason), validator.isComplete else {
            throw Failure(code: 1007, reason: "close reason is not valid UTF-8")
        }
        return .close(code: code, reason: String(decoding: reason, as: UTF8.self))
    }

    /// The codes a peer may send (RFC 6455 §7.4 and the IANA registry):
    /// not the reserved 1004, nor 1005, 1006 and 1015, which only report.
    static func isValidCloseCode(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }
}
