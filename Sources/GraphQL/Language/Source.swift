import Synchronization

/// A GraphQL document's text and the name it is reported under.
///
/// The body is a Swift `String`, so it is always valid UTF-8; the lexer reads
/// its UTF-8 bytes directly. Positions inside a source are byte offsets;
/// `location(at:)` turns one into the line and column graphql-js reports,
/// where columns count UTF-16 code units as JavaScript strings do.
public struct Source: Sendable {
    public let body: String
    public let name: String

    /// Where lines break, found on the first `location(at:)`: a document
    /// with many errors (a fragment cycle names every spread) would
    /// otherwise be scanned from its start once per location.
    private let lineBreaks = LineBreaks()

    public init(body: String, name: String = "GraphQL request") {
        self.body = body
        self.name = name
    }

    /// The 1-based line and column of a byte offset, counting lines the way
    /// graphql-js does (`\r\n`, `\n` and `\r` each end one line; a terminator
    /// that starts before the offset counts whole).
    public func location(at offset: Int) -> SourceLocation {
        var text = body
        return text.withUTF8 { bytes in
            let breaks = lineBreaks.table(for: bytes)
            // The breaks whose terminator starts before the offset.
            var low = 0
            var high = breaks.count
            while low < high {
                let middle = (low + high) / 2
                if breaks[middle].terminator < offset { low = middle + 1 } else { high = middle }
            }
            let line = 1 + low
            let lineStart = low == 0 ? 0 : breaks[low - 1].nextLine
            let column =
                offset >= lineStart
                ? 1 + Source.utf16Length(of: bytes, from: lineStart, to: offset)
                : 1 + offset - lineStart
            return SourceLocation(line: line, column: column)
        }
    }

    /// The number of UTF-16 code units encoded by the bytes in `start..<end`;
    /// offsets past the end of the body (the EOF position) count one each.
    static func utf16Length(of bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        let clampedEnd = min(end, bytes.count)
        var count = max(0, end - max(clampedEnd, start))
        var index = start
        while index < clampedEnd {
            let byte = bytes[index]
            // Count lead bytes only: a 4-byte sequence is a surrogate pair in UTF-16.
            if byte & 0xC0 != 0x80 {
                count += byte >= 0xF0 ? 2 : 1
            }
            index += 1
        }
        return count
    }
}

/// A 1-based line and column, as in GraphQL error `locations`.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}

/// A source's line breaks: where each terminator starts and where the line
/// after it begins. Built once, then shared by copies of the source.
private final class LineBreaks: Sendable {
    typealias Break = (terminator: Int, nextLine: Int)
    private let cache = Mutex<[Break]?>(nil)

    func table(for bytes: UnsafeBufferPointer<UInt8>) -> [Break] {
        cache.withLock { cached in
            if let cached { return cached }
            var breaks: [Break] = []
            var position = 0
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                if byte == 0x0A {
                    breaks.append((position - 1, position))
                } else if byte == 0x0D {
                    let terminator = position - 1
                    if position < bytes.count, bytes[position] == 0x0A { position += 1 }
                    breaks.append((terminator, position))
                }
            }
            cached = breaks
            return breaks
        }
    }
}
