import GraphQL

/// The executor's time budget is kept with the loop's own timers.
extension EventLoop: DeadlineScheduling {}
