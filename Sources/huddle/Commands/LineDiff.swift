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

    let old: [Substring]
    let new: [Substring]

    init(_ old: String, _ new: String) {
        self.old = old.split(separator: "\n", omittingEmptySubsequences: false)
        self.new = new.split(separator: "\n", omittingEmptySubsequences: false)
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
            while last + 1 < changes.count, changes[last + 1] - changes[last] <= 2 * context { last += 1 }
            let start = max(0, changes[index] - context)
            let end = min(steps.count, changes[last] + context + 1)
            let hunk = steps[start..<end]
            let oldStart = hunk.first.map(oldLine(at:)) ?? 0
            let newStart = hunk.first.map(newLine(at:)) ?? 0
            let oldCount = hunk.filter { if case .added = $0 { false } else { true } }.count
            let newCount = hunk.filter { if case .removed = $0 { false } else { true } }.count
            lines.append("@@ -\(oldStart + 1),\(oldCount) +\(newStart + 1),\(newCount) @@")
            for step in hunk {
                switch step {
                case .same(let line, _): lines.append(" " + old[line])
                case .removed(let line): lines.append("-" + old[line])
                case .added(let line): lines.append("+" + new[line])
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
