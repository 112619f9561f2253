/// Parses HTTP/1.1 requests (RFC 9112) from bytes as they arrive, several
/// per connection (pipelining), strictly: whatever could let two parties
/// read one stream as different requests (request smuggling) is refused
/// with 400 and the connection closed.
///
/// Refused: both Content-Length and Transfer-Encoding; a repeated,
/// list-valued or non-numeric Content-Length; a malformed chunk size;
/// obs-fold; white space between a field name and its colon; a bare CR or
/// LF; a missing or repeated Host. Over the limits: a request line longer
/// than `maxTargetBytes` gets 414, a header block longer than
/// `maxHeaderBytes` 431, a body longer than `maxBodyBytes` 413.
///
/// A body is collected whole, unless `streamsBody` says the request's
/// handler reads it as it arrives (an upload): then its bytes come out as
/// `bodyPart` events, up to the length `streamsBody` allows.
public struct HTTPRequestParser {
    /// For a request whose handler reads its body as it arrives, the most
    /// bytes that body may have; nil collects the body whole, within
    /// `maxBodyBytes`.
    public typealias BodyStreaming = @Sendable (HTTPRequestHead) -> Int?

    public struct Limits: Sendable {
        public var maxTargetBytes: Int
        public var maxHeaderBytes: Int
        public var maxBodyBytes: Int

        public init(maxTargetBytes: Int = 8 * 1024, maxHeaderBytes: Int = 16 * 1024, maxBodyBytes: Int = 1 << 20) {
            self.maxTargetBytes = maxTargetBytes
            self.maxHeaderBytes = maxHeaderBytes
            self.maxBodyBytes = maxBodyBytes
        }
    }

    public enum Event: Sendable, Equatable {
        /// The head of a request that expects `100 Continue` is complete;
        /// its body may follow. A server answers the expectation now.
        case head(HTTPRequestHead)
        /// The request, body included, is complete.
        case request(HTTPRequest)
        /// A request's head is complete, and its body is to be streamed to
        /// its handler: `bodyPart`s follow, then `bodyEnd`. A server
        /// answers `Expect: 100-continue` now.
        case streaming(HTTPRequestHead)
        /// The next bytes of the streamed body.
        case bodyPart([UInt8])
        /// The streamed body is complete.
        case bodyEnd
        /// The input is refused: answer with this error, after the
        /// responses to the requests before it, and close. Always the last
        /// event; the parser takes no more input.
        case refused(HTTPError)
    }

    public let limits: Limits
    private let streamsBody: BodyStreaming?
    /// The current request's body goes out as `bodyPart` events.
    private var streaming = false
    /// The most bytes the current request's body may have.
    private var bodyLimit = 0
    /// The body bytes of the current request so far.
    private var bodyCount = 0
    private var buffer: [UInt8] = []
    private var state = State.requestLine
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var headerBytes = 0
    /// The current head's fields that decide how its body is framed,
    /// counted as they are parsed.
    private var framing = Framing()

    private struct Framing {
        var hosts = 0
        var lengths = 0
        var length: String?
        var encodings = 0

        mutating func count(_ field: HTTPHeader) {
            switch field.name {
            case "host": hosts += 1
            case "content-length":
                lengths += 1
                length = field.value
            case "transfer-encoding": encodings += 1
            default: break
            }
        }
    }

    private enum State: Equatable {
        case requestLine
        case headers
        case fixedBody(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers
        case failed
        /// After a request to switch protocols: what follows is not HTTP.
        case upgraded
    }

    public init(limits: Limits = Limits(), streamsBody: BodyStreaming? = nil) {
        self.limits = limits
        self.streamsBody = streamsBody
    }

    /// Where the connection is between requests, for its timeouts.
    public enum Phase: Sendable, Equatable {
        /// Between requests.
        case idle
        /// Part of a request line or header block has arrived.
        case head
        /// The head is complete; the body is arriving.
        case body
    }

