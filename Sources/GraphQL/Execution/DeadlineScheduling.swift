/// An executor that calls back at a deadline itself, more cheaply than a
/// sleeping task can: a server's event loop, with its own timers. The
/// executor races each round of waiting work against the time budget; with
/// thousands of rounds a second, a sleeping task per round (a timer of the
/// global executor's, firing seconds after it was cancelled) cost a tenth
/// of a server's throughput and most of its tail latency.
public protocol DeadlineScheduling: TaskExecutor {
    /// Calls `action` once `deadline` comes, unless the returned cancel is
    /// called first. Both may be called from any thread.
    func schedule(at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) -> @Sendable () -> Void
}
