import Synchronization

/// Executes an operation (spec §6): selects it, coerces its variables, runs
/// the resolvers and completes their values into the response.
///
/// Fields whose resolvers answer at once are completed at once, depth first,
/// with no task and no waiting. Fields that must wait (`Resolved.async`)
/// leave a placeholder and are run together, concurrently, once no ready
/// work is left; their results are completed in the order the fields were
/// met, which may start another round. A mutation's root fields run one
/// after another, each with everything below it.
public func execute(
    schema: ExecutableSchema,
    document: Document,
    source: Source,
    operationName: String? = nil,
    variables: [GraphQLValue.Member] = [],
    rootValue: Parent = .root,
    context: any Sendable = (),
    limits: ExecutionLimits = .default,
    workExecutor: (any TaskExecutor)? = nil,
    memo: OperationMemo? = nil
) async -> ExecutionResult {
    switch prepareExecution(
        schema: schema, document: document, source: source, operationName: operationName, variables: variables, context: context,
        limits: limits, workExecutor: workExecutor, incremental: false, memo: memo)
    {
    case .refused(let result):
        return result
    case .ready(let executor, let operation, let rootType, let cost):
        var result = await executor.run(operation, rootType: rootType, rootValue: rootValue)
        result.cost = cost
        return result
    }
}

/// An execution ready to run, or the request error that refused it.
enum PreparedExecution {
    case refused(ExecutionResult)
    case ready(Executor, OperationDefinition, rootType: GraphQLNamedType, cost: OperationCost?)
}

/// GetOperation, CoerceVariableValues, the root type and the limits'
/// measure: everything before the operation runs.
func prepareExecution(
    schema: ExecutableSchema, document: Document, source: Source, operationName: String?, variables: [GraphQLValue.Member],
    context: any Sendable, limits: ExecutionLimits, workExecutor: (any TaskExecutor)?, incremental: Bool, memo: OperationMemo?
) -> PreparedExecution {
    let operation: OperationDefinition
    switch selectOperation(document, operationName) {
    case .success(let selected): operation = selected
    case .failure(let error): return .refused(ExecutionResult(data: nil, errors: [error]))
    }
    let variableValues: [String: GraphQLValue]
    switch VariableValues.coerce(
        schema: schema.schema, definitions: operation.variableDefinitions, inputs: variables, source: source
    ) {
    case .success(let values): variableValues = values
    case .failure(let failure): return .refused(ExecutionResult(data: nil, errors: failure.errors))
    }
    guard let rootType = schema.schema.rootType(for: operation.operation) else {
        return .refused(ExecutionResult(data: nil, errors: [notConfigured(operation, source)]))
    }
    let (cost, refusal) = limits.measure(operation, in: document, schema: schema.schema, variableValues: variableValues, memo: memo)
    if let refusal {
        var refused = ExecutionResult(data: nil, errors: [refusal])
        refused.cost = cost
        return .refused(refused)
    }
    let executor = Executor(
        schema: schema, document: document, source: source, variableValues: variableValues, context: context,
        limits: limits, workExecutor: workExecutor
    )
    // Subscriptions execute each event in full: `@defer` and `@stream` are
    // validated away there, and ignored where their `if` is a variable.
    if incremental && operation.operation != .subscription
        && (schema.schema.directive(named: "defer") != nil || schema.schema.directive(named: "stream") != nil)
    {
        executor.incremental = IncrementalState()
    } else if let memo, memo.keepsPlans {
        // A plan depends on the operation and on the variables (`@skip`
        // and `@include`, arguments coerced once): kept by both.
        executor.planMemo = (
            memo,
            OperationMemo.PlanKey(
                operationName: operation.name?.value, variableValues: variableValues, defaultListSize: limits.defaultListSize)
        )
    }
    return .ready(executor, operation, rootType: rootType, cost: cost)
}

/// The request error for an operation whose root type the schema lacks.
func notConfigured(_ operation: OperationDefinition, _ source: Source) -> GraphQLError {
    GraphQLError(
        message: "Schema is not configured to execute \(operation.operation.rawValue) operation.",
        locations: [source.location(at: operation.location.start)])
}

/// GetOperation: the named operation, or the only one.
public func selectOperation(_ document: Document, _ name: String?) -> Result<OperationDefinition, GraphQLError> {
    var found: OperationDefinition?
    for case .operation(let operation) in document.definitions {
        if let name {
            if operation.name?.value == name { return .success(operation) }
        } else {
            if found != nil {
                return .failure(GraphQLError(message: "Must provide operation name if query contains multiple operations."))
            }
            found = operation
        }
    }
    if let found { return .success(found) }
    return .failure(GraphQLError(message: name.map { "Unknown operation named \"\($0)\"." } ?? "Must provide an operation."))
}

