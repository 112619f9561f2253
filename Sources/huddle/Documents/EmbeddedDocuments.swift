import Foundation

/// GraphQL documents written inside JavaScript, TypeScript and Vue files:
/// templates tagged `gql` or `graphql` (graphql-tag, Apollo, urql), the
/// same names called on a template (`graphql(\`…\`)`, GraphQL Code
/// Generator's client preset), and templates after a `/* GraphQL */`
/// comment.
///
/// This is a scanner, not a JavaScript parser: it knows comments, strings,
/// templates with their `${…}` substitutions and, by the token before them,
/// regular expressions, which is what it takes to not find a tag inside one
/// of them. A quote that reaches the end of its line without closing is
/// taken for text (an apostrophe in JSX), not for a string, so a misreading
/// never runs past one line.
enum EmbeddedDocuments {
    static let extensions: Set<String> = ["js", "jsx", "mjs", "cjs", "ts", "tsx", "mts", "cts", "vue"]

    /// A template's text, substitutions blanked out, and the byte offset in
    /// the host file where it starts (just after the backtick).
    struct Template: Equatable {
        var text: String
        var offset: Int
        /// Whether the template had `${…}` substitutions (fragments spliced
        /// in), which `format --check` cannot compare.
        var hasSubstitutions: Bool
    }

    static func templates(in text: String, vue: Bool) -> [Template] {
        let bytes = Array(text.utf8)
        let ranges = vue ? scriptBlocks(in: bytes) : [0..<bytes.count]
        return ranges.flatMap { range in
            var scanner = Scanner(bytes: bytes, range: range)
            return scanner.templates()
        }
    }

    /// The contents of a single-file component's `<script>` blocks.
    static func scriptBlocks(in bytes: [UInt8]) -> [Range<Int>] {
        var blocks: [Range<Int>] = []
        var position = 0
        while let open = bytes[position...].firstRange(of: "<script".utf8)?.lowerBound {
            let afterName = open + 7
            guard afterName < bytes.count, [0x3E, 0x20, 0x09, 0x0A, 0x0D, 0x2F].contains(bytes[afterName]),
                let close = bytes[afterName...].firstIndex(of: 0x3E)
            else {
                position = afterName
                continue
            }
            let end = bytes[(close + 1)...].firstRange(of: "</script".utf8)?.lowerBound ?? bytes.count
            blocks.append((close + 1)..<end)
            position = end
        }
        return blocks
    }

    private struct Scanner {
        let bytes: [UInt8]
        let range: Range<Int>
        var position: Int
        var found: [Template] = []
        /// What came last, for telling a regular expression from a division
        /// and a tag from a name.
        var previous: Previous = .punctuation
        /// Set by a `/* GraphQL */` comment until the next token.
        var commentTagged = false

        enum Previous: Equatable {
            case punctuation
            case value
            case tag
            case tagCall
        }

        init(bytes: [UInt8], range: Range<Int>) {
            self.bytes = bytes
            self.range = range
            self.position = range.lowerBound
        }

        mutating func templates() -> [Template] {
            code(untilBrace: false)
            return found
        }

        private func byte(_ offset: Int) -> UInt8? {
            offset < range.upperBound ? bytes[offset] : nil
        }

        /// Code, up to the `}` that closes a substitution when `untilBrace`.
        private mutating func code(untilBrace: Bool) {
            var depth = 0
            while let current = byte(position) {
                switch current {
                case 0x20, 0x09, 0x0A, 0x0D:
                    position += 1
                    continue
                case 0x2F:  // "/"
                    if byte(position + 1) == 0x2F {
                        skipLineComment()
                        continue
                    }
                    if byte(position + 1) == 0x2A {
                        skipBlockComment()
                        continue
                    }
                    if previous == .value {
                        position += 1
                        previous = .punctuation
                    } else {
                        skipRegularExpression()
                        previous = .value
                    }
                case 0x27, 0x22:  // ' "
                    skipString(quote: current)
                    previous = .value
                case 0x60:  // `
                    let tagged = previous == .tag || previous == .tagCall || commentTagged
                    let call = previous == .tagCall
                    position += 1
                    template(collect: tagged)
                    previous = .value
                    if call { skipClosingParenthesis() }
                case 0x7B:  // {
                    depth += 1
                    position += 1
                    previous = .punctuation
                case 0x7D:  // }
                    if untilBrace && depth == 0 {
                        position += 1
                        return
                    }
                    depth -= 1
                    position += 1
                    previous = .punctuation
                case 0x29, 0x5D:  // ) ]
                    position += 1
                    previous = .value
                case 0x28 where previous == .tag:  // "(" after gql or graphql
                    position += 1
                    previous = .tagCall
                    commentTagged = false
                    continue
                default:
                    if isIdentifierStart(current) {
                        let start = position
                        while let next = byte(position), isIdentifierPart(next) { position += 1 }
                        let word = bytes[start..<position]
                        previous =
                            word.elementsEqual("gql".utf8) || word.elementsEqual("graphql".utf8)
                            ? .tag : keywordsBeforeExpressions.contains(String(decoding: word, as: UTF8.self)) ? .punctuation : .value
                    } else if isDigit(current) {
                        while let next = byte(position), isIdentifierPart(next) || next == 0x2E { position += 1 }
                        previous = .value
                    } else {
                        position += 1
                        previous = .punctuation
                    }
                }
                commentTagged = false
            }
        }

