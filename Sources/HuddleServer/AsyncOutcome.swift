import Synchronization

/// A value set once from any thread and awaited from a task.
final class AsyncOutcome<Value: Sendable>: Sendable {
    private let state = Mutex<(value: Value?, waiters: [CheckedContinuation<Value, Never>])>((nil, []))

    func set(_ value: Value) {
        let waiters = state.withLock { state in
            state.value = value
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: value) }
    }

    /// The value if it is set, without waiting.
    var current: Value? { state.withLock { $0.value } }

    var value: Value {
        get async {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Value? in
                    if let value = state.value { return value }
                    state.waiters.append(continuation)
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}
