/// Parses a multipart/form-data body (RFC 7578, RFC 2046 §5.1) from bytes
/// as they arrive: each part's head, then its content in pieces as the
/// bytes come, so a file part is never held whole. Strict where leniency
/// would let two readers see different parts: a delimiter must be followed
/// by CRLF or by `--`, and a part head by an empty line within its limit.
public struct MultipartParser {
    public struct Limits: Sendable {
        /// Parts in the body; one more is refused.
        public var maxParts: Int
        /// The header block of one part.
        public var maxHeaderBytes: Int

        public init(maxParts: Int, maxHeaderBytes: Int = 8 * 1024) {
            self.maxParts = maxParts
            self.maxHeaderBytes = maxHeaderBytes
        }
    }

    /// One part's head.
    public struct PartHead: Sendable, Equatable {
        /// The `name` of its Content-Disposition: the form field.
        public var name: String
        /// The `filename`, for a file.
        public var filename: String?
        public var contentType: String?
    }

    public enum Event: Sendable, Equatable {
        case part(PartHead)
        /// The next bytes of the current part's content.
        case content([UInt8])
        /// The last part ended with the closing delimiter.
        case end
    }

    public struct Failure: Error, Sendable, Equatable {
        /// 400 for a malformed body, 413 for one over the limits.
        public var status: Int
        public var reason: String
    }

    private let delimiter: [UInt8]
    private let limits: Limits
    private var buffer: [UInt8]
    private var state = State.preamble
    private var parts = 0

    private enum State: Equatable {
        /// Before the first delimiter.
        case preamble
        /// Just after a delimiter: CRLF (a part follows) or `--` (the end).
        case afterDelimiter
        case headers
        case content
        case done
        case failed
    }

    /// The parser for a body with `boundary` (from its Content-Type).
    public init(boundary: String, limits: Limits) {
        delimiter = Array("\r\n--\(boundary)".utf8)
        self.limits = limits
        // The first delimiter may open the body without a CRLF before it.
        buffer = [0x0D, 0x0A]
    }

