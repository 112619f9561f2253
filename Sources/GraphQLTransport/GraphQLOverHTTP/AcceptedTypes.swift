/// What a request's Accept header (RFC 9110 §12.5.1) asks of a GraphQL
/// response, read in one pass over its bytes: the response type it
/// negotiates, and whether it takes incremental results as
/// `multipart/mixed` or asks for an event stream. Every GraphQL client
/// sends the header; splitting it into strings, lowering and trimming
/// each, three times over, cost a request more than executing it.
///
/// Media types and parameter names are compared in ASCII without case,
/// as the header's grammar has them.
struct AcceptedTypes: Equatable {
    /// The most preferred type the client accepts (by q-value, ties to
    /// graphql-response+json), application/json without an Accept header
    /// or for a wildcard, nil when it accepts neither.
    var response: ResponseMediaType?
    /// Incremental results as `multipart/mixed` (whatever its parameters:
    /// `deferSpec`, `incrementalSpec`), not with `q=0`.
    var multipart = false
    /// An event stream (`text/event-stream`), not with `q=0`.
    var eventStream = false

    init(accept: String?) {
        // No Accept, and `*/*`, get application/json: the spec's SHOULD for
        // the legacy clients that send them.
        guard var accept else {
            response = .json
            return
        }
        self = accept.withUTF8 { Self(bytes: $0) }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        if bytes.allSatisfy(Slice.isSpace) { response = .json }
        var best: (type: ResponseMediaType, quality: Double)?
        func consider(_ type: ResponseMediaType, _ quality: Double) {
            guard quality > 0 else { return }
            if let current = best, current.quality > quality || (current.quality == quality && current.type == .graphQLResponseJSON) {
                return
            }
            best = (type, quality)
        }
        Self.forEachPiece(of: bytes[...], separatedBy: UInt8(ascii: ",")) { range in
            var mediaType: Slice<UnsafeBufferPointer<UInt8>>?
            // The q-value as negotiation reads it (the last `q` parameter, 0
            // when it is not a number), and as the incremental types read it
            // (the first parameter starting `q=`, 1 when it is not a number).
            var quality = 1.0
            var leadingQuality: Double?
            var charsetAcceptable = true
            Self.forEachPiece(of: range, separatedBy: UInt8(ascii: ";")) { piece in
                let parameter = piece.trimmingSpaces()
                guard mediaType != nil else {
                    mediaType = parameter
                    return
                }
                if leadingQuality == nil, parameter.count >= 2, parameter.first! | 0x20 == UInt8(ascii: "q"),
                    parameter[parameter.startIndex + 1] == UInt8(ascii: "=")
                {
                    leadingQuality = Self.number(parameter.dropFirst(2)) ?? 1
                }
                guard let (name, value) = Self.pair(parameter) else { return }
                if name.equalsIgnoringASCIICase("q") { quality = Self.number(value) ?? 0 }
                if name.equalsIgnoringASCIICase("charset") {
                    charsetAcceptable = value.equalsIgnoringASCIICase("utf-8") || value.equalsIgnoringASCIICase("\"utf-8\"")
                }
            }
            guard let mediaType else { return }
            if mediaType.equalsIgnoringASCIICase("multipart/mixed"), leadingQuality ?? 1 > 0 { multipart = true }
            if mediaType.equalsIgnoringASCIICase("text/event-stream"), leadingQuality ?? 1 > 0 { eventStream = true }
            guard charsetAcceptable else { return }
            if mediaType.equalsIgnoringASCIICase("application/graphql-response+json") {
                consider(.graphQLResponseJSON, quality)
            } else if mediaType.equalsIgnoringASCIICase("application/json") || mediaType.equalsIgnoringASCIICase("application/*")
                || mediaType.equalsIgnoringASCIICase("*/*")
            {
                consider(.json, quality)
            } else if mediaType.equalsIgnoringASCIICase("multipart/mixed") {
                // A client reading incremental results takes a result that
                // is not incremental as JSON.
                consider(.json, quality / 2)
            }
        }
        if response == nil { response = best?.type }
    }

    /// Calls `body` with each piece of `bytes` between separators, empty
    /// pieces left out (as `split` leaves them out).
    private static func forEachPiece(
        of bytes: Slice<UnsafeBufferPointer<UInt8>>, separatedBy separator: UInt8,
        _ body: (Slice<UnsafeBufferPointer<UInt8>>) -> Void
    ) {
        var start = bytes.startIndex
        for index in bytes.indices where bytes[index] == separator {
            if index > start { body(bytes[start..<index]) }
            start = index + 1
        }
        if start < bytes.endIndex { body(bytes[start..<bytes.endIndex]) }
    }

    /// `name=value`, each trimmed: split at the first `=` after any leading
    /// ones, nil when either side is empty (as splitting it once would give
    /// one piece).
    private static func pair(
        _ parameter: Slice<UnsafeBufferPointer<UInt8>>
    ) -> (Slice<UnsafeBufferPointer<UInt8>>, Slice<UnsafeBufferPointer<UInt8>>)? {
        let rest = parameter.drop { $0 == UInt8(ascii: "=") }
        guard let equals = rest.firstIndex(of: UInt8(ascii: "=")), equals + 1 < rest.endIndex else { return nil }
        return (rest[rest.startIndex..<equals].trimmingSpaces(), rest[(equals + 1)...].trimmingSpaces())
    }

    /// A q-value's number, as `Double` reads its text lowered.
    private static func number(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Double? {
        Double(String(decoding: bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self))
    }
}