/// The parent as a class instance, worked out for the first field that
/// wants it and reused by the object's other fields.
///
/// The instance is held unretained: the `Parent` it comes from, which the
/// object's fields are executed on, keeps it alive while they run, and the
/// retained reference a field was handed cost a retain and a release for
/// every field. So one lasts no longer than its object's fields: never
/// store it (in a hole, a group or a closure), make it anew.
struct ParentInstance {
    var checked = false
    var object: Unmanaged<AnyObject>?
    var objectClass: ObjectIdentifier?

    init() {}

    /// For a parent known to be `.object(value)`, told apart from its
    /// payload where the caller has it: matching the `Parent` again for
    /// each object copied it (its existential through its witnesses).
    init(object value: borrowing any Sendable) {
        checked = true
        (object, objectClass) = Self.instance(value)
    }

    private static func instance(_ value: borrowing any Sendable) -> (Unmanaged<AnyObject>?, ObjectIdentifier?) {
        let dynamicType = type(of: value)
        guard dynamicType is AnyClass else { return (nil, nil) }
        // `as AnyObject` would look for bridging conformances first;
        // a class instance already is the reference.
        func reference<Instance>(_ instance: borrowing Instance) -> Unmanaged<AnyObject> {
            Unmanaged.passUnretained(unsafeBitCast(instance, to: AnyObject.self))
        }
        return (reference(value), ObjectIdentifier(dynamicType))
    }

    var introspectedParent: Introspection.Introspected?

    /// The parent of an introspection field, told apart once for all its fields.
    mutating func introspected(_ parent: Parent) -> Introspection.Introspected {
        if let known = introspectedParent { return known }
        let introspected = Introspection.Introspected(parent)
        introspectedParent = introspected
        return introspected
    }

    /// The parent's instance when it is of class `expected`.
    mutating func object(of parent: Parent, ifInstanceOf expected: ObjectIdentifier) -> Unmanaged<AnyObject>? {
        if !checked {
            checked = true
            if case .object(let value) = parent { (object, objectClass) = Self.instance(value) }
        }
        return objectClass == expected ? object : nil
    }
}

final class Executor {
    let schema: ExecutableSchema
    let document: Document
    let source: Source
    let variableValues: [String: GraphQLValue]
    let context: any Sendable
    let collector: FieldCollector
    var errors: [GraphQLError] = []
    /// Whether the operation runs in a traced task: its waiting resolvers then get spans.
    let isTraced = ExecutionSpans.areOn
    /// `limits.maxResponseBytes`, or `Int.max`.
    let maxResponseBytes: Int
    /// The bytes written into writers other than the one in use: the root's
    /// while waiting values are written, and the segments of those written.
    var setAsideBytes = 0 {
        didSet { writeBudget = maxResponseBytes == .max ? .max : maxResponseBytes - setAsideBytes }
    }
    /// What the writer in use may hold before the response is over its limit.
    var writeBudget: Int
    /// `limits.maxHeldBytes`, or `Int.max`.
    let maxHeldBytes: Int
    /// What the values waiting so far are taken to hold until the response
    /// is assembled: each hole, and the objects its load is expected to bring.
    var waitingBytes = 0
    /// The size of a list nothing else sizes, for those expectations.
    let defaultListSize: Int
    /// Set when a limit was exceeded: everything unwinds and nothing more starts.
    var isStopped = false
    var stopError: GraphQLError?
    /// The root object became null: a non-null root field failed.
    var dataIsNull = false
    /// When the operation's time budget runs out; nil for none.
    let deadline: ContinuousClock.Instant?
    let timeBudget: Duration?
    /// Where a round of waiting work runs when a deadline may abandon it
    /// (a server's event loop); nil for the global executor.
    let workExecutor: (any TaskExecutor)?
    var pending: [PendingField] = []
    /// Set when the execution delivers incrementally (`@defer`, `@stream`).
    var incremental: IncrementalState?
    /// The position of the part being written, when it is a deferred
    /// group's object or a stream's list rather than the root or a hole.
    var rootPath: PathNode?

