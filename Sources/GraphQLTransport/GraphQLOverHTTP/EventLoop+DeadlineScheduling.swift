import GraphQL
import HuddleRuntime

/// The executor's time budget is kept with the loop's own timers.
extension EventLoop: DeadlineScheduling {}

extension LoopLane: DeadlineScheduling {
    public func schedule(at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        loop.schedule(at: deadline, action)
    }
}
