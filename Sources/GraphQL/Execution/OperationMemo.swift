import Synchronization

/// What is worked out once for a cached document and reused by every
/// request that runs it: each operation's measured cost, by the operation's
/// name and the coerced variable values that may change it (`@skip` and
/// `@include`, slicing arguments). A document's entry in a `DocumentCache`
/// carries one; it goes with the entry, so it is bounded with the cache and
/// made anew for another schema.
public final class OperationMemo: Sendable {
    /// The most variants kept for one document: an operation run with many
    /// different variables is measured each time past it, not remembered.
    public static let maxVariants = 16

    struct Key: Hashable {
        var operationName: String?
        var variableValues: [String: GraphQLValue]
        var defaultListSize: Int
    }

    private let costs = Mutex<[Key: OperationCost]>([:])

    public init() {}

    func cost(for key: Key) -> OperationCost? {
        costs.withLock { $0[key] }
    }

    func keep(_ cost: OperationCost, for key: Key) {
        costs.withLock { costs in
            if costs.count < Self.maxVariants { costs[key] = cost }
        }
    }

    /// How many measures are kept, for tests.
    public var count: Int { costs.withLock { $0.count } }
}