    /// The segment being written: the root's, or the value of `hole`.
    var segment = ResponseSegment()
    /// Its bytes while it is written. Kept here, not in the segment, because
    /// reaching through a class reference for every byte retained it every time.
    /// The root's starts as large as the last response's data (up to 8 MiB),
    /// so that a large response is not copied each time its buffer doubles;
    /// a small one after it sets the next start small again.
    var writer = JSONWriter(capacity: min(Executor.lastDataSize.load(ordering: .relaxed) + 256, 1 << 23))
    static let lastDataSize = Atomic<Int>(768)
    /// The hole whose value is being written; nil while the root is.
    var hole: Hole?
    /// The objects and lists open in the segment, outermost first.
    var frames: [Frame] = []
    /// The plan of the operation's root fields (the others are in `plans` and `subplans`).
    var rootFields: [PlannedField] = []
    /// Where this operation's plan is kept between runs, and under which key.
    var planMemo: (memo: OperationMemo, key: OperationMemo.PlanKey)?
    /// Work of this run was left running or not started (a time budget ran
    /// out): the plan is not given back, since that work may touch it.
    var leftWorkBehind = false
    /// The plan was lent by the memo (not made by this run).
    var planWasLent = false

    /// A plan kept between runs of one operation with the same variables:
    /// lent to one run at a time (`OperationMemo`). Without the run's
    /// `subplans`: that list grows each time a field meets another object
    /// type than the last, so each run starts it afresh (its fields' last
    /// types forgotten) from the plans kept by type.
    final class KeptPlan: @unchecked Sendable {
        let rootFields: [PlannedField]
        let plans: [PlanKey: [PlannedField]]
        /// The fields it holds.
        let fieldCount: Int
        /// The schema whose resolvers its fields hold.
        let schema: ExecutableSchema.Identity

        init(rootFields: [PlannedField], plans: [PlanKey: [PlannedField]], schema: ExecutableSchema.Identity) {
            self.schema = schema
            self.rootFields = rootFields
            self.plans = plans
            fieldCount = rootFields.count + plans.values.reduce(0) { $0 + $1.count }
            for field in rootFields { field.subplanType = nil }
            for fields in plans.values {
                for field in fields { field.subplanType = nil }
            }
        }
    }

    struct PendingField {
        /// What the field waits for: its own work, or a share of a batch.
        var waiting: Waiting
        /// Where its value goes.
        let hole: Hole

        enum Waiting: Sendable {
            case work(@Sendable () async throws -> Resolved)
            case deferred(any DeferredValue)
        }
    }

    /// An object or list being written.
    struct Frame {
        /// The offset of its `{` or `[`.
        let start: Int
        let isList: Bool
        /// Whether its own position is non-null.
        let isNonNull: Bool
        /// For an object, the field being completed (its key is the position's).
        /// Unmanaged: plans outlive the frames, and an `unowned(unsafe)`
        /// optional here was miscompiled (removing a frame removed two).
        var field: Unmanaged<PlannedField>?
        /// For a list, the item being completed.
        var index = 0
        /// Made when a hole is left below it.
        var region: Region?
        /// Its own position, made when a path below it is first needed.
        var path: PathNode?
        var hasPath = false

        init(start: Int, isList: Bool, isNonNull: Bool) {
            self.start = start
            self.isList = isList
            self.isNonNull = isNonNull
        }
    }

    /// What completing a value did.
    enum Completion {
        case written
        /// Wrote `null`, a legitimate value where the position is nullable.
        case null
        /// Failed, with the error reported: the caller nulls its position or fails in turn.
        case failed
    }

    init(
        schema: ExecutableSchema, document: Document, source: Source,
        variableValues: [String: GraphQLValue], context: any Sendable, limits: ExecutionLimits,
        workExecutor: (any TaskExecutor)?
    ) {
        maxResponseBytes = limits.maxResponseBytes ?? .max
        maxHeldBytes = limits.maxHeldBytes ?? .max
        defaultListSize = limits.defaultListSize
        timeBudget = limits.maxExecutionTime
        deadline = limits.maxExecutionTime.map { ContinuousClock.now + $0 }
        self.workExecutor = workExecutor
        writeBudget = maxResponseBytes
        self.schema = schema
        self.document = document
        self.source = source
        self.variableValues = variableValues
        self.context = context
        collector = FieldCollector(schema: schema.schema, document: document, variableValues: variableValues, source: source)
    }

