/// Prints a document in canonical form (`Printer`) with the comments of its
/// source kept: a formatter must never lose what a developer wrote.
///
/// Comments are not part of the syntax tree, so they are woven back into the
/// printed text by its tokens, which are the source's own in the same
/// order (the printer changes only what lies between them, and drops
/// `query` before an anonymous selection set): a comment on a line of its
/// own goes on a line of its own before the printed line holding the token
/// that followed it, indented as that line; a comment after a token on the
/// same line goes at the end of the printed line holding that token. A spot
/// inside a multi-line token (a block string) moves to the end of the line
/// where that token ends. The result parses to the same document, and
/// printing it again gives it back.
public func printKeepingComments(_ source: Source) throws(GraphQLError) -> String {
    let document = try parse(source, options: .trusted)
    let printed = Printer.print(document) + "\n"
    let original = try CommentedTokens(source.body)
    guard !original.comments.isEmpty else { return printed }
    let canonical = try CommentedTokens(printed)
    let mapping = original.alignment(with: canonical)
    var weaving = CommentWeaving(printed, tokens: canonical.tokens)
    for comment in original.comments {
        if comment.isTrailing, let previous = mapping.previousToken(before: comment.nextToken) {
            weaving.append(comment.text, afterLineOf: previous)
        } else if let next = mapping.nextToken(from: comment.nextToken) {
            weaving.insert(comment.text, beforeLineOf: next)
        } else {
            weaving.appendAtEnd(comment.text)
        }
    }
    return weaving.text
}

/// A text's significant tokens (with cooked values for strings, which the
/// printer may quote another way) and its comments, each with the index of
/// the token after it.
private struct CommentedTokens {
    struct Lexed {
        let kind: TokenKind
        let start: Int
        let end: Int
        /// The text of a name, number or punctuator; a string's cooked value.
        let value: String

        func matches(_ other: Lexed) -> Bool {
            let isString = kind == .string || kind == .blockString
            let otherIsString = other.kind == .string || other.kind == .blockString
            return (kind == other.kind || (isString && otherIsString)) && value == other.value
        }
    }

    struct Comment {
        /// From `#` to the end of its line, trailing white space left out.
        let text: String
        /// The index of the token after it (the count of tokens after the last).
        let nextToken: Int
        /// Whether a token came before it on its line.
        let isTrailing: Bool
    }

    var tokens: [Lexed] = []
    var comments: [Comment] = []

    init(_ text: String) throws(GraphQLError) {
        var body = text
        let source = Source(body: text)
        let lexed: Result<([Lexed], [Comment]), GraphQLError> = body.withUTF8 { bytes in
            Result { () throws(GraphQLError) in
                var lexer = Lexer(bytes: bytes, source: source)
                var tokens: [Lexed] = []
                var comments: [Comment] = []
                var previousEnd = 0
                while true {
                    let token = try lexer.next()
                    Self.scanComments(
                        bytes, from: previousEnd, to: token.start, hasToken: !tokens.isEmpty, next: tokens.count, into: &comments)
                    if token.kind == .endOfFile { break }
                    let value =
                        token.kind == .string || token.kind == .blockString
                        ? lexer.stringValue : String(decoding: UnsafeBufferPointer(rebasing: bytes[token.start..<token.end]), as: UTF8.self)
                    tokens.append(Lexed(kind: token.kind, start: token.start, end: token.end, value: value))
                    previousEnd = token.end
                }
                return (tokens, comments)
            }
        }
        (tokens, comments) = try lexed.get()
    }

    /// The comments between two tokens: only ignored characters lie there,
    /// so every `#` starts one.
    private static func scanComments(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, hasToken: Bool, next: Int, into comments: inout [Comment]
    ) {
        var position = start
        var onTokenLine = hasToken
        while position < end {
            switch bytes[position] {
            case 0x0A, 0x0D:
                onTokenLine = false
                position += 1
            case 0x23:
                var stop = position
                while stop < end, bytes[stop] != 0x0A, bytes[stop] != 0x0D { stop += 1 }
                var last = stop
                while last > position, bytes[last - 1] == 0x20 || bytes[last - 1] == 0x09 { last -= 1 }
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<last]), as: UTF8.self)
                comments.append(Comment(text: text, nextToken: next, isTrailing: onTokenLine))
                position = stop
            default:
                position += 1
            }
        }
    }

    /// Which of `other`'s tokens each of these is: equal runs matched in
    /// order, a token the printer dropped (or added) skipped.
    func alignment(with other: CommentedTokens) -> TokenAlignment {
        var map = [Int?](repeating: nil, count: tokens.count)
        var (i, j) = (0, 0)
        while i < tokens.count, j < other.tokens.count {
            if tokens[i].matches(other.tokens[j]) {
                map[i] = j
                i += 1
                j += 1
                continue
            }
            // The nearest resumption: skip a few of ours, or a few of theirs.
            var resumed = false
            for skip in 1...8 {
                if i + skip < tokens.count, tokens[i + skip].matches(other.tokens[j]) {
                    i += skip
                    resumed = true
                    break
                }
                if j + skip < other.tokens.count, tokens[i].matches(other.tokens[j + skip]) {
                    j += skip
                    resumed = true
                    break
                }
            }
            if !resumed { i += 1 }
        }
        return TokenAlignment(map: map)
    }
}

