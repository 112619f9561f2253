/// A document's text without its ignored tokens (white space, commas,
/// comments, the byte order mark): the significant tokens as written, a
/// space only where two would otherwise run together. It parses to the
/// same document. Strings and block strings are kept as written (unlike
/// graphql-js's `stripIgnoredCharacters`, which reprints block strings),
/// so their values cannot change.
///
/// For what a server keeps of a client's text: a document sent with a
/// megabyte of comment is kept as its few significant bytes.
public func compactDocument(_ text: String) throws(GraphQLError) -> String {
    let source = Source(body: text)
    var body = text
    let compacted: Result<String, GraphQLError> = body.withUTF8 { bytes in
        Result { () throws(GraphQLError) in try compact(bytes, source) }
    }
    return try compacted.get()
}

private func compact(_ bytes: UnsafeBufferPointer<UInt8>, _ source: Source) throws(GraphQLError) -> String {
    var lexer = Lexer(bytes: bytes, source: source)
    var compact: [UInt8] = []
    compact.reserveCapacity(min(bytes.count, 1 << 16))
    var lastWasWord = false
    while true {
        let token = try lexer.next()
        if token.kind == .endOfFile { break }
        // Names and numbers run together without a space; so would a
        // word and the spread after it ("a..." reads as "a" "...").
        let isWord = token.kind == .name || token.kind == .int || token.kind == .float
        if lastWasWord && (isWord || token.kind == .spread) { compact.append(0x20) }
        compact.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[token.start..<token.end]))
        lastWasWord = isWord
    }
    return String(decoding: compact, as: UTF8.self)
}
