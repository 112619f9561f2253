/// An embedded document as its template lays it out, for comparing with
/// the canonical form: a template indents its document with the code around
/// it and usually opens and closes on lines of its own, so the blank first
/// and last lines and the common indentation are not part of the document.
struct EmbeddedLayout {
    /// The document's lines, without the common indentation.
    var lines: [Substring]
    /// The template line (1-based) the first of `lines` comes from.
    var firstLine: Int
    /// The columns of indentation taken from each line.
    var indentation: Int

    init(_ template: String) {
        var all = template.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.last == "\r" ? line.dropLast() : line
        }
        var first = 1
        while let head = all.first, Self.isBlank(head), all.count > 1 {
            all.removeFirst()
            first += 1
        }
        while let tail = all.last, Self.isBlank(tail), all.count > 1 { all.removeLast() }
        let indentation =
            all.filter { !Self.isBlank($0) }.map { line in line.prefix { $0 == " " || $0 == "\t" }.count }.min() ?? 0
        lines = all.map { Self.isBlank($0) ? $0.prefix(0) : $0.dropFirst(indentation) }
        firstLine = first
        self.indentation = indentation
    }

    /// Whether the document is laid out as `canonical` (print()'s text and a
    /// final newline). Blank lines are ignored when the template had
    /// substitutions, whose lines are blank once taken out.
    func matches(_ canonical: String, ignoringBlankLines: Bool) -> Bool {
        var expected = canonical.split(separator: "\n", omittingEmptySubsequences: false)
        if expected.last == "" { expected.removeLast() }
        var actual = lines
        if ignoringBlankLines {
            expected.removeAll(where: \.isEmpty)
            actual.removeAll(where: \.isEmpty)
        }
        return actual == expected
    }

    private static func isBlank(_ line: Substring) -> Bool { line.allSatisfy { $0 == " " || $0 == "\t" } }
}
