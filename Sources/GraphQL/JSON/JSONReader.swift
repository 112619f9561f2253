/// Reads JSON text (RFC 8259) into values, straight from UTF-8 bytes: request
/// bodies and variables. Integers that fit in 64 bits stay exact; other
/// numbers are doubles. Nesting is bounded, so no input can exhaust the stack.
public struct JSONReader {
    public struct Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        public var message: String
        /// The byte offset where reading stopped.
        public var offset: Int

        public var description: String { "\(message) at byte \(offset)" }
    }

    /// How deeply arrays and objects may nest.
    public var maxDepth = 256

    public init(maxDepth: Int = 256) {
        self.maxDepth = maxDepth
    }

    public func read(_ text: String) throws(Error) -> GraphQLValue {
        var copy = text
        let result: Result<GraphQLValue, Error> = copy.withUTF8 { bytes in
            do throws(Error) {
                return .success(try read(bytes))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    public func read(_ bytes: UnsafeBufferPointer<UInt8>) throws(Error) -> GraphQLValue {
        var parser = Parser(bytes: bytes, maxDepth: maxDepth)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.position == bytes.count else { throw parser.error("Unexpected data after the JSON value") }
        return value
    }

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        let maxDepth: Int
        var position = 0

        init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
            self.bytes = bytes
            self.maxDepth = maxDepth
        }

        func error(_ message: String) -> Error { Error(message: message, offset: position) }

        @inline(__always) func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) throws(Error) -> GraphQLValue {
            guard let byte = peek() else { throw error("Unexpected end of JSON input") }
            switch byte {
            case 0x7B: return try object(depth: depth + 1)
            case 0x5B: return try array(depth: depth + 1)
            case 0x22: return .string(try string())
            case 0x74:
                try literal("true")
                return .boolean(true)
            case 0x66:
                try literal("false")
                return .boolean(false)
            case 0x6E:
                try literal("null")
                return .null
            case 0x2D, 0x30...0x39: return try number()
            default: throw error("Unexpected character in JSON")
            }
        }

        mutating func literal(_ word: StaticString) throws(Error) {
            let count = word.utf8CodeUnitCount
            guard position + count <= bytes.count else { throw error("Unexpected end of JSON input") }
            for index in 0..<count where bytes[position + index] != word.utf8Start[index] {
                throw error("Unexpected character in JSON")
            }
            position += count
        }

        mutating func object(depth: Int) throws(Error) -> GraphQLValue {
            guard depth <= maxDepth else { throw error("JSON nested more than \(maxDepth) levels deep") }
            position += 1
            var members: [GraphQLValue.Member] = []
            skipWhitespace()
            if peek() == 0x7D {
                position += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard peek() == 0x22 else { throw error("Expected a string key in JSON object") }
                let key = try string()
                skipWhitespace()
                guard peek() == 0x3A else { throw error("Expected ':' after key in JSON object") }
                position += 1
                skipWhitespace()
                let item = try value(depth: depth)
                // A repeated key keeps its first position and its last value, as JSON.parse does.
                if let existing = members.firstIndex(where: { $0.name == key }) {
                    members[existing].value = item
                } else {
                    members.append(.init(key, item))
                }
                skipWhitespace()
                switch peek() {
                case 0x2C: position += 1
                case 0x7D:
                    position += 1
                    return .object(members)
                case nil: throw error("Unexpected end of JSON input")
                default: throw error("Expected ',' or '}' in JSON object")
                }
            }
        }

        mutating func array(depth: Int) throws(Error) -> GraphQLValue {
            guard depth <= maxDepth else { throw error("JSON nested more than \(maxDepth) levels deep") }
            position += 1
            var items: [GraphQLValue] = []
            skipWhitespace()
            if peek() == 0x5D {
                position += 1
                return .list(items)
            }
            while true {
                skipWhitespace()
                items.append(try value(depth: depth))
                skipWhitespace()
                switch peek() {
                case 0x2C: position += 1
                case 0x5D:
                    position += 1
                    return .list(items)
                case nil: throw error("Unexpected end of JSON input")
                default: throw error("Expected ',' or ']' in JSON array")
                }
            }
        }

        mutating func number() throws(Error) -> GraphQLValue {
            let start = position
            var isInteger = true
            if peek() == 0x2D { position += 1 }
            guard let first = peek(), first >= 0x30, first <= 0x39 else { throw error("Expected a digit in JSON number") }
            if first == 0x30 {
                position += 1
            } else {
                while let digit = peek(), digit >= 0x30, digit <= 0x39 { position += 1 }
            }
            if peek() == 0x2E {
                isInteger = false
                position += 1
                guard let digit = peek(), digit >= 0x30, digit <= 0x39 else { throw error("Expected a digit in JSON number") }
                while let digit = peek(), digit >= 0x30, digit <= 0x39 { position += 1 }
            }
            if peek() == 0x65 || peek() == 0x45 {
                isInteger = false
                position += 1
                if peek() == 0x2B || peek() == 0x2D { position += 1 }
                guard let digit = peek(), digit >= 0x30, digit <= 0x39 else { throw error("Expected a digit in JSON number") }
                while let digit = peek(), digit >= 0x30, digit <= 0x39 { position += 1 }
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            if isInteger, let integer = Int(text) { return .int(integer) }
            guard let double = Double(text) else { throw error("Invalid JSON number") }
            return .float(double)
        }

        mutating func string() throws(Error) -> String {
            position += 1
            let start = position
            // Fast path: no escapes.
            while position < bytes.count {
                let byte = bytes[position]
                if byte == 0x22 {
                    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                    position += 1
                    return text
                }
                if byte == 0x5C { break }
                if byte < 0x20 { throw error("Control character in JSON string") }
                position += 1
            }
            var buffer = Array(bytes[start..<position])
            while position < bytes.count {
                let byte = bytes[position]
                switch byte {
                case 0x22:
                    position += 1
                    return String(decoding: buffer, as: UTF8.self)
                case 0x5C:
                    position += 1
                    guard let escape = peek() else { throw error("Unexpected end of JSON input") }
                    position += 1
                    switch escape {
                    case 0x22: buffer.append(0x22)
                    case 0x5C: buffer.append(0x5C)
                    case 0x2F: buffer.append(0x2F)
                    case 0x62: buffer.append(0x08)
                    case 0x66: buffer.append(0x0C)
                    case 0x6E: buffer.append(0x0A)
                    case 0x72: buffer.append(0x0D)
                    case 0x74: buffer.append(0x09)
                    case 0x75:
                        var scalar = try hex4()
                        if (0xD800...0xDBFF).contains(scalar), peek() == 0x5C, position + 1 < bytes.count, bytes[position + 1] == 0x75 {
                            let save = position
                            position += 2
                            let low = try hex4()
                            if (0xDC00...0xDFFF).contains(low) {
                                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                            } else {
                                position = save
                            }
                        }
                        // A lone surrogate cannot be represented; it becomes U+FFFD.
                        if (0xD800...0xDFFF).contains(scalar) { scalar = 0xFFFD }
                        Lexer.appendUTF8(scalar, to: &buffer)
                    default:
                        throw error("Invalid escape in JSON string")
                    }
                default:
                    if byte < 0x20 { throw error("Control character in JSON string") }
                    buffer.append(byte)
                    position += 1
                }
            }
            throw error("Unterminated JSON string")
        }

        mutating func hex4() throws(Error) -> UInt32 {
            guard position + 4 <= bytes.count else { throw error("Unexpected end of JSON input") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let digit = Lexer.hexDigit(bytes[position])
                guard digit >= 0 else { throw error("Invalid \\u escape in JSON string") }
                value = value << 4 | UInt32(digit)
                position += 1
            }
            return value
        }
    }
}
