import Synchronization

/// What is worked out once for a cached document and reused by every
/// request that runs it: each operation's measured cost, by the operation's
/// name and the coerced variable values that may change it (`@skip` and
/// `@include`, slicing arguments), and its execution plan, by the same. A
/// document's entry in a `DocumentCache` carries one; it goes with the
/// entry, so it is bounded with the cache and made anew for another schema.
///
/// A plan is lent to one run at a time (taken, then given back when the
/// run ends whole), so the state a run keeps in it (which subplan an
/// object type had, arguments coerced once) is never shared by two runs;
/// a second run of the same operation meanwhile plans its own.
public final class OperationMemo: Sendable {
    /// The most variants kept for one document: an operation run with many
    /// different variables is measured each time past it, not remembered.
    public static let maxVariants = 16
    /// The most plans kept for one document, each for one operation and
    /// variables; and the most fields one plan kept may have.
    public static let maxPlans = 4
    public static let maxFieldsPerPlan = 256

    private let planBudget: PlanBudget?
    private let plans = Mutex<[Key: Executor.KeptPlan]>([:])
    /// Runs lent a kept plan, since the memo was made.
    public let plansLent = Atomic<Int>(0)

    struct Key: Hashable {
        var operationName: String?
        var variableValues: [String: GraphQLValue]
        var defaultListSize: Int
    }

    private let costs = Mutex<[Key: OperationCost]>([:])

    /// `planBudget` bounds the plans kept by every memo given it; without
    /// one, no plan is kept.
    public init(planBudget: PlanBudget? = nil) {
        self.planBudget = planBudget
    }

    deinit {
        let fields = plans.withLock { $0.values.reduce(0) { $0 + $1.fieldCount } }
        planBudget?.give(back: fields)
    }

    /// The plan kept for `key`, lent to the caller (nil when none is kept).
    func takePlan(for key: Key) -> Executor.KeptPlan? {
        guard let plan = plans.withLock({ $0.removeValue(forKey: key) }) else { return nil }
        planBudget?.give(back: plan.fieldCount)
        plansLent.add(1, ordering: .relaxed)
        return plan
    }

    /// Keeps `plan` for the next run of `key`, within the bounds.
    func keep(_ plan: Executor.KeptPlan, for key: Key) {
        guard let planBudget, plan.fieldCount <= Self.maxFieldsPerPlan, planBudget.take(plan.fieldCount) else { return }
        let kept = plans.withLock { plans -> Bool in
            guard plans[key] == nil, plans.count < Self.maxPlans else { return false }
            plans[key] = plan
            return true
        }
        if !kept { planBudget.give(back: plan.fieldCount) }
    }

    /// How many plans are kept now, for tests.
    public var plansKept: Int { plans.withLock { $0.count } }

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

/// The planned fields all the memos of a `DocumentCache` may keep between
/// runs (`DocumentCache.maxKeptPlanFields`). A kept plan costs about 0.4 KB
/// a field and grows with its document, which the cache's bound on text
/// does not bound; this does, whatever the documents.
public final class PlanBudget: Sendable {
    public let maxFields: Int
    private let used = Atomic<Int>(0)

    public init(maxFields: Int) {
        precondition(maxFields >= 0, "a budget of fields is not negative")
        self.maxFields = maxFields
    }

    /// The fields kept now.
    public var fieldsKept: Int { used.load(ordering: .relaxed) }

    /// Takes `count` fields from the budget, if it has them.
    func take(_ count: Int) -> Bool {
        var current = used.load(ordering: .relaxed)
        while current + count <= maxFields {
            let (exchanged, original) = used.compareExchange(
                expected: current, desired: current + count, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }

    func give(back count: Int) {
        used.subtract(count, ordering: .relaxed)
    }
}
