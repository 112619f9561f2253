/// A one-shot signal between tasks on one loop.
package final class Gate: @unchecked Sendable {
    package init() {}

    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    package func open() {
        isOpen = true
        let waiting = waiters
        waiters = []
        waiting.forEach { $0.resume() }
    }

    package func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }
}