    public var phase: Phase {
        switch state {
        case .requestLine, .failed, .upgraded: buffer.isEmpty ? .idle : .head
        case .headers: .head
        case .fixedBody, .chunkSize, .chunkData, .chunkDataEnd, .trailers: .body
        }
    }

    /// Consumes `bytes`; returns the events they complete, in order.
    public mutating func feed(_ bytes: some Collection<UInt8>) -> [Event] {
        if let events = bytes.withContiguousStorageIfAvailable({ feed(contiguous: $0) }) { return events }
        return Array(bytes).withUnsafeBufferPointer { feed(contiguous: $0) }
    }

    private mutating func feed(contiguous bytes: UnsafeBufferPointer<UInt8>) -> [Event] {
        guard state != .failed else { return [] }
        var events: [Event] = []
        // What arrives between requests is parsed where it lies; only what a
        // later read completes (a request cut across reads) is copied, to
        // be read again with the rest.
        guard buffer.isEmpty else {
            var buffered: [UInt8] = []
            swap(&buffered, &buffer)
            buffered.append(contentsOf: bytes)
            let consumed = buffered.withUnsafeBufferPointer { parse($0, into: &events) }
            if state != .failed {
                buffered.removeFirst(consumed)
                buffer = buffered
            }
            return events
        }
        let consumed = parse(bytes, into: &events)
        if state != .failed && consumed < bytes.count {
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[consumed...]))
        }
        return events
    }

    /// Parses what `bytes` hold, adding the events they complete; returns
    /// how many bytes it consumed (a line or body cut short is left for the
    /// next read).
    private mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>, into events: inout [Event]) -> Int {
        var position = 0
        do throws(HTTPError) {
            while true {
                switch state {
                case .requestLine:
                    guard let line = try Self.nextLine(in: bytes, from: &position, limit: limits.maxTargetBytes + 64, status: 414) else {
                        return position
                    }
                    // RFC 9112 §2.2: empty lines before a request line are ignored.
                    if line.isEmpty { continue }
                    head = try Self.parseRequestLine(line, limits: limits)
                    headerBytes = line.count + 2
                    framing = Framing()
                    state = .headers
                case .headers:
                    guard let line = try Self.nextLine(in: bytes, from: &position, limit: limits.maxHeaderBytes, status: 431) else {
                        return position
                    }
                    headerBytes += line.count + 2
                    if headerBytes > limits.maxHeaderBytes { throw HTTPError(431, "header fields too large") }
                    if !line.isEmpty {
                        let field = try Self.parseField(line)
                        framing.count(field)
                        head!.headers.append(field)
                        continue
                    }
                    let bodyLength = try finishHead()
                    if streaming {
                        events.append(.streaming(head!))
                    } else if head!.expectsContinue {
                        // Only a client that waits for `100 Continue` needs
                        // to hear of the head before its body.
                        events.append(.head(head!))
                    }
                    switch bodyLength {
                    case .chunked: state = .chunkSize
                    case .length(0): complete(into: &events)
                    case .length(let length): state = .fixedBody(remaining: length)
                    }
                case .fixedBody(let remaining):
                    let available = min(remaining, bytes.count - position)
                    guard available > 0 else { return position }
                    takeBody(UnsafeBufferPointer(rebasing: bytes[position..<(position + available)]), into: &events)
                    position += available
                    if remaining == available {
                        complete(into: &events)
                    } else {
                        state = .fixedBody(remaining: remaining - available)
                    }
                case .chunkSize:
                    guard let line = try Self.nextLine(in: bytes, from: &position, limit: 1024, status: 400) else { return position }
                    let size = try Self.parseChunkSize(line)
                    if bodyCount + size > bodyLimit { throw HTTPError(413, "body too large") }
                    state = size == 0 ? .trailers : .chunkData(remaining: size)
                case .chunkData(let remaining):
                    let available = min(remaining, bytes.count - position)
                    guard available > 0 else { return position }
                    takeBody(UnsafeBufferPointer(rebasing: bytes[position..<(position + available)]), into: &events)
                    position += available
                    state = remaining == available ? .chunkDataEnd : .chunkData(remaining: remaining - available)
                case .chunkDataEnd:
                    guard bytes.count - position >= 2 else { return position }
                    guard bytes[position] == 0x0D, bytes[position + 1] == 0x0A else {
                        throw HTTPError(400, "chunk data not followed by CRLF")
                    }
                    position += 2
                    state = .chunkSize
                case .trailers:
                    guard let line = try Self.nextLine(in: bytes, from: &position, limit: limits.maxHeaderBytes, status: 431) else {
                        return position
                    }
                    headerBytes += line.count + 2
                    if headerBytes > limits.maxHeaderBytes { throw HTTPError(431, "trailer fields too large") }
                    if line.isEmpty {
                        complete(into: &events)
                    } else {
                        _ = try Self.parseField(line)
                    }
                case .failed, .upgraded:
                    return position
                }
            }
        } catch {
            state = .failed
            events.append(.refused(error))
            return bytes.count
        }
    }

    private mutating func takeBody(_ bytes: UnsafeBufferPointer<UInt8>, into events: inout [Event]) {
        bodyCount += bytes.count
        if streaming {
            // A chunked body's pieces arriving together go out as one part:
            // a body of 1-byte chunks is not a million arrays.
            if case .bodyPart(var last)? = events.last {
                events.removeLast()
                last += bytes
                events.append(.bodyPart(last))
            } else {
                events.append(.bodyPart(Array(bytes)))
            }
        } else {
            body.append(contentsOf: bytes)
        }
    }

    private mutating func complete(into events: inout [Event]) {
        // The head and body are moved into the request, not copied and then
        // let go: a copy retains each of the head's strings once more.
        let head = self.head.take()!
        var body: [UInt8] = []
        swap(&body, &self.body)
        state = head.asksToUpgrade ? .upgraded : .requestLine
        events.append(streaming ? .bodyEnd : .request(HTTPRequest(head: head, body: body)))
        streaming = false
        bodyCount = 0
        headerBytes = 0
    }

    /// After a request asking to upgrade (`Connection: upgrade`), the parser
    /// stops: the bytes after it belong to the next protocol. This hands
    /// them over.
    public mutating func takeBytesAfterUpgrade() -> [UInt8] {
        precondition(state == .upgraded, "no upgrade requested")
        defer { buffer = [] }
        return buffer
    }

    /// The next CRLF-terminated line, or nil when it has not all arrived.
    /// A line longer than `limit` fails with `status`; a bare CR or LF with 400.
    private static func nextLine(
        in bytes: UnsafeBufferPointer<UInt8>, from position: inout Int, limit: Int, status: Int
    ) throws(HTTPError) -> UnsafeBufferPointer<UInt8>? {
        var index = position
        let end = bytes.count
        while index < end {
            let byte = bytes[index]
            if byte == 0x0A { throw HTTPError(400, "bare LF") }
            if byte == 0x0D {
                guard index + 1 < end else { return nil }
                guard bytes[index + 1] == 0x0A else { throw HTTPError(400, "bare CR") }
                let line = UnsafeBufferPointer(rebasing: bytes[position..<index])
                position = index + 2
                return line
            }
            index += 1
            if index - position > limit { throw HTTPError(status, status == 414 ? "URI too long" : "line too long") }
        }
        return nil
    }

    private enum BodyLength {
        case length(Int)
        case chunked
    }

    /// Checks the head as a whole and works out how the body is framed.
    private mutating func finishHead() throws(HTTPError) -> BodyLength {
        let head = self.head!
        let (hosts, lengths, length, encodings) = (framing.hosts, framing.lengths, framing.length, framing.encodings)
        if hosts > 1 { throw HTTPError(400, "more than one Host") }
        if hosts == 0 && head.version == .http11 { throw HTTPError(400, "no Host") }
        if lengths > 0 && encodings > 0 { throw HTTPError(400, "both Content-Length and Transfer-Encoding") }
        if let streamed = streamsBody?(head) {
            streaming = true
            bodyLimit = streamed
        } else {
            streaming = false
            bodyLimit = limits.maxBodyBytes
        }
        if encodings > 0 {
            guard head.version == .http11 else { throw HTTPError(400, "Transfer-Encoding in HTTP/1.0") }
            guard head.tokens("transfer-encoding") == ["chunked"] else { throw HTTPError(501, "unsupported Transfer-Encoding") }
            return .chunked
        }
        guard let value = length else { return .length(0) }
        if lengths > 1 { throw HTTPError(400, "more than one Content-Length") }
        guard !value.isEmpty, value.utf8.count <= 18, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw HTTPError(400, "malformed Content-Length")
        }
        // Eighteen digits or fewer cannot overflow.
        let count = value.utf8.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        if count > bodyLimit { throw HTTPError(413, "body too large") }
        return .length(count)
    }

    // MARK: Pieces

    static func parseRequestLine(_ line: UnsafeBufferPointer<UInt8>, limits: Limits) throws(HTTPError) -> HTTPRequestHead {
        // method SP request-target SP HTTP-version: exactly two spaces.
        guard let firstSpace = line.firstIndex(of: 0x20),
            let secondSpace = line[(firstSpace + 1)...].firstIndex(of: 0x20),
            !line[(secondSpace + 1)...].contains(0x20)
        else { throw HTTPError(400, "malformed request line") }
        let method = line[..<firstSpace]
        let target = line[(firstSpace + 1)..<secondSpace]
        let versionText = line[(secondSpace + 1)...]
        guard !method.isEmpty, !target.isEmpty, method.allSatisfy(isTokenCharacter) else {
            throw HTTPError(400, "malformed request line")
        }
        if target.count > limits.maxTargetBytes { throw HTTPError(414, "URI too long") }
        guard target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { throw HTTPError(400, "malformed request target") }
        let version: HTTPVersion
        if versionText.elementsEqual(http11) {
            version = .http11
        } else if versionText.elementsEqual(http10) {
            version = .http10
        } else if String(decoding: versionText, as: UTF8.self).hasPrefix("HTTP/") {
            // By characters, as the version was always compared: "HTTP/"
            // followed by a combining mark is no HTTP version at all.
            throw HTTPError(505, "HTTP version not supported")
        } else {
            throw HTTPError(400, "malformed request line")
        }
        var head = HTTPRequestHead(
            method: String(decoding: method, as: UTF8.self), target: String(decoding: target, as: UTF8.self),
            version: version, headers: []
        )
        // Most requests have a handful of fields: room for them at once,
        // rather than the array growing field by field.
        head.headers.reserveCapacity(8)
        return head
    }

    /// `name: value`, with optional white space around the value only.
    static func parseField(_ line: UnsafeBufferPointer<UInt8>) throws(HTTPError) -> HTTPHeader {
        guard let first = line.first else { throw HTTPError(400, "empty field") }
        if first == 0x20 || first == 0x09 { throw HTTPError(400, "obs-fold") }
        guard let colon = line.firstIndex(of: 0x3A) else { throw HTTPError(400, "field without a colon") }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, name.allSatisfy(isTokenCharacter) else {
            throw HTTPError(400, "malformed field name")
        }
        var value = line[(colon + 1)...]
        while let byte = value.first, byte == 0x20 || byte == 0x09 { value = value.dropFirst() }
        while let byte = value.last, byte == 0x20 || byte == 0x09 { value = value.dropLast() }
        guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
            throw HTTPError(400, "control character in field value")
        }
        // Field names are ASCII tokens (checked above): lowercased byte by
        // byte while the String is made, not by a second pass over it.
        let lowercased = String(unsafeUninitializedCapacity: name.count) { buffer in
            for (index, byte) in name.enumerated() {
                buffer[index] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            }
            return name.count
        }
        return HTTPHeader(lowercasedName: lowercased, value: String(decoding: value, as: UTF8.self))
    }

    /// `HEXDIG+ [; extensions]`, at most 15 hex digits so it cannot overflow.
    static func parseChunkSize(_ line: UnsafeBufferPointer<UInt8>) throws(HTTPError) -> Int {
        let digits = line.prefix { $0 != 0x3B }
        guard !digits.isEmpty, digits.count <= 15 else { throw HTTPError(400, "malformed chunk size") }
        var size = 0
        for byte in digits {
            let digit: Int
            switch byte {
            case 0x30...0x39: digit = Int(byte) - 0x30
            case 0x41...0x46: digit = Int(byte) - 0x37
            case 0x61...0x66: digit = Int(byte) - 0x57
            default: throw HTTPError(400, "malformed chunk size")
            }
            size = size * 16 + digit
        }
        return size
    }

    private static let http11 = Array("HTTP/1.1".utf8)
    private static let http10 = Array("HTTP/1.0".utf8)

    /// RFC 9110 tchar.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: true
        default: false
        }
    }
}

