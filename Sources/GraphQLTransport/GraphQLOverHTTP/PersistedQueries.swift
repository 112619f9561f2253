import HuddleRuntime
import Synchronization

/// Apollo's Automatic Persisted Queries: query texts by their SHA-256, so a
/// client may send the hash alone once the server has seen the text.
/// Bounded; the oldest entry goes first. Shared by the loops of a process.
final class PersistedQueries: Sendable {
    let capacity: Int
    private let state: Mutex<(queries: [String: String], order: [String], oldest: Int)>

    init(capacity: Int) {
        self.capacity = capacity
        state = Mutex(([:], [], 0))
    }

    func query(forHash hash: String) -> String? {
        state.withLock { $0.queries[hash] }
    }

    func store(_ query: String, hash: String) {
        guard capacity > 0 else { return }
        state.withLock { state in
            guard state.queries[hash] == nil else { return }
            if state.queries.count >= capacity {
                // `order` is a ring over `capacity` slots once full.
                let evicted = state.order[state.oldest]
                state.queries[evicted] = nil
                state.order[state.oldest] = hash
                state.oldest = (state.oldest + 1) % capacity
            } else {
                state.order.append(hash)
            }
            state.queries[hash] = query
        }
    }
}
