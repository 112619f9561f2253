import Foundation
import HuddleRuntime
import Synchronization
import TestSupport

/// A loop running on a thread of its own for the test.
package final class RunningLoop: Sendable {
    package let loop: EventLoop
    package let finished = Atomic<Bool>(false)

    package init(drainLimit: Duration = .seconds(10), logger: Logger = Logger()) {
        loop = EventLoop(drainLimit: drainLimit, logger: logger)
        Thread { [self] in
            loop.run()
            finished.store(true, ordering: .releasing)
        }.start()
    }

    package func stop() async {
        loop.stop()
        while !finished.load(ordering: .acquiring) { await Task.yield() }
    }

    /// Stops the loop; false when it has not stopped within `limit` (a
    /// hang, for the test to fail on rather than wait for ever).
    package func stop(within limit: Duration) async -> Bool {
        loop.stop()
        return await finished(within: limit)
    }

    /// Whether the loop, told to stop by someone else, has stopped within `limit`.
    package func finished(within limit: Duration) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while !finished.load(ordering: .acquiring) {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }
}