public enum HTTPVersion: Sendable, Equatable {
    case http10
    case http11
}

public struct HTTPHeader: Sendable, Equatable {
    /// Lower-cased.
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name.lowercased()
        self.value = value
    }

    init(lowercasedName: String, value: String) {
        name = lowercasedName
        self.value = value
    }
}

public struct HTTPRequestHead: Sendable, Equatable {
    public var method: String
    public var target: String
    public var version: HTTPVersion
    public var headers: [HTTPHeader]

    public init(method: String, target: String, version: HTTPVersion, headers: [HTTPHeader]) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }

    /// The target without its query string. Cut at the byte: going by
    /// characters, as `prefix(while:)` on the String does, cost more than
    /// the rest of routing a request.
    public var path: Substring { Self.path(of: target) }

    /// `target` without its query string.
    public static func path(of target: String) -> Substring {
        guard let query = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return target[...] }
        return target[..<query]
    }

    /// The comma-separated tokens of every `name` field, lower-cased.
    public func tokens(_ name: String) -> [String] {
        headers.filter { $0.name == name }
            .flatMap { $0.value.lowercased().split(separator: ",").map { $0.trimmingSpaces() } }
    }

    /// Whether the connection stays open after this request.
    public var keepAlive: Bool {
        let tokens = tokens("connection")
        switch version {
        case .http11: return !tokens.contains("close")
        case .http10: return tokens.contains("keep-alive")
        }
    }

    /// `Connection: upgrade` with an `Upgrade` field.
    public var asksToUpgrade: Bool {
        header("upgrade") != nil && tokens("connection").contains("upgrade")
    }

    public var expectsContinue: Bool {
        header("expect")?.lowercased() == "100-continue"
    }
}