    func run(_ operation: OperationDefinition, rootType: GraphQLNamedType, rootValue: Parent) async -> ExecutionResult {
        let fields: [PlannedField]
        var rootDeferral: Deferral?
        do {
            if let (memo, key) = planMemo, let kept = memo.takePlan(for: key, schema: schema.identity) {
                fields = kept.rootFields
                plans = kept.plans
                planWasLent = true
            } else if incremental != nil {
                let collected = try collector.collectIncrementalFields(rootType, [(operation.selectionSet, nil)])
                (fields, rootDeferral) = planIncrementally(rootType, collected, context: [])
            } else {
                fields = try plan(rootType, collector.collectFields(rootType, operation.selectionSet))
            }
        } catch {
            // As in graphql-js, an error collecting the root fields nulls the data.
            return ExecutionResult(json: nil, errors: [error])
        }
        // Kept for the whole run: frames and holes refer to the plans they complete.
        rootFields = fields
        let root = segment
        openFrame(isList: false, isNonNull: true)
        if let rootDeferral { _ = beginDeferral(rootDeferral, rootType, rootValue) }
        var instance = ParentInstance()
        var first = true
        for field in fields {
            // Past the budget, a mutation's later fields do not run.
            if operation.operation == .mutation, isPastDeadline {
                guard skipField(field, first: &first) else {
                    dataIsNull = true
                    break
                }
                continue
            }
            guard executeField(rootType, rootValue, field, members: nil, first: &first, instance: &instance), !isStopped else {
                dataIsNull = true
                break
            }
            // A mutation's root fields run one after another, each with everything below it.
            if operation.operation == .mutation {
                await drain()
                if dataIsNull || isStopped { break }
            }
        }
        if !dataIsNull { await drain() }
        closeFrame()
        keepPlan()
        if let stopError { return ExecutionResult(json: nil, errors: [stopError]) }
        guard !dataIsNull else { return ExecutionResult(json: nil, errors: errors) }
        Self.lastDataSize.store(writer.count, ordering: .relaxed)
        var written = JSONWriter(capacity: 16)
        swap(&writer, &written)
        if root.isComplete { return ExecutionResult(json: WrittenJSON(written), errors: errors) }
        var assembled = JSONWriter(capacity: written.count * 2)
        swap(&root.writer, &written)
        root.write(to: &assembled)
        return ExecutionResult(json: WrittenJSON(assembled), errors: errors)
    }

    /// Gives the plan back to its memo for the next run, if this run ended
    /// whole: nothing stopped it, and no work was left running or unstarted
    /// (which could still touch the plan).
    private func keepPlan() {
        guard let (memo, key) = planMemo, !isStopped, !leftWorkBehind, !isPastDeadline, !Task.isCancelled else { return }
        memo.keep(KeptPlan(rootFields: rootFields, plans: plans, schema: schema.identity), for: key, wasLent: planWasLent)
    }

    /// CollectSubfields is the same for every object of a list: it is
    /// worked out once per type and merged field set.
    var plans: [PlanKey: [PlannedField]] = [:]

    var subplans: [[PlannedField]] = []

    /// Runs every waiting field, then writes their values in the order the
    /// fields were met; repeats while writing them leaves more waiting.
    func drain() async {
        guard !pending.isEmpty else { return }
        let (savedSegment, savedHole, savedFrames) = (segment, hole, frames)
        var savedWriter = JSONWriter(capacity: 0)
        swap(&writer, &savedWriter)
        let setAside = savedWriter.count
        setAsideBytes += setAside
        defer {
            (segment, hole, frames) = (savedSegment, savedHole, savedFrames)
            swap(&writer, &savedWriter)
            setAsideBytes -= setAside
        }
        while !pending.isEmpty && !isStopped {
            if Task.isCancelled {
                stop(ExecutionLimits.cancelled)
                break
            }
            if isPastDeadline {
                abandonPending()
                break
            }
            let batch = pending
            pending = []
            var round = await runRound(batch.map(\.waiting))
            if Task.isCancelled {
                stop(ExecutionLimits.cancelled)
                break
            }
            // What finished stands; what did not (the deadline came first) is null with the budget's error.
            var lastYield = ContinuousClock.now
            for index in batch.indices where !isStopped {
                // A round of many values yields its thread now and then, so that
                // the other requests on it are not kept waiting behind this one.
                // Checked at every value: one value can be a page of a hundred objects.
                if index > 0, ContinuousClock.now - lastYield > Self.yieldInterval {
                    await Task.yield()
                    lastYield = ContinuousClock.now
                }
                let hole = batch[index].hole
                guard !isAbandoned(hole) else { continue }
                let outcome: Result<Resolved, any Error>
                switch batch[index].waiting {
                case .work:
                    if let finished = round.outcomes[index].take() {
                        outcome = finished
                    } else {
                        leftWorkBehind = true
                        outcome = .failure(timeoutError)
                    }
                case .deferred(let value):
                    if round.finishedBatches.contains(ObjectIdentifier(value.batch)) {
                        outcome = Result { try value.resolve() }
                    } else {
                        leftWorkBehind = true
                        outcome = .failure(timeoutError)
                    }
                }
                fill(hole, with: outcome)
            }
        }
    }

}

/// A Swift value that answers for its fields by name, so that an object type
/// reading fields by name can take it as a parent (as it takes JSON).
public protocol FieldReadable: Sendable {
    func resolve(field name: String) -> Resolved
}
