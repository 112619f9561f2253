/// Splits a GraphQL source into tokens (spec §2.1), reading its UTF-8 bytes.
///
/// Ignored tokens (the byte order mark, white space, line terminators,
/// commas and comments) are skipped. Errors carry graphql-js 16's wording and
/// the byte offset graphql-js reports them at.
struct Lexer {
    let bytes: UnsafeBufferPointer<UInt8>
    let source: Source
    /// Where the next token scan begins.
    var position: Int = 0
    /// Schema coordinates have a grammar of their own: no ignored tokens,
    /// and `.` is a punctuator.
    var readsSchemaCoordinate = false
    /// The cooked value of the last string or block string token read.
    var stringValue = ""
    private let makesInlineStrings = SmallASCIIString.layoutMatches

    init(bytes: UnsafeBufferPointer<UInt8>, source: Source) {
        self.bytes = bytes
        self.source = source
    }

    @inline(__always)
    func byte(at index: Int) -> UInt8 {
        index < bytes.count ? bytes[index] : 0
    }

    func error(at offset: Int, _ description: String) -> GraphQLError {
        .syntaxError(source, at: offset, description)
    }

    /// The text of a token's range, as graphql-js slices it for names and numbers.
    @inline(__always)
    func text(of token: Token) -> String {
        // Names and numbers are ASCII by construction.
        SmallASCIIString.make(
            UnsafeBufferPointer(rebasing: bytes[token.start..<token.end]), readable: bytes.count - token.start,
            layoutMatches: makesInlineStrings
        )
    }

    /// Whether a name token spells exactly `keyword`, without building a String.
    func token(_ token: Token, is keyword: StaticString) -> Bool {
        guard token.kind == .name, token.end - token.start == keyword.utf8CodeUnitCount else { return false }
        let pointer = keyword.utf8Start
        var index = 0
        while index < keyword.utf8CodeUnitCount {
            if bytes[token.start + index] != pointer[index] { return false }
            index += 1
        }
        return true
    }

    // MARK: - Reading tokens

    /// Reads the next significant token.
    mutating func next() throws(GraphQLError) -> Token {
        if readsSchemaCoordinate { return try nextInSchemaCoordinate() }
        let count = bytes.count
        while position < count {
            let code = bytes[position]
            switch code {
            case 0x09, 0x20, 0x2C, 0x0A, 0x0D:  // \t, space, comma, \n, \r
                position += 1
                continue
            case 0xEF where byte(at: position + 1) == 0xBB && byte(at: position + 2) == 0xBF:  // BOM
                position += 3
                continue
            case 0x23:  // # Comment
                position += 1
                while position < count, bytes[position] != 0x0A, bytes[position] != 0x0D {
                    position += 1
                }
                continue
            case 0x21: return punctuator(.bang)
            case 0x24: return punctuator(.dollar)
            case 0x26: return punctuator(.ampersand)
            case 0x28: return punctuator(.parenLeft)
            case 0x29: return punctuator(.parenRight)
            case 0x2E:  // .
                if byte(at: position + 1) == 0x2E, byte(at: position + 2) == 0x2E {
                    let start = position
                    position += 3
                    return Token(.spread, start, position)
                }
            case 0x3A: return punctuator(.colon)
            case 0x3D: return punctuator(.equals)
            case 0x40: return punctuator(.at)
            case 0x5B: return punctuator(.bracketLeft)
            case 0x5D: return punctuator(.bracketRight)
            case 0x7B: return punctuator(.braceLeft)
            case 0x7C: return punctuator(.pipe)
            case 0x7D: return punctuator(.braceRight)
            case 0x22:  // "
                if byte(at: position + 1) == 0x22, byte(at: position + 2) == 0x22 {
                    return try readBlockString()
                }
                return try readString()
            default:
                break
            }
            if Self.isDigit(code) || code == 0x2D {
                return try readNumber()
            }
            if Self.isNameStart(code) {
                return readName()
            }
            throw unexpectedCharacter(code, at: position)
        }
        return Token(.endOfFile, count, count)
    }

