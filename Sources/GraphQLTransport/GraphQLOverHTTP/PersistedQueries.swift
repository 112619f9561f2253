import GraphQL
import HuddleRuntime
import Synchronization

/// Apollo's Automatic Persisted Queries: query texts by their SHA-256, so a
/// client may send the hash alone once the server has seen the text.
///
/// One for the process, shared by its workers (a client's next request may
/// reach any of them). Bounded in bytes as well as entries, the oldest entry
/// going first; and what is kept is the document without its ignored
/// tokens, so that a text of a megabyte of comment costs its few
/// significant bytes (anyone may register a document).
public final class PersistedQueries: Sendable {
    /// The most documents kept.
    public let capacity: Int
    /// The most bytes kept, over all documents: their compact texts and hashes.
    public let maxBytes: Int
    private let state: Mutex<State>

    private struct State {
        var queries: [String: String] = [:]
        /// Hashes, oldest first, from `oldest` on (a queue kept in an array).
        var order: [String] = []
        var oldest = 0
        var bytes = 0
    }

    /// What one entry costs besides its text: its hash (twice) and the
    /// dictionary's and strings' own storage, about.
    static let overheadBytes = 192

    public init(capacity: Int, maxBytes: Int) {
        self.capacity = capacity
        self.maxBytes = maxBytes
        state = Mutex(State())
    }

    public func query(forHash hash: String) -> String? {
        state.withLock { $0.queries[hash] }
    }

    /// Documents kept now, and their bytes.
    public var usage: (count: Int, bytes: Int) { state.withLock { ($0.queries.count, $0.bytes) } }

    /// Keeps `query` (already compacted) under `hash`, evicting the oldest
    /// entries until it fits; one larger than the whole budget is not kept.
    func store(_ query: String, hash: String) {
        let size = query.utf8.count + Self.overheadBytes
        guard capacity > 0, size <= maxBytes else { return }
        state.withLock { state in
            guard state.queries[hash] == nil else { return }
            while state.queries.count >= capacity || state.bytes + size > maxBytes {
                let evicted = state.order[state.oldest]
                state.oldest += 1
                if let text = state.queries.removeValue(forKey: evicted) { state.bytes -= text.utf8.count + Self.overheadBytes }
            }
            // Drop the evicted half of the queue now and then, not on every eviction.
            if state.oldest > 1_024 && state.oldest * 2 > state.order.count {
                state.order.removeFirst(state.oldest)
                state.oldest = 0
            }
            state.order.append(hash)
            state.queries[hash] = query
            state.bytes += size
        }
    }
}
