/// A Prometheus histogram's state: counts per bucket, their sum and count.
/// A value; the owner keeps it where its writes need no lock (a loop's
/// shard, a pool on its loop) and /metrics adds the copies up.
public struct Histogram: Sendable {
    /// The buckets' upper bounds, ascending (`+Inf` is implied).
    public let bounds: [Double]
    /// Values in each bucket alone (not cumulative), the last past every bound.
    public private(set) var counts: [Int]
    public private(set) var sum = 0.0

    public var count: Int { counts.reduce(0, +) }

    public init(bounds: [Double]) {
        self.bounds = bounds
        counts = [Int](repeating: 0, count: bounds.count + 1)
    }

    public mutating func record(_ value: Double) {
        var index = 0
        while index < bounds.count && value > bounds[index] { index += 1 }
        counts[index] += 1
        sum += value
    }

    public mutating func add(_ other: Histogram) {
        guard other.bounds == bounds else { return }
        for index in counts.indices { counts[index] += other.counts[index] }
        sum += other.sum
    }

    /// `name` as a family of its own, one series: HELP, TYPE and its lines.
    public func family(_ name: String, help: String) -> String {
        "# HELP \(name) \(help)\n# TYPE \(name) histogram\n" + lines(name)
    }

    /// The `_bucket`, `_sum` and `_count` lines of `name`, each with
    /// `labels` (`key="value",…`, or empty) before `le`.
    public func lines(_ name: String, labels: String = "") -> String {
        let prefix = labels.isEmpty ? "" : labels + ","
        var text = ""
        var cumulative = 0
        for (index, bound) in bounds.enumerated() {
            cumulative += counts[index]
            text += "\(name)_bucket{\(prefix)le=\"\(bound)\"} \(cumulative)\n"
        }
        cumulative += counts[bounds.count]
        text += "\(name)_bucket{\(prefix)le=\"+Inf\"} \(cumulative)\n"
        let braces = labels.isEmpty ? "" : "{\(labels)}"
        text += "\(name)_sum\(braces) \(sum)\n"
        text += "\(name)_count\(braces) \(cumulative)\n"
        return text
    }
}