    /// The boundary of a `multipart/form-data` Content-Type, or nil when it
    /// is not one or has none (RFC 2046: 1 to 70 characters).
    public static func boundary(ofContentType contentType: String) -> String? {
        let parameters = contentType.split(separator: ";").map { $0.trimmingSpaces() }
        guard parameters.first?.lowercased() == "multipart/form-data" else { return nil }
        for parameter in parameters.dropFirst() {
            guard let equals = parameter.firstIndex(of: "="), parameter[..<equals].lowercased() == "boundary" else { continue }
            var value = Substring(parameter[parameter.index(after: equals)...])
            if value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2 { value = value.dropFirst().dropLast() }
            guard (1...70).contains(value.utf8.count), value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x22 }) else { return nil }
            return String(value)
        }
        return nil
    }

    /// Whether the closing delimiter has been read.
    public var isComplete: Bool { state == .done }

    /// Consumes `bytes`; the events they complete, in order.
    public mutating func feed(_ bytes: some Collection<UInt8>) throws(Failure) -> [Event] {
        guard state != .failed, state != .done else { return [] }
        buffer.append(contentsOf: bytes)
        var events: [Event] = []
        var position = 0
        defer { buffer.removeFirst(position) }
        do throws(Failure) {
            while true {
                switch state {
                case .preamble:
                    guard let found = find(delimiter, from: position) else {
                        // Keep what could be the start of a delimiter.
                        position = max(position, buffer.count - delimiter.count + 1)
                        return events
                    }
                    position = found + delimiter.count
                    state = .afterDelimiter
                case .afterDelimiter:
                    guard buffer.count - position >= 2 else { return events }
                    if buffer[position] == 0x2D && buffer[position + 1] == 0x2D {
                        position = buffer.count
                        state = .done
                        events.append(.end)
                        return events
                    }
                    guard buffer[position] == 0x0D && buffer[position + 1] == 0x0A else {
                        throw Failure(status: 400, reason: "a multipart delimiter is not followed by CRLF")
                    }
                    position += 2
                    parts += 1
                    if parts > limits.maxParts {
                        throw Failure(status: 413, reason: "more than \(limits.maxParts) parts")
                    }
                    state = .headers
                case .headers:
                    guard buffer.count - position >= 2 else { return events }
                    if buffer[position] == 0x0D && buffer[position + 1] == 0x0A {
                        throw Failure(status: 400, reason: "a part has no Content-Disposition")
                    }
                    guard let end = find([0x0D, 0x0A, 0x0D, 0x0A], from: position) else {
                        if buffer.count - position > limits.maxHeaderBytes {
                            throw Failure(status: 413, reason: "a part's header fields are too large")
                        }
                        return events
                    }
                    let block = buffer[position..<end]
                    if block.count > limits.maxHeaderBytes { throw Failure(status: 413, reason: "a part's header fields are too large") }
                    events.append(.part(try Self.partHead(block)))
                    position = end + 4
                    state = .content
                case .content:
                    if let found = find(delimiter, from: position) {
                        if found > position { events.append(.content(Array(buffer[position..<found]))) }
                        position = found + delimiter.count
                        state = .afterDelimiter
                        continue
                    }
                    // All but what could be the start of a delimiter.
                    let safe = buffer.count - delimiter.count + 1
                    if safe > position {
                        events.append(.content(Array(buffer[position..<safe])))
                        position = safe
                    }
                    return events
                case .done, .failed:
                    return events
                }
            }
        } catch {
            state = .failed
            position = buffer.count
            throw error
        }
    }

    /// Where `needle` next starts in the buffer at or after `start`.
    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, buffer.count - start >= needle.count else { return nil }
        var index = start
        let last = buffer.count - needle.count
        while index <= last {
            if buffer[index] == first {
                var matches = true
                for offset in 1..<needle.count where buffer[index + offset] != needle[offset] {
                    matches = false
                    break
                }
                if matches { return index }
            }
            index += 1
        }
        return nil
    }

    /// A part's Content-Disposition (form-data, with a name) and Content-Type.
    static func partHead(_ block: ArraySlice<UInt8>) throws(Failure) -> PartHead {
        var disposition: String?
        var contentType: String?
        var lines: [ArraySlice<UInt8>] = []
        var start = block.startIndex
        var index = block.startIndex
        while index < block.endIndex {
            if block[index] == 0x0D, index + 1 < block.endIndex, block[index + 1] == 0x0A {
                lines.append(block[start..<index])
                index += 2
                start = index
            } else {
                index += 1
            }
        }
        if start < block.endIndex { lines.append(block[start..<block.endIndex]) }
        for line in lines where !line.isEmpty {
            let field: HTTPHeader
            do throws(HTTPError) {
                field = try line.withUnsafeBufferPointer { (line) throws(HTTPError) in try HTTPRequestParser.parseField(line) }
            } catch {
                throw Failure(status: 400, reason: "a part's header field is malformed")
            }
            switch field.name {
            case "content-disposition": disposition = field.value
            case "content-type": contentType = field.value
            default: break
            }
        }
        guard let disposition else { throw Failure(status: 400, reason: "a part has no Content-Disposition") }
        let parameters = Self.parameters(disposition)
        guard parameters.type == "form-data", let name = parameters.values["name"] else {
            throw Failure(status: 400, reason: "a part's Content-Disposition is not form-data with a name")
        }
        return PartHead(name: name, filename: parameters.values["filename"], contentType: contentType)
    }

    /// `type; name="value"; other=token`, quoted strings unescaped.
    static func parameters(_ value: String) -> (type: String, values: [String: String]) {
        var values: [String: String] = [:]
        let scalars = Array(value.unicodeScalars)
        var index = 0
        func skipSpaces() { while index < scalars.count && (scalars[index] == " " || scalars[index] == "\t") { index += 1 } }
        var type = ""
        while index < scalars.count && scalars[index] != ";" {
            type.unicodeScalars.append(scalars[index])
            index += 1
        }
        while index < scalars.count {
            index += 1  // the ";"
            skipSpaces()
            var name = ""
            while index < scalars.count && scalars[index] != "=" && scalars[index] != ";" {
                name.unicodeScalars.append(scalars[index])
                index += 1
            }
            guard index < scalars.count, scalars[index] == "=" else { continue }
            index += 1
            var parameter = ""
            if index < scalars.count && scalars[index] == "\"" {
                index += 1
                while index < scalars.count && scalars[index] != "\"" {
                    if scalars[index] == "\\" && index + 1 < scalars.count { index += 1 }
                    parameter.unicodeScalars.append(scalars[index])
                    index += 1
                }
                index += 1
                while index < scalars.count && scalars[index] != ";" { index += 1 }
            } else {
                while index < scalars.count && scalars[index] != ";" {
                    parameter.unicodeScalars.append(scalars[index])
                    index += 1
                }
                parameter = parameter.trimmingSpaces()
            }
            let key = name.trimmingSpaces().lowercased()
            if values[key] == nil { values[key] = parameter }
        }
        return (type.trimmingSpaces().lowercased(), values)
    }
}
