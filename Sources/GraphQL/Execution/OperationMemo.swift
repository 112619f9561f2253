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
/// a second run of the same operation meanwhile plans its own, and gives
/// it back too: a variant keeps as many plans as it has had runs at once
/// (up to `maxPlansPerVariant`), or a server answering one screen for many
/// users at a time planned nearly every request.
public final class OperationMemo: Sendable {
    /// The most variants kept for one document: an operation run with many
    /// different variables is measured each time past it, not remembered.
    public static let maxVariants = 16
    /// The most variants (operation and variables) whose plans are kept
    /// for one document.
    public static let maxPlans = 4
    /// The most plans kept for one variant: one for each of its runs at
    /// once that ended whole, within the budget. A document may thus keep
    /// `maxPlans × maxPlansPerVariant` plans; `PlanBudget` bounds their
    /// fields over all documents.
    public static let maxPlansPerVariant = 8
    /// The most fields one plan kept may have.
    public static let maxFieldsPerPlan = 256

    private let planBudget: PlanBudget?
    /// The plans kept, oldest first, and the variants run once (a plan is
    /// kept from a variant's second run on: one-off variables, a cursor or
    /// an id, never take a place).
    private let plans = Mutex<(kept: [(key: PlanKey, plan: Executor.KeptPlan)], seen: Set<Int>)>(([], []))

    /// Whether plans are kept at all (a memo without a budget keeps none).
    var keepsPlans: Bool { planBudget != nil }
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
        let fields = plans.withLock { $0.kept.reduce(0) { $0 + $1.plan.fieldCount } }
        planBudget?.give(back: fields)
    }

    /// The plan kept for `key`, lent to the caller (nil when none is kept,
    /// or the one kept is another schema's, which is let go). The memo
    /// must be `document`'s, as a `DocumentCache` entry's is.
    func takePlan(for key: PlanKey, schema: ExecutableSchema.Identity) -> Executor.KeptPlan? {
        let plan = plans.withLock { plans -> Executor.KeptPlan? in
            guard let index = plans.kept.firstIndex(where: { $0.key == key }) else { return nil }
            return plans.kept.remove(at: index).plan
        }
        guard let plan else { return nil }
        planBudget?.give(back: plan.fieldCount)
        guard plan.schema === schema else { return nil }
        plansLent.add(1, ordering: .relaxed)
        return plan
    }

    /// Keeps `plan` for a next run of `key`, within the bounds: beside the
    /// variant's other plans up to `maxPlansPerVariant`; for a variant
    /// not kept yet, in place of the oldest variant's plans when
    /// `maxPlans` variants are; and only from the variant's second run on
    /// (a plan that was lent is given back whatever the variants seen
    /// since). Variants are noted by their hash: a key's bytes are kept
    /// only with its plans.
    func keep(_ plan: Executor.KeptPlan, for key: PlanKey, wasLent: Bool) {
        guard let planBudget, plan.fieldCount <= Self.maxFieldsPerPlan else { return }
        // The plans it replaces, let go outside the lock.
        let replaced = plans.withLock { plans -> [Executor.KeptPlan] in
            if !wasLent && !plans.seen.contains(key.hashValue) {
                if plans.seen.count >= Self.maxVariants { plans.seen = [] }
                plans.seen.insert(key.hashValue)
                return []
            }
            let copies = plans.kept.reduce(0) { $0 + ($1.key == key ? 1 : 0) }
            guard copies < Self.maxPlansPerVariant else { return [] }
            var replaced: [Executor.KeptPlan] = []
            if copies == 0, let oldest = plans.kept.first?.key {
                var variants: [PlanKey] = []
                for entry in plans.kept where !variants.contains(entry.key) { variants.append(entry.key) }
                if variants.count >= Self.maxPlans {
                    replaced = plans.kept.filter { $0.key == oldest }.map(\.plan)
                    plans.kept.removeAll { $0.key == oldest }
                    for plan in replaced { planBudget.give(back: plan.fieldCount) }
                }
            }
            if planBudget.take(plan.fieldCount) { plans.kept.append((key, plan)) }
            return replaced
        }
        _ = replaced
    }

    /// How many plans are kept now, for tests.
    public var plansKept: Int { plans.withLock { $0.kept.count } }

    /// What a plan is kept by: the operation, and the variables byte for
    /// byte (not by `==`, under which two spellings of one accented letter,
    /// or 0 and -0, are equal: a plan holds the arguments coerced from its
    /// variables, and a resolver must get the ones its request sent).
    struct PlanKey: Hashable {
        let operationName: String?
        let variables: [UInt8]
        let defaultListSize: Int

        init(operationName: String?, variableValues: [String: GraphQLValue], defaultListSize: Int) {
            self.operationName = operationName
            self.defaultListSize = defaultListSize
            var bytes: [UInt8] = []
            for name in variableValues.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                Self.append(name, to: &bytes)
                Self.append(variableValues[name]!, to: &bytes)
            }
            variables = bytes
        }

        private static func append(_ text: String, to bytes: inout [UInt8]) {
            append(UInt64(text.utf8.count), to: &bytes)
            bytes.append(contentsOf: text.utf8)
        }

        private static func append(_ number: UInt64, to bytes: inout [UInt8]) {
            withUnsafeBytes(of: number.littleEndian) { bytes.append(contentsOf: $0) }
        }

        private static func append(_ value: GraphQLValue, to bytes: inout [UInt8]) {
            switch value {
            case .null: bytes.append(0)
            case .boolean(let flag): bytes.append(flag ? 2 : 1)
            case .int(let number):
                bytes.append(3)
                append(UInt64(bitPattern: Int64(number)), to: &bytes)
            case .float(let number):
                bytes.append(4)
                append(number.bitPattern, to: &bytes)
            case .string(let text):
                bytes.append(5)
                append(text, to: &bytes)
            case .enum(let name):
                bytes.append(6)
                append(name, to: &bytes)
            case .list(let items):
                bytes.append(7)
                append(UInt64(items.count), to: &bytes)
                for item in items { append(item, to: &bytes) }
            case .object(let members):
                bytes.append(8)
                append(UInt64(members.count), to: &bytes)
                for member in members {
                    append(member.name, to: &bytes)
                    append(member.value, to: &bytes)
                }
            }
        }
    }

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
/// does not bound; this bounds the fields, whatever the documents.
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
