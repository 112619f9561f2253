import HuddleRuntime

/// The tasks a GraphQL WebSocket session runs on its loop, whichever
/// protocol it speaks: its operations by id, and its timers. All of them
/// stop when the session ends. Used on the loop only (asserted at each
/// entry), which is what makes it Sendable.
final class SessionTasks: @unchecked Sendable {
    private let loop: EventLoop
    private let metrics: Metrics?
    private var operations: [String: Task<Void, Never>] = [:]
    private var timers: [Task<Void, Never>] = []
    private(set) var isStopped = false

    init(loop: EventLoop, metrics: Metrics?) {
        self.loop = loop
        self.metrics = metrics
    }

    var operationCount: Int {
        loop.assertInLoopThread()
        return operations.count
    }

    func isRunning(_ id: String) -> Bool { operations[id] != nil }

    /// Runs an operation; `body` should stop when its task is cancelled
    /// (by `cancel(id)` or the session's end).
    func run(_ id: String, _ body: @escaping @Sendable () async -> Void) {
        loop.assertInLoopThread()
        let metrics = metrics
        operations[id] = Task(executorPreference: loop) { [self] in
            metrics?.subscriptionStarted()
            defer { metrics?.subscriptionEnded() }
            await body()
            // Only if it was not cancelled: a cancelled id may already be running anew.
            if !Task.isCancelled { operations[id] = nil }
        }
    }

    func cancel(_ id: String) {
        loop.assertInLoopThread()
        operations.removeValue(forKey: id)?.cancel()
    }

    /// Calls `action` once after `delay`, unless the session has ended.
    func after(_ delay: Duration, _ action: @escaping @Sendable () -> Void) {
        loop.assertInLoopThread()
        let loop = loop
        timers.append(
            Task(executorPreference: loop) { [weak self] in
                await loop.sleep(for: delay)
                guard let self, !Task.isCancelled, !self.isStopped else { return }
                action()
            })
    }

    /// Calls `action` every `interval` until the session ends.
    func every(_ interval: Duration, _ action: @escaping @Sendable () -> Void) {
        loop.assertInLoopThread()
        let loop = loop
        timers.append(
            Task(executorPreference: loop) { [weak self] in
                while true {
                    await loop.sleep(for: interval)
                    guard let self, !Task.isCancelled, !self.isStopped else { return }
                    action()
                }
            })
    }

    /// Watches the connection's sign-in, when its context can end: `ended`
    /// runs on the loop when it does. The watch ends with the session.
    func watchAuthority(of context: any Sendable, _ ended: @escaping @Sendable () -> Void) {
        loop.assertInLoopThread()
        guard let authority = context as? ConnectionAuthority, !isStopped else { return }
        let loop = loop
        stopWatching = authority.watchEnd { loop.enqueue(ended) }
    }

    private var stopWatching: (@Sendable () -> Void)?

    func stopAll() {
        loop.assertInLoopThread()
        stopWatching?()
        stopWatching = nil
        isStopped = true
        for task in operations.values { task.cancel() }
        operations = [:]
        for timer in timers { timer.cancel() }
        timers = []
    }
}
