/// Block strings (spec §2.9.5): cooking raw lines into a value, and printing
/// a value back as a block string the way graphql-js 16 does.
enum BlockString {
    /// BlockStringValue(rawValue): remove the common indentation of every
    /// line but the first, drop leading and trailing blank lines, join with `\n`.
    static func value<Line: RandomAccessCollection<UInt8>>(ofLines lines: [Line]) -> String where Line.Index == Int {
        var commonIndent = Int.max
        var firstNonEmptyLine: Int? = nil
        var lastNonEmptyLine = -1
        for (index, line) in lines.enumerated() {
            let indent = leadingWhitespace(line)
            if indent == line.count { continue }
            if firstNonEmptyLine == nil { firstNonEmptyLine = index }
            lastNonEmptyLine = index
            if index != 0 && indent < commonIndent {
                commonIndent = indent
            }
        }
        guard let first = firstNonEmptyLine else { return "" }
        var result: [UInt8] = []
        result.reserveCapacity(lines[first...lastNonEmptyLine].reduce(0) { $0 + $1.count + 1 })
        for index in first...lastNonEmptyLine {
            if index != first { result.append(0x0A) }
            let line = lines[index]
            if index == 0 {
                result.append(contentsOf: line)
            } else if line.count > commonIndent {
                result.append(contentsOf: line[(line.startIndex + commonIndent)...])
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    private static func leadingWhitespace<Line: RandomAccessCollection<UInt8>>(_ line: Line) -> Int where Line.Index == Int {
        var index = line.startIndex
        while index < line.endIndex, line[index] == 0x20 || line[index] == 0x09 {
            index += 1
        }
        return index - line.startIndex
    }

    /// printBlockString: the value between `"""` quotes, adding a leading and
    /// trailing line break when that keeps the value readable and unchanged.
    static func print(_ value: String) -> String {
        let escaped = escapeTripleQuotes(value)
        let lines = splitLines(escaped)
        let isSingleLine = lines.count == 1
        let forceLeadingNewLine = lines.count > 1
            && lines.dropFirst().allSatisfy { $0.isEmpty || $0.utf8.first == 0x20 || $0.utf8.first == 0x09 }
        let hasTrailingTripleQuotes = escaped.utf8.reversed().starts(with: "\"\"\"\\".utf8)
        let hasTrailingQuote = value.utf8.last == 0x22 && !hasTrailingTripleQuotes
        let hasTrailingSlash = value.utf8.last == 0x5C
        let forceTrailingNewLine = hasTrailingQuote || hasTrailingSlash
        let printAsMultipleLines = !isSingleLine
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
