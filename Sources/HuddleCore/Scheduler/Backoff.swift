import Foundation

/// Waits between attempts at something that failed: `first` after the first
/// failure, doubling with each further one, never longer than `longest`.
package struct Backoff: Sendable {
    package var first: Duration
    package var longest: Duration

    package init(first: Duration, longest: Duration) {
        self.first = first
        self.longest = longest
    }

    /// The wait after the `attempts`th failed attempt (1 for the first).
    package func wait(after attempts: Int) -> Duration {
        // Past 62 doublings any first wait is longer than any longest.
        let doublings = min(max(attempts - 1, 0), 62)
        let milliseconds = Double(first.milliseconds) * pow(2, Double(doublings))
        return milliseconds >= Double(longest.milliseconds) ? longest : .milliseconds(Int64(milliseconds))
    }

    /// When to try again after the `attempts`th failed attempt, waiting at
    /// least `atLeast` (what the other side asked for).
    package func nextAttempt(after attempts: Int, atLeast: Duration = .zero) -> Date {
        let wait = max(self.wait(after: attempts), atLeast)
        return Date().addingTimeInterval(Double(wait.milliseconds) / 1000)
    }
}