    // Kept out of `next()`, so that building the message does not weigh on every token.
    @inline(never)
    private func unexpectedCharacter(_ code: UInt8, at position: Int) -> GraphQLError {
        error(
            at: position,
            code == 0x27
                ? "Unexpected single quote character ('), did you mean to use a double quote (\")?"
                : "Unexpected character: \(describeCodePoint(at: position))."
        )
    }

    /// The tokens of a schema coordinate: names and `. ( ) : @`, nothing ignored.
    private mutating func nextInSchemaCoordinate() throws(GraphQLError) -> Token {
        guard position < bytes.count else { return Token(.endOfFile, bytes.count, bytes.count) }
        switch bytes[position] {
        case 0x2E: return punctuator(.dot)
        case 0x28: return punctuator(.parenLeft)
        case 0x29: return punctuator(.parenRight)
        case 0x3A: return punctuator(.colon)
        case 0x40: return punctuator(.at)
        case let code where Self.isNameStart(code): return readName()
        default: throw error(at: position, "Invalid character: \(describeCodePoint(at: position)).")
        }
    }

    @inline(__always)
    private mutating func punctuator(_ kind: TokenKind) -> Token {
        let start = position
        position += 1
        return Token(kind, start, position)
    }

    private mutating func readName() -> Token {
        let start = position
        // A local cursor stays in a register; `position` would be stored back every byte.
        var end = start + 1
        let count = bytes.count
        while end < count, Self.isNameContinue(bytes[end]) {
            end += 1
        }
        position = end
        return Token(.name, start, end)
    }

    /// IntValue and FloatValue, with the spec's lookahead restrictions: no
    /// leading zeros, and no digit, `.` or name start directly after a number.
    private mutating func readNumber() throws(GraphQLError) -> Token {
        let start = position
        var code = bytes[position]
        var isFloat = false
        if code == 0x2D {  // -
            position += 1
            code = byte(at: position)
        }
        if code == 0x30 {  // 0
            position += 1
            code = byte(at: position)
            if Self.isDigit(code) {
                throw error(at: position, "Invalid number, unexpected digit after 0: \(describeCodePoint(at: position)).")
            }
        } else {
            try readDigits()
            code = byte(at: position)
        }
        if code == 0x2E {  // .
            isFloat = true
            position += 1
            try readDigits()
            code = byte(at: position)
        }
        if code == 0x45 || code == 0x65 {  // E e
            isFloat = true
            position += 1
            code = byte(at: position)
            if code == 0x2B || code == 0x2D {  // + -
                position += 1
            }
            try readDigits()
            code = byte(at: position)
        }
        if code == 0x2E || Self.isNameStart(code) {
            throw error(at: position, "Invalid number, expected digit but got: \(describeCodePoint(at: position)).")
        }
        return Token(isFloat ? .float : .int, start, position)
    }

    private mutating func readDigits() throws(GraphQLError) {
        guard position < bytes.count, Self.isDigit(bytes[position]) else {
            throw error(at: position, "Invalid number, expected digit but got: \(describeCodePoint(at: position)).")
        }
        position += 1
        while position < bytes.count, Self.isDigit(bytes[position]) {
            position += 1
        }
    }

    // MARK: - Strings