public struct HTTPRequest: Sendable, Equatable {
    public var head: HTTPRequestHead
    /// The whole body, unless it is streamed.
    public var body: [UInt8]
    /// The body as it arrives, for a request the server streams (see
    /// `HTTPRequestParser.BodyStreaming`).
    public var bodyStream: HTTPRequestBodyStream?
    /// The IP address of the connection it came on (a proxy's, behind one).
    public var peerAddress: String?
    /// Its id (`RequestID`), given by the connection as it is answered.
    public var id = ""

    public init(head: HTTPRequestHead, body: [UInt8] = [], bodyStream: HTTPRequestBodyStream? = nil, peerAddress: String? = nil) {
        self.head = head
        self.body = body
        self.bodyStream = bodyStream
        self.peerAddress = peerAddress
    }
}

/// A request the server refuses: the status to answer with, then close.
public struct HTTPError: Error, Sendable, Equatable {
    public var status: Int
    public var reason: String

    public init(_ status: Int, _ reason: String) {
        self.status = status
        self.reason = reason
    }
}

extension StringProtocol {
    package func trimmingSpaces() -> String {
        // Over UTF-8 bytes: spaces and tabs are single bytes, and slicing the
        // UTF-8 view keeps the text's storage (no scalar-by-scalar rebuild).
        let utf8 = Substring(self).utf8
        guard let start = utf8.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }) else { return "" }
        let end = utf8.lastIndex(where: { $0 != 0x20 && $0 != 0x09 })!
        return String(Substring(utf8[start...end]))
    }
}