        /// After the template of `graphql(\`…\`)`, its `)`, so the call
        /// reads as a value.
        private mutating func skipClosingParenthesis() {
            var probe = position
            while let next = byte(probe), [0x20, 0x09, 0x0A, 0x0D].contains(next) { probe += 1 }
            if byte(probe) == 0x29 { position = probe + 1 }
        }

        /// A template's body from just after its backtick; collected, with
        /// its substitutions blanked, when it is tagged.
        private mutating func template(collect: Bool) {
            let start = position
            var text = [UInt8]()
            var substitutions = false
            while let current = byte(position) {
                if current == 0x5C {  // a backslash escapes the next character
                    if collect {
                        text.append(current)
                        if let next = byte(position + 1) { text.append(next) }
                    }
                    position += 2
                    continue
                }
                if current == 0x60 {
                    position += 1
                    if collect {
                        found.append(
                            Template(text: String(decoding: text, as: UTF8.self), offset: start, hasSubstitutions: substitutions))
                    }
                    return
                }
                if current == 0x24 && byte(position + 1) == 0x7B {
                    substitutions = true
                    let substitution = position
                    position += 2
                    let saved = previous
                    previous = .punctuation
                    code(untilBrace: true)
                    previous = saved
                    if collect { text.append(contentsOf: blanked(bytes[substitution..<min(position, range.upperBound)])) }
                    continue
                }
                if collect { text.append(current) }
                position += 1
            }
        }

        /// Spaces for a substitution, its line breaks kept and a space per
        /// UTF-16 unit, so what follows keeps its line and column.
        private func blanked(_ slice: ArraySlice<UInt8>) -> [UInt8] {
            var result: [UInt8] = []
            for scalar in String(decoding: slice, as: UTF8.self).unicodeScalars {
                if scalar == "\n" || scalar == "\r" {
                    result.append(UInt8(scalar.value))
                } else {
                    result.append(contentsOf: repeatElement(0x20, count: scalar.utf16.count))
                }
            }
            return result
        }

        private mutating func skipLineComment() {
            while let current = byte(position), current != 0x0A { position += 1 }
        }

        private mutating func skipBlockComment() {
            let start = position + 2
            position = start
            while let current = byte(position) {
                if current == 0x2A && byte(position + 1) == 0x2F {
                    let body = String(decoding: bytes[start..<position], as: UTF8.self)
                    position += 2
                    commentTagged = body.trimmingCharacters(in: .whitespaces) == "GraphQL"
                    return
                }
                position += 1
            }
        }

        /// A string on one line; a quote left open at the line's end was
        /// text, not a string, and scanning goes on after it.
        private mutating func skipString(quote: UInt8) {
            let start = position
            position += 1
            while let current = byte(position) {
                if current == 0x5C {
                    if byte(position + 1) == 0x0D && byte(position + 2) == 0x0A { position += 1 }
                    position += 2
                    continue
                }
                if current == quote {
                    position += 1
                    return
                }
                if current == 0x0A || current == 0x0D {
                    position = start + 1
                    return
                }
                position += 1
            }
        }

        /// `/…/flags`, a `/` in a character class not ending it; a line break
        /// before the end means it was a division after all.
        private mutating func skipRegularExpression() {
            let start = position
            position += 1
            var inClass = false
            while let current = byte(position) {
                switch current {
                case 0x5C: position += 2
                case 0x5B:
                    inClass = true
                    position += 1
                case 0x5D:
                    inClass = false
                    position += 1
                case 0x2F where !inClass:
                    position += 1
                    while let next = byte(position), isIdentifierPart(next) { position += 1 }
                    return
                case 0x0A, 0x0D:
                    position = start + 1
                    return
                default: position += 1
                }
            }
        }

        private func isIdentifierStart(_ byte: UInt8) -> Bool {
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x5F || byte == 0x24 || byte >= 0x80
        }

        private func isIdentifierPart(_ byte: UInt8) -> Bool { isIdentifierStart(byte) || isDigit(byte) }

        private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    }

    /// Keywords after which a `/` starts a regular expression.
    private static let keywordsBeforeExpressions: Set<String> = [
        "return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield", "await",
    ]
}
