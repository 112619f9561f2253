/// Block strings (spec §2.9.5): cooking raw lines into a value, and printing
/// a value back as a block string the way graphql-js 16 does.
enum BlockString {
    /// BlockStringValue(rawValue): remove the common indentation of every
    /// line but the first, drop leading and trailing blank lines, join with `\n`.
    /// The lines are ranges of `bytes`; with `unescapingQuotes`, each `\"""`
    /// in them stands for `"""` (escapes never touch a line's leading
    /// white space, so the indentation is measured on the raw line).
    static func value(of bytes: UnsafeBufferPointer<UInt8>, lines: [Range<Int>], unescapingQuotes: Bool) -> String {
        var commonIndent = Int.max
        var firstNonEmptyLine: Int? = nil
        var lastNonEmptyLine = -1
        for (index, line) in lines.enumerated() {
            let indent = leadingWhitespace(bytes, line)
            if indent == line.count { continue }
            if firstNonEmptyLine == nil { firstNonEmptyLine = index }
            lastNonEmptyLine = index
            if index != 0 && indent < commonIndent {
                commonIndent = indent
            }
        }
        guard let first = firstNonEmptyLine else { return "" }
        var capacity = 0
        for index in first...lastNonEmptyLine { capacity += lines[index].count + 1 }
        return String(unsafeUninitializedCapacity: capacity) { result in
            var count = 0
            func append(_ range: Range<Int>) {
                guard !range.isEmpty else { return }
                UnsafeMutableRawPointer(result.baseAddress! + count)
                    .copyMemory(from: bytes.baseAddress! + range.lowerBound, byteCount: range.count)
                count += range.count
            }
            for index in first...lastNonEmptyLine {
                if index != first {
                    result[count] = 0x0A
                    count += 1
                }
                var line = lines[index]
                // A line no longer than the indentation is blank: it keeps nothing.
                if index != 0 {
                    guard line.count > commonIndent else { continue }
                    line = (line.lowerBound + commonIndent)..<line.upperBound
                }
                guard unescapingQuotes else {
                    append(line)
                    continue
                }
                var chunkStart = line.lowerBound
                var position = line.lowerBound
                while position + 3 < line.upperBound {
                    if bytes[position] == 0x5C, bytes[position + 1] == 0x22, bytes[position + 2] == 0x22, bytes[position + 3] == 0x22 {
                        append(chunkStart..<position)
                        chunkStart = position + 1  // keep the quotes, drop the backslash
                        position += 4
                    } else {
                        position += 1
                    }
                }
                append(chunkStart..<line.upperBound)
            }
            return count
        }
    }

    private static func leadingWhitespace(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> Int {
        var index = line.lowerBound
        while index < line.upperBound, bytes[index] == 0x20 || bytes[index] == 0x09 {
            index += 1
        }
        return index - line.lowerBound
    }

    /// printBlockString: the value between `"""` quotes, adding a leading and
    /// trailing line break when that keeps the value readable and unchanged.
    static func print(_ value: String) -> String {
        let escaped = escapeTripleQuotes(value)
        let lines = splitLines(escaped)
        let isSingleLine = lines.count == 1
        let forceLeadingNewLine =
            lines.count > 1
            && lines.dropFirst().allSatisfy { $0.isEmpty || $0.utf8.first == 0x20 || $0.utf8.first == 0x09 }
        let hasTrailingTripleQuotes = escaped.utf8.reversed().starts(with: "\"\"\"\\".utf8)
        let hasTrailingQuote = value.utf8.last == 0x22 && !hasTrailingTripleQuotes
        let hasTrailingSlash = value.utf8.last == 0x5C
        let forceTrailingNewLine = hasTrailingQuote || hasTrailingSlash
        let printAsMultipleLines =
            !isSingleLine
            || value.utf16.count > 70
            || forceTrailingNewLine
            || forceLeadingNewLine
            || hasTrailingTripleQuotes
        var result = ""
        let skipLeadingNewLine = isSingleLine && (value.utf8.first == 0x20 || value.utf8.first == 0x09)
        if (printAsMultipleLines && !skipLeadingNewLine) || forceLeadingNewLine {
            result += "\n"
        }
        result += escaped
        if printAsMultipleLines || forceTrailingNewLine {
            result += "\n"
        }
        return "\"\"\"" + result + "\"\"\""
    }

    /// Puts a backslash before every `"""`, scanning bytes so that combining
    /// characters after the quotes cannot hide them.
    private static func escapeTripleQuotes(_ value: String) -> String {
        var utf8 = Array(value.utf8)
        var index = 0
        var found = false
        while index + 2 < utf8.count {
            if utf8[index] == 0x22, utf8[index + 1] == 0x22, utf8[index + 2] == 0x22 {
                utf8.insert(0x5C, at: index)
                index += 4
                found = true
            } else {
                index += 1
            }
        }
        return found ? String(decoding: utf8, as: UTF8.self) : value
    }

    /// Splits on `\r\n`, `\n` and `\r`.
    private static func splitLines(_ text: String) -> [Substring] {
        var lines: [Substring] = []
        var lineStart = text.startIndex
        var index = text.startIndex
        // Iterating Characters would fuse "\r\n" into one; scalars keep them apart.
        let scalars = text.unicodeScalars
        while index != text.endIndex {
            let scalar = scalars[index]
            if scalar == "\n" || scalar == "\r" {
                lines.append(text[lineStart..<index])
                var next = scalars.index(after: index)
                if scalar == "\r", next != text.endIndex, scalars[next] == "\n" {
                    next = scalars.index(after: next)
                }
                index = next
                lineStart = next
            } else {
                index = scalars.index(after: index)
            }
        }
        lines.append(text[lineStart..<text.endIndex])
        return lines
    }
}

extension BlockString {
    /// Whether a value survives being printed as a block string: no control
    /// characters or `\r`, no leading or trailing blank line, and no common
    /// indentation that BlockStringValue would strip.
    static func isPrintable(_ value: String) -> Bool {
        if value.isEmpty { return true }
        var isEmptyLine = true
        var hasIndent = false
        var hasCommonIndent = true
        var seenNonEmptyLine = false
        for unit in value.utf16 {
            switch unit {
            case 0x00...0x08, 0x0B, 0x0C, 0x0E, 0x0F:
                return false
            case 0x0D:
                return false
            case 0x0A:
                if isEmptyLine && !seenNonEmptyLine { return false }
                seenNonEmptyLine = true
                isEmptyLine = true
                hasIndent = false
            case 0x09, 0x20:
                hasIndent = hasIndent || isEmptyLine
            default:
                hasCommonIndent = hasCommonIndent && hasIndent
                isEmptyLine = false
            }
        }
        if isEmptyLine { return false }
        if hasCommonIndent && seenNonEmptyLine { return false }
        return true
    }
}