    private mutating func readString() throws(GraphQLError) -> Token {
        let start = position
        let count = bytes.count
        position += 1
        var chunkStart = position
        // The cooked bytes, once an escape means the value is not a plain slice.
        var cooked: [UInt8] = []
        var hasEscapes = false
        while position < count {
            let code = bytes[position]
            if code == 0x22 {  // closing quote
                let value: String
                if hasEscapes {
                    cooked.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[chunkStart..<position]))
                    value = String(decoding: cooked, as: UTF8.self)
                } else {
                    value = String(decoding: UnsafeBufferPointer(rebasing: bytes[chunkStart..<position]), as: UTF8.self)
                }
                position += 1
                stringValue = value
                return Token(.string, start, position)
            }
            if code == 0x5C {  // \
                if !hasEscapes {
                    hasEscapes = true
                    cooked.reserveCapacity(position - chunkStart + 32)
                }
                cooked.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[chunkStart..<position]))
                let (scalar, size) = try readEscape()
                Self.appendUTF8(scalar, to: &cooked)
                position += size
                chunkStart = position
                continue
            }
            if code == 0x0A || code == 0x0D {
                break
            }
            position += 1
        }
        throw error(at: position, "Unterminated string.")
    }

    /// An escape sequence at `position`: the scalar it denotes and its length in bytes.
    private func readEscape() throws(GraphQLError) -> (UInt32, Int) {
        let next = byte(at: position + 1)
        if next == 0x75 {  // u
            return byte(at: position + 2) == 0x7B ? try readVariableWidthUnicodeEscape() : try readFixedWidthUnicodeEscape()
        }
        switch next {
        case 0x22: return (0x22, 2)
        case 0x5C: return (0x5C, 2)
        case 0x2F: return (0x2F, 2)
        case 0x62: return (0x08, 2)
        case 0x66: return (0x0C, 2)
        case 0x6E: return (0x0A, 2)
        case 0x72: return (0x0D, 2)
        case 0x74: return (0x09, 2)
        default:
            throw error(at: position, "Invalid character escape sequence: \"\(slice(from: position, utf16Units: 2))\".")
        }
    }

    /// `\u{...}`: one to eight hex digits naming a Unicode scalar value.
    private func readVariableWidthUnicodeEscape() throws(GraphQLError) -> (UInt32, Int) {
        var point: Int64 = 0
        var size = 3
        while size < 12 {
            let code = byte(at: position + size)
            size += 1
            if code == 0x7D {  // }
                if size < 5 || !Self.isScalarValue(point) { break }
                return (UInt32(point), size)
            }
            let digit = Self.hexDigit(code)
            // graphql-js accumulates in a signed 32-bit integer and gives up once it turns negative.
            if digit < 0 { break }
            point = (point << 4) | Int64(digit)
            if point > 0x7FFF_FFFF { break }
        }
        throw error(at: position, "Invalid Unicode escape sequence: \"\(slice(from: position, utf16Units: size))\".")
    }

    /// `\uXXXX`, where a leading surrogate must be followed by an escaped trailing one.
    private func readFixedWidthUnicodeEscape() throws(GraphQLError) -> (UInt32, Int) {
        let code = read16BitHexCode(at: position + 2)
        if Self.isScalarValue(Int64(code)) {
            return (UInt32(code), 6)
        }
        if (0xD800...0xDBFF).contains(code), byte(at: position + 6) == 0x5C, byte(at: position + 7) == 0x75 {
            let trailing = read16BitHexCode(at: position + 8)
            if (0xDC00...0xDFFF).contains(trailing) {
                return (UInt32(0x10000 + ((code - 0xD800) << 10) + (trailing - 0xDC00)), 12)
            }
        }
        throw error(at: position, "Invalid Unicode escape sequence: \"\(slice(from: position, utf16Units: 6))\".")
    }

    /// Four hex digits as a number, or -1 when any of them is not a hex digit.
    private func read16BitHexCode(at offset: Int) -> Int {
        var value = 0
        for index in 0..<4 {
            let digit = Self.hexDigit(byte(at: offset + index))
            if digit < 0 { return -1 }
            value = value << 4 | digit
        }
        return value
    }

    /// `"""`-quoted strings: raw lines, `\"""` as the only escape, then the
    /// spec's BlockStringValue algorithm (common indent and blank edge lines removed).
    private mutating func readBlockString() throws(GraphQLError) -> Token {
        let start = position
        let count = bytes.count
        position += 3
        var lines: [Range<Int>] = []
        var lineStart = position
        var hasEscapedQuotes = false
        while position < count {
            let code = bytes[position]
            if code == 0x22, byte(at: position + 1) == 0x22, byte(at: position + 2) == 0x22 {
                lines.append(lineStart..<position)
                position += 3
                stringValue = BlockString.value(of: bytes, lines: lines, unescapingQuotes: hasEscapedQuotes)
                return Token(.blockString, start, position)
            }
            if code == 0x5C, byte(at: position + 1) == 0x22, byte(at: position + 2) == 0x22, byte(at: position + 3) == 0x22 {
                hasEscapedQuotes = true
                position += 4
                continue
            }
            if code == 0x0A || code == 0x0D {
                lines.append(lineStart..<position)
                position += (code == 0x0D && byte(at: position + 1) == 0x0A) ? 2 : 1
                lineStart = position
                continue
            }
            position += 1
        }
        throw error(at: position, "Unterminated string.")
    }

    // MARK: - Describing characters

    /// A character as graphql-js names it in messages: `"a"`, `'"'`, `U+00E9`, or `<EOF>`.
    func describeCodePoint(at offset: Int) -> String {
        guard offset < bytes.count else { return TokenKind.endOfFile.description }
        let (scalar, _) = decodeScalar(at: offset)
        if scalar >= 0x20 && scalar <= 0x7E {
            return scalar == 0x22 ? "'\"'" : "\"\(Character(Unicode.Scalar(UInt8(scalar))))\""
        }
        let hex = String(scalar, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.utf8.count)) + hex
    }

    /// The scalar starting at a byte offset and its length in bytes.
    func decodeScalar(at offset: Int) -> (UInt32, Int) {
        let lead = UInt32(bytes[offset])
        if lead < 0x80 { return (lead, 1) }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        var scalar = lead & (0xFF >> UInt32(length + 1))
        for index in 1..<length {
            scalar = scalar << 6 | (UInt32(byte(at: offset + index)) & 0x3F)
        }
        return (scalar, length)
    }

    /// The text from a byte offset spanning `units` UTF-16 code units, cut at
    /// the end of the source, as JavaScript's `slice` gives it in messages.
    func slice(from offset: Int, utf16Units units: Int) -> String {
        var end = offset
        var taken = 0
        while taken < units, end < bytes.count {
            let (scalar, length) = decodeScalar(at: end)
            taken += scalar > 0xFFFF ? 2 : 1
            end += length
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self)
    }

    // MARK: - Character classes

    @inline(__always) static func isDigit(_ code: UInt8) -> Bool { code &- 0x30 < 10 }

    @inline(__always) static func isNameStart(_ code: UInt8) -> Bool {
        (code | 0x20) &- 0x61 < 26 || code == 0x5F
    }

    @inline(__always) static func isNameContinue(_ code: UInt8) -> Bool {
        (code | 0x20) &- 0x61 < 26 || code &- 0x30 < 10 || code == 0x5F
    }

    static func hexDigit(_ code: UInt8) -> Int {
        switch code {
        case 0x30...0x39: Int(code) - 0x30
        case 0x41...0x46: Int(code) - 0x37
        case 0x61...0x66: Int(code) - 0x57
        default: -1
        }
    }

    static func isScalarValue(_ point: Int64) -> Bool {
        (0...0xD7FF).contains(point) || (0xE000...0x10FFFF).contains(point)
    }

    static func appendUTF8(_ scalar: UInt32, to buffer: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            buffer.append(UInt8(scalar))
        case 0x80..<0x800:
            buffer.append(UInt8(0xC0 | scalar >> 6))
            buffer.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            buffer.append(UInt8(0xE0 | scalar >> 12))
            buffer.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            buffer.append(UInt8(0x80 | scalar & 0x3F))
        default:
            buffer.append(UInt8(0xF0 | scalar >> 18))
            buffer.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            buffer.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            buffer.append(UInt8(0x80 | scalar & 0x3F))
        }
    }
}
