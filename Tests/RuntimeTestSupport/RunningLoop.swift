import Foundation
import HuddleRuntime
import Synchronization
import TestSupport

/// A loop running on a thread of its own for the test.
package final class RunningLoop: Sendable {
    package let loop = EventLoop()
    package let finished = Atomic<Bool>(false)

    package init() {
        Thread { [self] in
            loop.run()
            finished.store(true, ordering: .releasing)
        }.start()
    }

    package func stop() async {
        loop.stop()
        while !finished.load(ordering: .acquiring) { await Task.yield() }
    }
}
