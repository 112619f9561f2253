/// A place in a text as an editor names it: a 0-based line and a 0-based
/// character within the line, counted in UTF-16 code units (what CodeMirror
/// and the Language Server Protocol count). Lines end at `\r\n`, `\n` or
/// `\r`, as GraphQL's own line terminators do (spec §2.1.2).
public struct TextPosition: Sendable, Hashable {
    public var line: Int
    public var character: Int

    public init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }

    /// The position of a GraphQL error location (1-based line and column).
    public init(_ location: SourceLocation) {
        self.init(line: location.line - 1, character: location.column - 1)
    }

    /// The UTF-8 byte offset of this position in `bytes`; a position past
    /// the end of its line is the line's end, past the last line the text's end.
    func offset(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var index = 0
        var line = 0
        while line < self.line {
            guard index < bytes.count else { return bytes.count }
            let byte = bytes[index]
            index += 1
            if byte == 0x0A {
                line += 1
            } else if byte == 0x0D {
                if index < bytes.count, bytes[index] == 0x0A { index += 1 }
                line += 1
            }
        }
        var units = 0
        while index < bytes.count, units < character {
            let byte = bytes[index]
            if byte == 0x0A || byte == 0x0D { break }
            units += byte >= 0xF0 ? 2 : 1
            index += Self.sequenceLength(startingWith: byte)
        }
        return min(index, bytes.count)
    }

    /// The position of a UTF-8 byte offset in `bytes`.
    init(offset: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        var line = 0
        var lineStart = 0
        var index = 0
        let end = min(offset, bytes.count)
        while index < end {
            let byte = bytes[index]
            index += 1
            if byte == 0x0A {
                line += 1
                lineStart = index
            } else if byte == 0x0D {
                if index < bytes.count, bytes[index] == 0x0A { index += 1 }
                line += 1
                lineStart = index
            }
        }
        self.init(line: line, character: Source.utf16Length(of: bytes, from: lineStart, to: end))
    }

    private static func sequenceLength(startingWith byte: UInt8) -> Int {
        switch byte {
        case 0xF0...: 4
        case 0xE0...: 3
        case 0xC0...: 2
        default: 1
        }
    }
}