/// Source token index to printed token index.
private struct TokenAlignment {
    let map: [Int?]

    /// The printed token of the source token at `index` or the first after it that was printed.
    func nextToken(from index: Int) -> Int? {
        var index = index
        while index < map.count {
            if let printed = map[index] { return printed }
            index += 1
        }
        return nil
    }

    /// The printed token of the last source token before `index` that was printed.
    func previousToken(before index: Int) -> Int? {
        var index = index - 1
        while index >= 0 {
            if let printed = map[index] { return printed }
            index -= 1
        }
        return nil
    }
}

/// The printed text with comments added at lines: insertions are kept by
/// line and put in at the end, so that offsets stay the printed text's.
private struct CommentWeaving {
    private let bytes: [UInt8]
    private let tokens: [CommentedTokens.Lexed]
    /// The offset each line starts at.
    private let lineStarts: [Int]
    /// For each line, the multi-line token whose inside its start is (a
    /// block string's later lines), made once: looking it up per comment
    /// made formatting quadratic in comments.
    private let spanning: [Int?]
    private var before: [Int: [String]] = [:]
    private var trailing: [Int: String] = [:]
    private var atEnd: [String] = []

    init(_ printed: String, tokens: [CommentedTokens.Lexed]) {
        bytes = Array(printed.utf8)
        self.tokens = tokens
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == 0x0A && offset + 1 < bytes.count { starts.append(offset + 1) }
        lineStarts = starts
        var spanning = [Int?](repeating: nil, count: starts.count)
        var line = 0
        for (index, token) in tokens.enumerated() where bytes[token.start..<token.end].contains(0x0A) {
            while line < starts.count, starts[line] <= token.start { line += 1 }
            var inside = line
            while inside < starts.count, starts[inside] < token.end {
                spanning[inside] = index
                inside += 1
            }
        }
        self.spanning = spanning
    }

    private func line(of offset: Int) -> Int {
        var (low, high) = (0, lineStarts.count - 1)
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The token that spans the start of `line` (a block string's later lines), if any.
    private func tokenSpanningStart(of line: Int) -> Int? { spanning[line] }

    /// The first token that starts at or after `offset`, by binary search (tokens are in order).
    private func firstToken(startingAtOrAfter offset: Int) -> Int? {
        var (low, high) = (0, tokens.count)
        while low < high {
            let middle = (low + high) / 2
            if tokens[middle].start < offset { low = middle + 1 } else { high = middle }
        }
        return low < tokens.count ? low : nil
    }

    /// The line a comment may end: the line of `line`'s end, or, when a
    /// multi-line token begins there, the line where that token ends.
    private func safeEnd(of line: Int) -> Int {
        var line = line
        while line + 1 < lineStarts.count, let spanning = tokenSpanningStart(of: line + 1) {
            line = self.line(of: tokens[spanning].end - 1)
        }
        return line
    }

    mutating func append(_ comment: String, afterLineOf token: Int) {
        let line = safeEnd(of: self.line(of: tokens[token].end - 1))
        if trailing[line] == nil {
            trailing[line] = comment
        } else {
            // One comment ends a line: the next goes where formatting again
            // would put it, before the next token's line.
            insertAfter(comment, line: line)
        }
    }

    mutating func insert(_ comment: String, beforeLineOf token: Int) {
        let line = line(of: tokens[token].start)
        if let spanning = tokenSpanningStart(of: line) {
            // Inside a block string: before the first token after the line it ends on.
            insertAfter(comment, line: safeEnd(of: self.line(of: tokens[spanning].end - 1)))
        } else if trailing[line] != nil {
            // An earlier comment already ends this line: this one comes after it.
            insertAfter(comment, line: line)
        } else {
            before[line, default: []].append(comment)
        }
    }

    /// Before the line of the first token that starts after `line`.
    private mutating func insertAfter(_ comment: String, line: Int) {
        let end = line + 1 < lineStarts.count ? lineStarts[line + 1] : bytes.count
        if let next = firstToken(startingAtOrAfter: end) {
            insert(comment, beforeLineOf: next)
        } else {
            atEnd.append(comment)
        }
    }

    mutating func appendAtEnd(_ comment: String) {
        atEnd.append(comment)
    }

    var text: String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 256)
        for line in 0..<lineStarts.count {
            let start = lineStarts[line]
            let end = line + 1 < lineStarts.count ? lineStarts[line + 1] - 1 : (bytes.last == 0x0A ? bytes.count - 1 : bytes.count)
            var indentation = Array(bytes[start..<end].prefix { $0 == 0x20 })
            // Before a closing bracket, a comment belongs to what it closes.
            if let first = bytes[start..<end].first(where: { $0 != 0x20 }), first == 0x7D || first == 0x29 || first == 0x5D {
                indentation += [0x20, 0x20]
            }
            for comment in before[line] ?? [] {
                out.append(contentsOf: indentation)
                out.append(contentsOf: comment.utf8)
                out.append(0x0A)
            }
            out.append(contentsOf: bytes[start..<end])
            if let comment = trailing[line] {
                out.append(0x20)
                out.append(contentsOf: comment.utf8)
            }
            out.append(0x0A)
        }
        for comment in atEnd {
            out.append(contentsOf: comment.utf8)
            out.append(0x0A)
        }
        return String(decoding: out, as: UTF8.self)
    }
}
