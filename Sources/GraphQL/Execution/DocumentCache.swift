import Synchronization

/// Parsed and validated documents by their text, most recently used kept:
/// a repeated request skips parsing and validation. One cache serves one
/// schema; it is safe to share between the loops of a server.
public final class DocumentCache: Sendable {
    /// What a document's text came to: a valid document, or the errors that reject it.
    public enum Entry: Sendable {
        case valid(Document, Source)
        case invalid([GraphQLError])
    }

    public let schema: GraphQLSchema
    public let capacity: Int
    public let parseOptions: ParseOptions
    private let state: Mutex<LRU>

    public init(schema: GraphQLSchema, capacity: Int = 1_000, parseOptions: ParseOptions = .default) {
        precondition(capacity > 0, "a cache holds at least one document")
        self.schema = schema
        self.capacity = capacity
        self.parseOptions = parseOptions
        state = Mutex(LRU(capacity: capacity))
    }

    /// The cached entry for `text`, parsing and validating it on a miss.
    public func entry(for text: String) -> Entry {
        if let cached = state.withLock({ $0.get(text) }) { return cached }
        let source = Source(body: text)
        let entry: Entry
        do throws(GraphQLError) {
            let document = try parse(source, options: parseOptions)
            let errors = validate(schema: schema, document: document, source: source)
            entry = errors.isEmpty ? .valid(document, source) : .invalid(errors)
        } catch {
            entry = .invalid([error])
        }
        state.withLock { $0.set(text, entry) }
        return entry
    }

    public var count: Int { state.withLock { $0.count } }

    /// Hits and misses so far, for metrics.
    public var statistics: (hits: Int, misses: Int) { state.withLock { ($0.hits, $0.misses) } }

    /// A least-recently-used map: entries in a doubly linked list threaded
    /// through arrays, with free slots reused, so every operation is O(1).
    struct LRU {
        let capacity: Int
        private var index: [String: Int] = [:]
        private var keys: [String] = []
        private var values: [Entry] = []
        private var previous: [Int] = []
        private var next: [Int] = []
        private var head = -1
        private var tail = -1
        private(set) var hits = 0
        private(set) var misses = 0

        init(capacity: Int) {
            self.capacity = capacity
        }

        var count: Int { index.count }

        mutating func get(_ key: String) -> Entry? {
            guard let slot = index[key] else {
                misses += 1
                return nil
            }
            hits += 1
            moveToFront(slot)
            return values[slot]
        }

        mutating func set(_ key: String, _ value: Entry) {
            if let slot = index[key] {
                values[slot] = value
                moveToFront(slot)
                return
            }
            let slot: Int
            if keys.count < capacity {
                slot = keys.count
                keys.append(key)
                values.append(value)
                previous.append(-1)
                next.append(-1)
            } else {
                // Reuse the least recently used slot.
                slot = tail
                unlink(slot)
                index[keys[slot]] = nil
                keys[slot] = key
                values[slot] = value
            }
            index[key] = slot
            pushFront(slot)
        }

        private mutating func moveToFront(_ slot: Int) {
            guard head != slot else { return }
            unlink(slot)
            pushFront(slot)
        }

        private mutating func unlink(_ slot: Int) {
            let before = previous[slot], after = next[slot]
            if before >= 0 { next[before] = after } else { head = after }
            if after >= 0 { previous[after] = before } else { tail = before }
            previous[slot] = -1
            next[slot] = -1
        }

        private mutating func pushFront(_ slot: Int) {
            next[slot] = head
            previous[slot] = -1
            if head >= 0 { previous[head] = slot }
            head = slot
            if tail < 0 { tail = slot }
        }
    }
}
