/// A unified diff of two texts by line (as `diff -u` prints one), for
/// `format --check` to show what formatting would change.
struct LineDiff {
    /// The most line pairs compared (the table grows with their product).
    static let maxComparisons = 16_000_000

    private enum Step: Equatable {
        case same(Int, Int)
        case removed(Int)
        case added(Int)
    }

    let old: [String]
    let new: [String]
    /// Whether each text ends without a line feed (`diff -u`'s "\ No newline at end of file").
    let oldLacksFinalNewline: Bool
    let newLacksFinalNewline: Bool

    init(_ old: String, _ new: String) {
        (self.old, oldLacksFinalNewline) = Self.lines(of: old)
        (self.new, newLacksFinalNewline) = Self.lines(of: new)
    }

    /// The lines by line feed, read as bytes (Swift takes "\r\n" for one
    /// character, which a split at "\n" never splits), a carriage return
    /// kept with its line; no empty line after a final line feed.
    private static func lines(of text: String) -> ([String], lacksFinalNewline: Bool) {
        let bytes = Array(text.utf8)
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        let endsWithNewline = bytes.last == 0x0A
        if endsWithNewline { lines.removeLast() }
        return (lines, !bytes.isEmpty && !endsWithNewline)
    }

    /// The hunks with `context` unchanged lines around each change, under
    /// `---`/`+++` headers; nil when the texts are too long to compare.
    func unified(from oldName: String, to newName: String, context: Int = 3) -> String? {
        guard let steps = steps() else { return nil }
        var lines = ["--- \(oldName)", "+++ \(newName)"]
        let changes = steps.indices.filter { if case .same = steps[$0] { false } else { true } }
        var index = 0
        while index < changes.count {
            // A hunk: changes whose gaps are at most twice the context.
            var last = index
            while last + 1 < changes.count, changes[last + 1] - changes[last] - 1 <= 2 * context { last += 1 }
            let start = max(0, changes[index] - context)
            let end = min(steps.count, changes[last] + context + 1)
            let hunk = steps[start..<end]
            let oldStart = hunk.first.map(oldLine(at:)) ?? 0
            let newStart = hunk.first.map(newLine(at:)) ?? 0
            let oldCount = hunk.filter { if case .added = $0 { false } else { true } }.count
            let newCount = hunk.filter { if case .removed = $0 { false } else { true } }.count
            // As diff -u writes a range: a count of one left out, an empty one after the line before.
            func range(_ start: Int, _ count: Int) -> String {
                count == 1 ? "\(start + 1)" : count == 0 ? "\(start),0" : "\(start + 1),\(count)"
            }
            lines.append("@@ -\(range(oldStart, oldCount)) +\(range(newStart, newCount)) @@")
            let noNewline = "\\ No newline at end of file"
            for step in hunk {
                switch step {
                case .same(let line, let other):
                    lines.append(" " + old[line])
                    if line == old.count - 1 && oldLacksFinalNewline || other == new.count - 1 && newLacksFinalNewline {
                        lines.append(noNewline)
                    }
                case .removed(let line):
                    lines.append("-" + old[line])
                    if line == old.count - 1 && oldLacksFinalNewline { lines.append(noNewline) }
                case .added(let line):
                    lines.append("+" + new[line])
                    if line == new.count - 1 && newLacksFinalNewline { lines.append(noNewline) }
                }
            }
            index = last + 1
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func oldLine(at step: Step) -> Int {
        switch step {
        case .same(let line, _), .removed(let line): line
        case .added: 0
        }
    }

    private func newLine(at step: Step) -> Int {
        switch step {
        case .same(_, let line), .added(let line): line
        case .removed: 0
        }
    }

    /// The edit script by longest common subsequence, removals before additions.
    private func steps() -> [Step]? {
        let (n, m) = (old.count, new.count)
        guard n * m <= Self.maxComparisons else { return nil }
        // lengths[i][j]: the common subsequence of old[i...] and new[j...].
        var lengths = [Int32](repeating: 0, count: (n + 1) * (m + 1))
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                lengths[i * (m + 1) + j] =
                    old[i] == new[j]
                    ? lengths[(i + 1) * (m + 1) + j + 1] + 1
                    : max(lengths[(i + 1) * (m + 1) + j], lengths[i * (m + 1) + j + 1])
            }
        }
        var steps: [Step] = []
        var (i, j) = (0, 0)
        while i < n || j < m {
            if i < n, j < m, old[i] == new[j] {
                steps.append(.same(i, j))
                i += 1
                j += 1
            } else if j == m || (i < n && lengths[(i + 1) * (m + 1) + j] >= lengths[i * (m + 1) + j + 1]) {
                steps.append(.removed(i))
                i += 1
            } else {
                steps.append(.added(j))
                j += 1
            }
        }
        return steps
    }
}
