import Synchronization

/// Parsed and validated documents by their text, most recently used kept:
/// a repeated request skips parsing and validation. One cache serves one
/// schema; it is safe to share between the loops of a server.
///
/// Bounded twice: by the number of documents, and by the bytes of their
/// texts (a document's syntax tree is a small multiple of its text), so
/// that distinct large documents, each under the parser's size limit,
/// cannot grow the cache to gigabytes. A document larger than the whole
/// byte budget is parsed and validated but not kept.
public final class DocumentCache: Sendable {
    /// What a document's text came to: a valid document, or the errors that reject it.
    public enum Entry: Sendable {
        /// A valid document, with what its runs work out once and reuse.
        case valid(Document, Source, OperationMemo)
        case invalid([GraphQLError])
    }

    public let schema: GraphQLSchema
    /// The most documents kept.
    public let capacity: Int
    /// The most bytes of document text kept, over all documents.
    public let maxTextBytes: Int
    public let parseOptions: ParseOptions
    /// The planned fields its documents may keep between runs, over all of
    /// them (`OperationMemo`, `PlanBudget`).
    public let planBudget: PlanBudget
    /// The validation rules documents must pass.
    public let rules: [ValidationRule.Type]
    /// Whether validation messages leave out their "Did you mean" suggestions.
    public let hidesSuggestions: Bool
    private let state: Mutex<LRU>

    public init(
        schema: GraphQLSchema, capacity: Int = 1_000, maxTextBytes: Int = 16 << 20, parseOptions: ParseOptions = .default,
        rules: [ValidationRule.Type] = specifiedRules, hidesSuggestions: Bool = false, maxKeptPlanFields: Int = 20_000
    ) {
        precondition(capacity > 0, "a cache holds at least one document")
        precondition(maxTextBytes > 0, "a cache holds at least one byte")
        self.schema = schema
        self.capacity = capacity
        self.maxTextBytes = maxTextBytes
        self.parseOptions = parseOptions
        planBudget = PlanBudget(maxFields: maxKeptPlanFields)
        self.rules = rules
        self.hidesSuggestions = hidesSuggestions
        state = Mutex(LRU(capacity: capacity, maxBytes: maxTextBytes))
    }

    /// The cached entry for `text`, parsing and validating it on a miss.
    /// The errors carry the codes Apollo's clients and tools look for:
    /// `GRAPHQL_PARSE_FAILED`, `GRAPHQL_VALIDATION_FAILED`.
    public func entry(for text: String) -> Entry {
        if let cached = state.withLock({ $0.get(text) }) { return cached }
        let source = Source(body: text)
        let entry: Entry
        do throws(GraphQLError) {
            let document = try ExecutionSpans.spanning("graphql.parse") { () throws(GraphQLError) in
                try parse(source, options: parseOptions)
            }
            let errors = ExecutionSpans.spanning("graphql.validate") {
                Suggestions.$areHidden.withValue(hidesSuggestions) {
                    validate(schema: schema, document: document, source: source, rules: rules)
                }
            }
            entry =
                errors.isEmpty
                ? .valid(document, source, OperationMemo(planBudget: planBudget))
                : .invalid(errors.map { $0.coded(ifUncoded: "GRAPHQL_VALIDATION_FAILED") })
        } catch {
            entry = .invalid([error.coded(ifUncoded: "GRAPHQL_PARSE_FAILED")])
        }
        state.withLock { $0.set(text, entry) }
        return entry
    }

    public var count: Int { state.withLock { $0.count } }

    /// The bytes of the texts of the documents kept.
    public var textBytes: Int { state.withLock { $0.bytes } }

    /// Hits and misses so far, for metrics.
    public var statistics: (hits: Int, misses: Int) { state.withLock { ($0.hits, $0.misses) } }

    /// A least-recently-used map: entries in a doubly linked list threaded
    /// through arrays, with free slots reused, so every operation is O(1)
    /// (an insertion evicts as many entries as its bytes need).
    struct LRU {
        let capacity: Int
        let maxBytes: Int
        private var index: [String: Int] = [:]
        private var keys: [String] = []
        private var values: [Entry] = []
        private var previous: [Int] = []
        private var next: [Int] = []
        /// Slots of evicted entries, to be reused.
        private var free: [Int] = []
        private var head = -1
        private var tail = -1
        private(set) var bytes = 0
        private(set) var hits = 0
        private(set) var misses = 0

        init(capacity: Int, maxBytes: Int) {
            self.capacity = capacity
            self.maxBytes = maxBytes
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
            let size = key.utf8.count
            guard size <= maxBytes else { return }
            while count >= capacity || bytes + size > maxBytes { evictLeastRecentlyUsed() }
            let slot: Int
            if let reused = free.popLast() {
                slot = reused
                keys[slot] = key
                values[slot] = value
            } else {
                slot = keys.count
                keys.append(key)
                values.append(value)
                previous.append(-1)
                next.append(-1)
            }
            index[key] = slot
            bytes += size
            pushFront(slot)
        }

        private mutating func evictLeastRecentlyUsed() {
            let slot = tail
            unlink(slot)
            index[keys[slot]] = nil
            bytes -= keys[slot].utf8.count
            // The slot keeps nothing alive while it waits to be reused.
            keys[slot] = ""
            values[slot] = .invalid([])
            free.append(slot)
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
