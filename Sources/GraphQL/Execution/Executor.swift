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
    workExecutor: (any TaskExecutor)? = nil
) async -> ExecutionResult {
    let operation: OperationDefinition
    switch selectOperation(document, operationName) {
    case .success(let selected): operation = selected
    case .failure(let error): return ExecutionResult(data: nil, errors: [error])
    }
    let variableValues: [String: GraphQLValue]
    switch VariableValues.coerce(
        schema: schema.schema, definitions: operation.variableDefinitions, inputs: variables, source: source
    ) {
    case .success(let values): variableValues = values
    case .failure(let failure): return ExecutionResult(data: nil, errors: failure.errors)
    }
    guard let rootType = schema.schema.rootType(for: operation.operation) else {
        return ExecutionResult(
            data: nil,
            errors: [
                GraphQLError(
                    message: "Schema is not configured to execute \(operation.operation.rawValue) operation.",
                    locations: [source.location(at: operation.location.start)]
                )
            ])
    }
    let (cost, refusal) = limits.measure(operation, in: document, schema: schema.schema, variableValues: variableValues)
    if let refusal {
        var refused = ExecutionResult(data: nil, errors: [refusal])
        refused.cost = cost
        return refused
    }
    let executor = Executor(
        schema: schema, document: document, source: source, variableValues: variableValues, context: context,
        limits: limits, workExecutor: workExecutor
    )
    var result = await executor.run(operation, rootType: rootType, rootValue: rootValue)
    result.cost = cost
    return result
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
struct ParentInstance {
    private var checked = false
    private var object: AnyObject?
    private var objectClass: ObjectIdentifier?

    private var introspectedParent: Introspection.Introspected?

    /// The parent of an introspection field, told apart once for all its fields.
    mutating func introspected(_ parent: Parent) -> Introspection.Introspected {
        if let known = introspectedParent { return known }
        let introspected = Introspection.Introspected(parent)
        introspectedParent = introspected
        return introspected
    }

    mutating func object(of parent: Parent, ifInstanceOf expected: ObjectIdentifier) -> AnyObject? {
        if !checked {
            checked = true
            if case .object(let value) = parent {
                let dynamicType = type(of: value)
                if dynamicType is AnyClass {
                    // `as AnyObject` would look for bridging conformances first;
                    // a class instance already is the reference.
                    func reference<Instance>(_ instance: Instance) -> AnyObject {
                        unsafeBitCast(instance, to: AnyObject.self)
                    }
                    object = reference(value)
                    objectClass = ObjectIdentifier(dynamicType)
                }
            }
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
    private(set) var errors: [GraphQLError] = []
    /// `limits.maxResponseBytes`, or `Int.max`.
    private let maxResponseBytes: Int
    /// The bytes written into writers other than the one in use: the root's
    /// while waiting values are written, and the segments of those written.
    private var setAsideBytes = 0 {
        didSet { writeBudget = maxResponseBytes == .max ? .max : maxResponseBytes - setAsideBytes }
    }
    /// What the writer in use may hold before the response is over its limit.
    private var writeBudget: Int
    /// `limits.maxHeldBytes`, or `Int.max`.
    private let maxHeldBytes: Int
    /// What the values waiting so far are taken to hold until the response
    /// is assembled: each hole, and the objects its load is expected to bring.
    private var waitingBytes = 0
    /// The size of a list nothing else sizes, for those expectations.
    private let defaultListSize: Int
    /// Set when a limit was exceeded: everything unwinds and nothing more starts.
    private(set) var isStopped = false
    private var stopError: GraphQLError?
    /// The root object became null: a non-null root field failed.
    private var dataIsNull = false
    /// When the operation's time budget runs out; nil for none.
    private let deadline: ContinuousClock.Instant?
    private let timeBudget: Duration?
    /// Where a round of waiting work runs when a deadline may abandon it
    /// (a server's event loop); nil for the global executor.
    private let workExecutor: (any TaskExecutor)?
    private var pending: [PendingField] = []

    /// The segment being written: the root's, or the value of `hole`.
    private var segment = ResponseSegment()
    /// Its bytes while it is written. Kept here, not in the segment, because
    /// reaching through a class reference for every byte retained it every time.
    /// The root's starts as large as the last response's data (up to 8 MiB),
    /// so that a large response is not copied each time its buffer doubles;
    /// a small one after it sets the next start small again.
    var writer = JSONWriter(capacity: min(Executor.lastDataSize.load(ordering: .relaxed) + 256, 1 << 23))
    private static let lastDataSize = Atomic<Int>(768)
    /// The hole whose value is being written; nil while the root is.
    private var hole: Hole?
    /// The objects and lists open in the segment, outermost first.
    var frames: [Frame] = []
    /// The plan of the operation's root fields (the others are in `plans` and `subplans`).
    private var rootFields: [PlannedField] = []

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
        do {
            fields = try plan(rootType, collector.collectFields(rootType, operation.selectionSet))
        } catch {
            // As in graphql-js, an error collecting the root fields nulls the data.
            return ExecutionResult(json: nil, errors: [error])
        }
        // Kept for the whole run: frames and holes refer to the plans they complete.
        rootFields = fields
        let root = segment
        openFrame(isList: false, isNonNull: true)
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

    /// A field to execute on an object type: its response key, its nodes,
    /// and everything about resolving it that is the same for every object
    /// (worked out once per type and selection, since every object of a list
    /// runs the same plan).
    final class PlannedField {
        let key: String
        let nodes: [Field]
        /// Nil for `__typename` and for fields the type lacks.
        let definition: GraphQLField?
        let parentType: GraphQLNamedType
        let resolution: Resolution
        // The bound resolver, unwrapped once: reading a stored closure costs
        // less than copying it out of an enum's payload for every object.
        let parentResolver: ParentResolver?
        let inputResolver: FieldResolver?
        /// For a resolver bound to a Swift class: the class, and the resolver
        /// that takes its instances (`parentResolver` takes the rest).
        let instanceClass: ObjectIdentifier?
        let instanceResolver: ExecutableSchema.InstanceResolver?
        /// The type's wrappers from the outside in, and the named type within
        /// them: completing a value walks these instead of the type's enum.
        let wrappers: [TypeWrapper]
        let namedType: GraphQLNamedType
        /// How a leaf value serialises; nil for object, interface and union types.
        let leafKind: ResultCoercion.LeafKind?
        /// Whether there are arguments to coerce.
        let hasArguments: Bool
        /// For a field read by name (graphql-js's default resolver) whose type
        /// is a built-in scalar, maybe non-null but not a list: how its value
        /// is written when the member already has the scalar's form, straight
        /// from the parent's members.
        let memberLeafKind: ResultCoercion.LeafKind?
        /// The object-independent part of a resolver's info.
        let info: FieldInfo?
        /// The plan of this field's selections on the object type it last
        /// completed (an index into the executor's plans), so that the
        /// objects of a list look their plan up without hashing.
        var subplanType: ObjectIdentifier?
        var subplan = 0
        /// Where the parent's member of this field's name was last found, for
        /// the default resolver over JSON: the objects of a list have their
        /// members in the same order, so it is nearly always there again.
        var memberHint = 0
        /// For a field of an introspection type, which one.
        let introspectionField: Introspection.FieldName?
        /// The field's arguments once coerced (see `coerceArguments`).
        var coercedArguments: [String: GraphQLValue]?
        /// For an introspection field, the arguments it reads, once coerced.
        var introspectionArguments: Introspection.Arguments?
        /// How many objects a value of this field is expected to hold (its
        /// page size, for a list or connection), worked out when it first
        /// waits; 0 until then.
        var expectedObjects = 0

        /// `"key":`, escaped once for every object that writes it; owned by
        /// the plan, so writing it costs no reference counting.
        let jsonKey: UnsafeBufferPointer<UInt8>

        enum Resolution {
            case typename
            /// A field the object's type does not have (an unvalidated document): left out.
            case omitted
            /// `parentResolver` or `inputResolver`.
            case bound
            case introspection
            /// graphql-js's default resolver: the parent's member of the field's name.
            case byName
        }

        init(
            key: String, nodes: [Field], definition: GraphQLField?, parentType: GraphQLNamedType,
            resolution: Resolution, info: FieldInfo?, resolver: ExecutableSchema.BoundResolver? = nil
        ) {
            self.key = key
            self.nodes = nodes
            self.definition = definition
            self.parentType = parentType
            self.resolution = resolution
            switch resolver {
            case .parent(let resolver):
                (parentResolver, inputResolver, instanceClass, instanceResolver) = (resolver, nil, nil, nil)
            case .input(let resolver):
                (parentResolver, inputResolver, instanceClass, instanceResolver) = (nil, resolver, nil, nil)
            case .instance(let objectClass, let resolver, let fallback):
                (parentResolver, inputResolver, instanceClass, instanceResolver) = (fallback, nil, objectClass, resolver)
            case nil:
                (parentResolver, inputResolver, instanceClass, instanceResolver) = (nil, nil, nil, nil)
            }
            self.info = info
            name = definition?.name ?? nodes[0].name.value
            introspectionField = resolution == .introspection ? Introspection.FieldName(rawValue: name) : nil
            // `__typename` and omitted fields are never completed: any type does for them.
            let type = definition?.type ?? .nonNull(.named(parentType))
            // The common shapes share their arrays: planning allocates none for them.
            switch type {
            case .named(let named): (wrappers, namedType) = (TypeWrapper.none, named)
            case .nonNull(.named(let named)): (wrappers, namedType) = (TypeWrapper.shapes[0], named)
            case .list(.named(let named)): (wrappers, namedType) = (TypeWrapper.shapes[1], named)
            case .nonNull(.list(.named(let named))): (wrappers, namedType) = (TypeWrapper.shapes[2], named)
            case .nonNull(.list(.nonNull(.named(let named)))): (wrappers, namedType) = (TypeWrapper.shapes[3], named)
            case .list(.nonNull(.named(let named))): (wrappers, namedType) = (TypeWrapper.shapes[4], named)
            default:
                var wrappers: [TypeWrapper] = []
                var inner = type
                while true {
                    switch inner {
                    case .nonNull(let wrapped):
                        wrappers.append(.nonNull)
                        inner = wrapped
                        continue
                    case .list(let wrapped):
                        wrappers.append(.list)
                        inner = wrapped
                        continue
                    case .named(let named):
                        namedType = named
                    }
                    break
                }
                self.wrappers = wrappers
            }
            leafKind = namedType.kind == .scalar || namedType.kind == .enum ? ResultCoercion.LeafKind(namedType) : nil
            hasArguments = !(definition?.arguments.isEmpty ?? true) || !nodes[0].arguments.isEmpty
            switch (resolution, leafKind, wrappers.count) {
            case (.byName, .int?, 0...1), (.byName, .float?, 0...1), (.byName, .string?, 0...1),
                (.byName, .boolean?, 0...1), (.byName, .id?, 0...1):
                memberLeafKind = hasArguments ? nil : leafKind
            default:
                memberLeafKind = nil
            }
            var writer = JSONWriter(capacity: key.utf8.count + 3)
            writer.string(key)
            writer.raw(":")
            let keyBytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: writer.count)
            _ = writer.withBytes { keyBytes.initialize(from: $0) }
            jsonKey = UnsafeBufferPointer(keyBytes)
        }

        deinit {
            jsonKey.deallocate()
        }

        /// The field's name, for messages and for reading it by name.
        let name: String

        var isNonNull: Bool { isNonNull(at: 0) }

        /// Whether the type at `depth` wrappers in is non-null.
        @inline(__always)
        func isNonNull(at depth: Int) -> Bool {
            depth >= 0 && depth < wrappers.count && wrappers[depth] == .nonNull
        }

        enum TypeWrapper {
            case nonNull, list

            static let none: [TypeWrapper] = []
            /// `T!`, `[T]`, `[T]!`, `[T!]!` and `[T!]`.
            static let shapes: [[TypeWrapper]] = [
                [.nonNull], [.list], [.nonNull, .list], [.nonNull, .list, .nonNull], [.list, .nonNull],
            ]
        }
    }

    /// What a plan of subfields depends on: the object type and the
    /// selection sets of all the field nodes merged, not only the first
    /// one's (a fragment spread under two fields gives their `best` the same
    /// first node, and each its own other nodes).
    private struct PlanKey: Hashable {
        var type: ObjectIdentifier
        var selectionSets: [Location]
    }

    /// CollectSubfields is the same for every object of a list: it is
    /// worked out once per type and merged field set.
    private var plans: [PlanKey: [PlannedField]] = [:]

    private func plan(_ type: GraphQLNamedType, _ grouped: FieldCollector.GroupedFields) -> [PlannedField] {
        (0..<grouped.count).map { index in
            let nodes = grouped.fields[index]
            let name = nodes[0].name.value
            guard name != "__typename" else {
                return PlannedField(
                    key: grouped.keys[index], nodes: nodes, definition: nil, parentType: type, resolution: .typename, info: nil
                )
            }
            guard let field = schema.schema.field(named: name, on: type) else {
                return PlannedField(
                    key: grouped.keys[index], nodes: nodes, definition: nil, parentType: type, resolution: .omitted, info: nil
                )
            }
            let resolution: PlannedField.Resolution
            let resolver = schema.resolver(for: field)
            if resolver != nil {
                resolution = .bound
            } else if type.name.hasPrefix("__") || field === MetaFields.schema || field === MetaFields.type {
                resolution = .introspection
            } else {
                resolution = .byName
            }
            // What the field's value will be asked for, worked out only if a
            // resolver looks ahead (only on object types).
            var lookahead: (@Sendable () -> Set<String>)?
            if case .input? = resolver, field.type.namedType.kind == .object {
                let (collector, named) = (collector, field.type.namedType)
                // A directive that cannot be coerced fails the field when it is completed; nothing to look ahead at.
                lookahead = { Set(((try? collector.collectSubfields(named, nodes))?.fields ?? []).map { $0[0].name.value }) }
            }
            let info = FieldInfo(
                fieldName: field.name, parentType: type, returnType: field.type, schema: schema.schema,
                variableValues: variableValues, lookahead: lookahead
            )
            return PlannedField(
                key: grouped.keys[index], nodes: nodes, definition: field, parentType: type, resolution: resolution, info: info,
                resolver: resolver
            )
        }
    }

    private var subplans: [[PlannedField]] = []

    func subfields(_ type: GraphQLNamedType, of field: PlannedField) throws(GraphQLError) -> [PlannedField] {
        let identity = ObjectIdentifier(type)
        if field.subplanType == identity { return subplans[field.subplan] }
        let planned = try subfields(type, field.nodes)
        field.subplanType = identity
        field.subplan = subplans.count
        subplans.append(planned)
        return planned
    }

    private func subfields(_ type: GraphQLNamedType, _ fieldNodes: [Field]) throws(GraphQLError) -> [PlannedField] {
        let selectionSets = fieldNodes.map { $0.selectionSet?.location ?? $0.location }
        guard !selectionSets.contains(.none) else { return try plan(type, collector.collectSubfields(type, fieldNodes)) }
        let key = PlanKey(type: ObjectIdentifier(type), selectionSets: selectionSets)
        if let cached = plans[key] { return cached }
        let planned = try plan(type, collector.collectSubfields(type, fieldNodes))
        plans[key] = planned
        return planned
    }

    /// Runs every waiting field, then writes their values in the order the
    /// fields were met; repeats while writing them leaves more waiting.
    private func drain() async {
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
                    outcome = round.outcomes[index].take() ?? .failure(timeoutError)
                case .deferred(let value):
                    outcome =
                        round.finishedBatches.contains(ObjectIdentifier(value.batch))
                        ? Result { try value.resolve() } : .failure(timeoutError)
                }
                fill(hole, with: outcome)
            }
        }
    }

    // MARK: Rounds of waiting work

    /// How long the values of a round are written before the thread is yielded.
    static let yieldInterval = Duration.milliseconds(2)

    private var isPastDeadline: Bool {
        guard let deadline else { return false }
        return ContinuousClock.now >= deadline
    }

    /// The error of a field the time budget left unfinished.
    private var timeoutError: GraphQLError { ExecutionLimits.timedOut(timeBudget ?? .zero) }

    /// Stops the execution with `error` as the response's only error.
    private func stop(_ error: GraphQLError) {
        guard !isStopped else { return }
        isStopped = true
        stopError = error
    }

    /// The fields still waiting when the time budget ran out: each null,
    /// with an error saying so, and what was completed stays.
    private func abandonPending() {
        let abandoned = pending
        pending = []
        let error = timeoutError
        for field in abandoned where !isStopped && !isAbandoned(field.hole) {
            fill(field.hole, with: .failure(error))
        }
    }

    /// A root field that is not run: null, with the time-budget error.
    private func skipField(_ planned: PlannedField, first: inout Bool) -> Bool {
        if planned.resolution == .omitted { return true }
        if !first { writer.byte(0x2C) }
        first = false
        writer.append(planned.jsonKey)
        frames[frames.count - 1].field = Unmanaged.passUnretained(planned)
        let valueStart = writer.count
        fail(timeoutError, planned.nodes)
        return finishFailedField(planned, valueStart)
    }

    /// Runs a round of waiting work: a task for each field's own work, and
    /// one for each batch that deferred values share (not one per value).
    /// With a deadline the round runs as a task of its own, raced against
    /// it, so that a load that does not answer (a database that is away)
    /// cannot hold the response past its budget: what finished by then is
    /// kept, the rest is cancelled and its results dropped.
    private func runRound(_ waits: [PendingField.Waiting]) async -> (
        outcomes: [Result<Resolved, any Error>?], finishedBatches: Set<ObjectIdentifier>
    ) {
        let round = Round(count: waits.count)
        guard let deadline else {
            await Self.run(waits, into: round)
            return round.end()
        }
        let body: @Sendable () async -> Void = { await Self.run(waits, into: round) }
        let work = workExecutor.map { Task(executorPreference: $0, operation: body) } ?? Task(operation: body)
        let cancelTimer: @Sendable () -> Void
        if let scheduler = workExecutor as? any DeadlineScheduling {
            cancelTimer = scheduler.schedule(at: deadline) { round.wake() }
        } else {
            let timer = Task {
                try? await Task.sleep(until: deadline, clock: .continuous)
                round.wake()
            }
            cancelTimer = { timer.cancel() }
        }
        await withTaskCancellationHandler {
            await round.finished()
        } onCancel: {
            round.wake()
        }
        cancelTimer()
        work.cancel()
        return round.end()
    }

    private static func run(_ waits: [PendingField.Waiting], into round: Round) async {
        await withTaskGroup(of: Void.self) { group in
            var batches: Set<ObjectIdentifier> = []
            var lastBatch: ObjectIdentifier?
            for index in waits.indices {
                switch waits[index] {
                case .work(let work):
                    group.addTask {
                        do { round.record(index, .success(try await work())) } catch { round.record(index, .failure(error)) }
                    }
                case .deferred(let value):
                    let runner = value.batch
                    let identity = ObjectIdentifier(runner)
                    // Loads of one loader come in runs; the set is for the rest.
                    guard identity != lastBatch else { continue }
                    lastBatch = identity
                    if batches.insert(identity).inserted {
                        group.addTask {
                            await runner.run()
                            round.recordBatch(identity)
                        }
                    }
                }
            }
        }
        round.wake()
    }

    /// Writes a hole's value into a segment of its own.
    private func fill(_ hole: Hole, with outcome: Result<Resolved, any Error>) {
        // The segment's fresh buffer is written through the executor's writer
        // and handed back at the end: no copy of its bytes.
        segment = ResponseSegment(capacity: 128)
        swap(&writer, &segment.writer)
        self.hole = hole
        frames = []
        let completion: Completion
        switch outcome {
        case .success(let resolved):
            completion = complete(resolved, depth: hole.depth, hole.field)
        case .failure(let error):
            fail(error, hole.field.nodes)
            completion = .failed
        }
        if completion == .failed {
            if hole.isNonNull {
                propagateNull(into: hole.parent)
            } else {
                truncate(to: 0)
                writer.null()
            }
        }
        setAsideBytes += writer.count
        swap(&writer, &segment.writer)
        hole.segment = segment
    }

    /// Whether a hole's value is no longer wanted: cut away, or below a value
    /// that was nulled since.
    private func isAbandoned(_ hole: Hole) -> Bool {
        if hole.isAbandoned || dataIsNull { return true }
        var region: Region? = hole.parent
        while let current = region {
            if current.isNull { return true }
            region = current.parent
        }
        return false
    }

    /// Drops what was written from `offset` on, abandoning the holes there.
    func truncate(to offset: Int) {
        writer.truncate(to: offset)
        segment.abandonHoles(from: offset)
    }

    // MARK: Frames and positions

    func openFrame(isList: Bool, isNonNull: Bool) {
        frames.append(Frame(start: writer.count, isList: isList, isNonNull: isNonNull))
        writer.byte(isList ? 0x5B : 0x7B)
    }

    func closeFrame() {
        let frame = frames.removeLast()
        writer.byte(frame.isList ? 0x5D : 0x7D)
        frame.region?.end = writer.count
        // Checked as each object and list closes: cheap, and often enough
        // that a response overshoots by at most one object's leaves.
        if writer.count > writeBudget, !isStopped {
            stop(ExecutionLimits.responseTooLarge(maxResponseBytes))
        }
    }

    /// The position of the value being completed: its parent's path and its own key or index.
    private func currentPosition() -> (parent: PathNode?, key: PathComponent) {
        if let top = frames.indices.last { return (path(ofFrame: top), component(ofFrame: top)) }
        // No frame is open only while a hole's own value is completed.
        let hole = hole!
        return (hole.parent.path, hole.component)
    }

    private func component(ofFrame index: Int) -> PathComponent {
        frames[index].isList ? .index(frames[index].index) : .key(frames[index].field!.takeUnretainedValue().key)
    }

    /// The position of an open object or list.
    private func path(ofFrame index: Int) -> PathNode? {
        if frames[index].hasPath { return frames[index].path }
        let made = index == 0 ? hole?.path : PathNode(component(ofFrame: index - 1), parent: path(ofFrame: index - 1))
        frames[index].path = made
        frames[index].hasPath = true
        return made
    }

    /// An open object or list as a region, made with those around it when a
    /// hole is first left below it.
    private func region(ofFrame index: Int) -> Region {
        if let region = frames[index].region { return region }
        let parent = index == 0 ? hole?.parent : region(ofFrame: index - 1)
        let made = Region(
            segment: segment, start: frames[index].start, isNonNull: frames[index].isNonNull, parent: parent,
            path: path(ofFrame: index)
        )
        frames[index].region = made
        return made
    }

    /// Leaves a hole at the current position for a value that must wait.
    private func leaveHole(_ waiting: PendingField.Waiting, depth: Int, _ field: PlannedField) {
        let parent: Region
        let component: PathComponent
        if let top = frames.indices.last {
            (parent, component) = (region(ofFrame: top), self.component(ofFrame: top))
        } else {
            // A hole's value that must wait again takes the hole's place.
            let outer = hole!
            (parent, component) = (outer.parent, outer.component)
        }
        let made = Hole(offset: writer.count, parent: parent, component: component, depth: depth, field: field)
        segment.holes.append(made)
        pending.append(PendingField(waiting: waiting, hole: made))
        guard maxHeldBytes != .max else { return }
        // A page of a hundred friends for each of a thousand users is
        // refused here, before its one load brings a hundred thousand rows.
        if field.expectedObjects == 0 {
            field.expectedObjects =
                field.definition.map {
                    FieldSizeDeclaration($0).expectedObjects($0, field.nodes[0], variableValues, defaultListSize: defaultListSize)
                } ?? 1
        }
        // An item of a list that waits is one object of the list's.
        waitingBytes &+= ExecutionLimits.bytesPerWaitingValue &* (depth == 0 ? field.expectedObjects : 1)
        if waitingBytes &+ setAsideBytes &+ writer.count > maxHeldBytes {
            stop(ExecutionLimits.heldTooMuch(maxHeldBytes))
        }
    }

    // MARK: Fields

    /// ExecuteField: resolve, then complete, one field of the object being
    /// written. False when the object fails with it (a non-null field failed),
    /// which, as in graphql-js, ends the work on the object.
    private func executeField(
        _ objectType: GraphQLNamedType, _ parent: Parent, _ planned: PlannedField, members: [GraphQLValue.Member]?,
        first: inout Bool,
        instance: inout ParentInstance
    ) -> Bool {
        if writeKey(objectType, planned, first: &first) { return true }
        if let kind = planned.memberLeafKind, let members,
            Self.writeMember(planned, kind, of: members, to: &writer)
        {
            return true
        }
        frames[frames.count - 1].field = Unmanaged.passUnretained(planned)
        let valueStart = writer.count
        let completion: Completion
        do {
            let resolved: Resolved
            if planned.resolution == .introspection {
                // Introspection values are completed without becoming `Resolved`.
                completion = completeIntrospected(try introspect(planned, instance.introspected(parent)), depth: 0, planned)
                return completion != .failed || finishFailedField(planned, valueStart)
            }
            if let instanceClass = planned.instanceClass, !planned.hasArguments,
                let object = instance.object(of: parent, ifInstanceOf: instanceClass)
            {
                resolved = try planned.instanceResolver!(object)
            } else if planned.resolution == .byName, let members {
                resolved = Self.member(planned, of: members)
            } else {
                resolved = try resolve(planned, parent, &instance)
            }
            completion = complete(resolved, depth: 0, planned)
        } catch {
            fail(error, planned.nodes)
            completion = .failed
        }
        return completion != .failed || finishFailedField(planned, valueStart)
    }

    /// Writes the field's key, after a comma unless it is the object's first;
    /// true when that is all there is to do: `__typename` is written with
    /// it, and a field the type lacks is left out. Validation keeps unknown
    /// fields out; an unvalidated one is left out, as graphql-js does.
    @inline(__always)
    func writeKey(_ objectType: GraphQLNamedType, _ planned: PlannedField, first: inout Bool) -> Bool {
        if planned.resolution == .omitted { return true }
        if !first { writer.byte(0x2C) }
        first = false
        writer.append(planned.jsonKey)
        guard planned.resolution == .typename else { return false }
        writer.string(objectType.name)
        return true
    }

    /// The non-null wrapper of CompleteValue: how the inner value was
    /// completed, except that a null there is a field error.
    @inline(__always)
    func completeNonNull(_ inner: Completion, _ field: PlannedField) -> Completion {
        guard inner == .null else { return inner }
        failNullInNonNull(field)
        return .failed
    }

    /// A field whose value failed: null where it may be, written from
    /// `valueStart`; false, for its object to fail in turn, where it is non-null.
    func finishFailedField(_ planned: PlannedField, _ valueStart: Int) -> Bool {
        if planned.isNonNull { return false }
        truncate(to: valueStart)
        writer.null()
        return true
    }

    private func resolve(_ planned: PlannedField, _ parent: Parent, _ instance: inout ParentInstance) throws -> Resolved {
        let arguments = planned.hasArguments ? try coerceArguments(planned) : [:]
        switch planned.resolution {
        case .bound:
            if let resolver = planned.parentResolver { return try resolver(parent) }
            let resolver = planned.inputResolver!
            let (parentPath, key) = currentPosition()
            let info = ResolveInfo(field: planned.info!, parentPath: parentPath, key: key)
            return try resolver(ResolverInput(parent: parent, arguments: arguments, context: context, info: info))
        case .introspection:
            return try introspect(planned, instance.introspected(parent)).resolved
        case .byName, .typename, .omitted:
            return Self.defaultResolve(parent, planned.name)
        }
    }

    /// CoerceArgumentValues for a field of the plan.
    /// They depend only on the field's node and the operation's variables,
    /// so they are the same for every object: coerced once per plan.
    func coerceArguments(_ planned: PlannedField) throws -> [String: GraphQLValue] {
        if let coerced = planned.coercedArguments { return coerced }
        let node = planned.nodes[0]
        let coerced = try ArgumentValues.coerce(
            definitions: planned.definition!.arguments, arguments: node.arguments, variableValues: variableValues,
            node: node.location, source: source
        )
        planned.coercedArguments = coerced
        return coerced
    }

    /// graphql-js's default resolver over a JSON object: its member of the field's name.
    @inline(__always)
    private static func member(_ planned: PlannedField, of members: [GraphQLValue.Member]) -> Resolved {
        guard let index = memberIndex(planned, members) else { return .null }
        return .value(members[index].value)
    }

    @inline(__always)
    private static func memberIndex(_ planned: PlannedField, _ members: [GraphQLValue.Member]) -> Int? {
        let name = planned.name
        let hint = planned.memberHint
        if hint < members.count, members[hint].name == name { return hint }
        for index in members.indices where members[index].name == name {
            planned.memberHint = index
            return index
        }
        return nil
    }

    /// Writes a scalar member that already has its type's form (what result
    /// coercion would return unchanged), skipping the general path; false,
    /// having written nothing, for anything else.
    @inline(__always)
    private static func writeMember(
        _ planned: PlannedField, _ kind: ResultCoercion.LeafKind, of members: [GraphQLValue.Member], to writer: inout JSONWriter
    ) -> Bool {
        guard let index = memberIndex(planned, members), ResultCoercion.isSerialized(members[index].value, kind) else {
            return false
        }
        // Only scalars pass the check above: the general `value` (which
        // recurses into lists and objects) is not needed.
        switch members[index].value {
        case .string(let text): writer.string(text)
        case .int(let int): writer.int(int)
        case .float(let double): writer.double(double)
        case .boolean(let boolean): writer.bool(boolean)
        default: return false
        }
        return true
    }

    /// graphql-js's default resolver: the parent's property of the field's name.
    static func defaultResolve(_ parent: Parent, _ name: String) -> Resolved {
        if case .object(let object) = parent {
            return (object as? FieldReadable)?.resolve(field: name) ?? .null
        }
        return parent[member: name].map(Resolved.value) ?? .null
    }

    // MARK: Completing values

    /// CompleteValue: writes the resolved value as the field's type requires,
    /// or leaves a hole for it when it must wait.
    func complete(_ resolved: consuming Resolved, depth: Int, _ field: PlannedField) -> Completion {
        // A value that must wait is completed later, against the whole type.
        if resolved.waits {
            switch consume resolved {
            case .async(let work): leaveHole(.work(work), depth: depth, field)
            case .deferred(let value): leaveHole(.deferred(value), depth: depth, field)
            default: break
            }
            return .written
        }
        if depth < field.wrappers.count {
            switch field.wrappers[depth] {
            case .nonNull:
                return completeNonNull(complete(resolved, depth: depth + 1, field), field)
            case .list:
                let isNonNull = field.isNonNull(at: depth - 1)
                switch consume resolved {
                case .null, .value(.null):
                    writer.null()
                    return .null
                case .list(let items):
                    return completeList(items.count, depth: depth + 1, field, isNonNull: isNonNull) { items[$0] }
                case .value(.list(let values)):
                    // JSON objects as items of an object type: each is the parent
                    // of the item's selections as it stands, no `Resolved` between.
                    if field.namedType.kind == .object,
                        depth + 1 == field.wrappers.count
                            || (depth + 2 == field.wrappers.count && field.wrappers[depth + 1] == .nonNull)
                    {
                        return completeObjectList(values, depth: depth + 1, field, isNonNull: isNonNull)
                    }
                    return completeList(values.count, depth: depth + 1, field, isNonNull: isNonNull) { .value(values[$0]) }
                default:
                    fail(
                        GraphQLError(
                            message: "Expected Iterable, but did not find one for field \"\(field.parentType.name).\(field.name)\"."),
                        field.nodes
                    )
                    return .failed
                }
            }
        }
        let isNonNull = field.isNonNull(at: depth - 1)
        switch consume resolved {
        case .null, .value(.null), .async, .deferred:
            writer.null()
            return .null
        case .value(let value):
            if let leafKind = field.leafKind {
                switch ResultCoercion.serialize(value, leafKind, field.namedType) {
                case .success(let serialized):
                    writer.value(serialized)
                    return .written
                case .failure(let error):
                    fail(GraphQLError(message: error.message), field.nodes)
                    return .failed
                }
            }
            return completeComposite(field.namedType, .value(value), nil, field, isNonNull: isNonNull)
        case .object(let object, let typename):
            guard field.leafKind == nil else {
                fail(GraphQLError(message: "\(field.namedType.name) cannot represent value: [object]"), field.nodes)
                return .failed
            }
            return completeComposite(field.namedType, .object(object), typename, field, isNonNull: isNonNull)
        case .list:
            guard field.leafKind == nil else {
                fail(GraphQLError(message: "\(field.namedType.name) cannot represent value: [object]"), field.nodes)
                return .failed
            }
            return completeComposite(field.namedType, .root, nil, field, isNonNull: isNonNull)
        }
    }

    /// The items of a list, each completed as the item type requires; a
    /// failed item is null, or fails the list where items are non-null.
    private func completeList(
        _ count: Int, depth: Int, _ field: PlannedField, isNonNull: Bool, _ item: (Int) -> Resolved
    ) -> Completion {
        openFrame(isList: true, isNonNull: isNonNull)
        let itemIsNonNull = field.isNonNull(at: depth)
        for index in 0..<count {
            if index > 0 { writer.byte(0x2C) }
            frames[frames.count - 1].index = index
            let itemStart = writer.count
            if complete(item(index), depth: depth, field) == .failed || isStopped {
                if itemIsNonNull || isStopped {
                    frames.removeLast()
                    return .failed
                }
                truncate(to: itemStart)
                writer.null()
            }
        }
        closeFrame()
        return .written
    }

    /// A JSON list whose items are objects of the field's object type (the
    /// item type is that type or that type non-null): as `completeList`
    /// would, but each item goes straight to its selections.
    private func completeObjectList(
        _ values: [GraphQLValue], depth: Int, _ field: PlannedField, isNonNull: Bool
    ) -> Completion {
        openFrame(isList: true, isNonNull: isNonNull)
        let itemIsNonNull = field.isNonNull(at: depth)
        for index in values.indices {
            if index > 0 { writer.byte(0x2C) }
            frames[frames.count - 1].index = index
            let itemStart = writer.count
            let completion: Completion
            if case .null = values[index] {
                if itemIsNonNull {
                    failNullInNonNull(field)
                    completion = .failed
                } else {
                    writer.null()
                    completion = .null
                }
            } else {
                completion = completeComposite(field.namedType, .value(values[index]), nil, field, isNonNull: itemIsNonNull)
            }
            if completion == .failed || isStopped {
                if itemIsNonNull || isStopped {
                    frames.removeLast()
                    return .failed
                }
                truncate(to: itemStart)
                writer.null()
            }
        }
        closeFrame()
        return .written
    }

    /// An object, interface or union value: its object type's selections
    /// executed on it.
    private func completeComposite(
        _ named: GraphQLNamedType, _ parent: Parent, _ typename: String?, _ field: PlannedField, isNonNull: Bool
    ) -> Completion {
        switch named.kind {
        case .object:
            return completeObject(named, parent, field, isNonNull: isNonNull)
        case .interface, .union:
            guard let objectType = resolveAbstractType(named, parent, typename, field) else { return .failed }
            return completeObject(objectType, parent, field, isNonNull: isNonNull)
        default:
            writer.null()
            return .null
        }
    }

    /// A value of an object type: the type's selections executed on it.
    /// (The type is a parameter, borrowed, rather than a local: a local
    /// was retained and released for every object.)
    @inline(__always)
    private func completeObject(_ objectType: GraphQLNamedType, _ parent: Parent, _ field: PlannedField, isNonNull: Bool) -> Completion {
        guard let fields = plannedSubfields(objectType, of: field) else { return .failed }
        openFrame(isList: false, isNonNull: isNonNull)
        var instance = ParentInstance()
        var first = true
        // A JSON object's members, taken out once and lent to each field.
        var members: [GraphQLValue.Member]?
        if case .value(.object(let objectMembers)) = parent { members = objectMembers }
        for index in fields.indices {
            // The plan holds its fields for the whole execution: borrowing each
            // spares a retain and a release per field of every object.
            let succeeded = Unmanaged.passUnretained(fields[index])._withUnsafeGuaranteedRef { planned in
                executeField(objectType, parent, planned, members: members, first: &first, instance: &instance)
            }
            guard succeeded, !isStopped else {
                frames.removeLast()
                return .failed
            }
        }
        closeFrame()
        return .written
    }

    /// The subfields of a field on the object type being completed, or nil
    /// with the field error when they cannot be collected.
    func plannedSubfields(_ objectType: GraphQLNamedType, of field: PlannedField) -> [PlannedField]? {
        do {
            return try subfields(objectType, of: field)
        } catch {
            fail(error, field.nodes)
            return nil
        }
    }

    /// ResolveAbstractType: the object type of a value of an interface or union.
    private func resolveAbstractType(
        _ abstractType: GraphQLNamedType, _ parent: Parent, _ explicit: String?, _ field: PlannedField
    ) -> GraphQLNamedType? {
        var typename = explicit
        if typename == nil {
            if let typeResolver = schema.typeResolver(for: abstractType) {
                let (parentPath, key) = currentPosition()
                let info = ResolveInfo(
                    field: field.info
                        ?? FieldInfo(
                            fieldName: field.name, parentType: field.parentType, returnType: .named(abstractType),
                            schema: schema.schema, variableValues: variableValues
                        ),
                    parentPath: parentPath, key: key
                )
                typename = typeResolver(parent, info)
            } else if case .value(let value) = parent, case .string(let name)? = value["__typename"] {
                typename = name
            }
        }
        let schema = self.schema.schema
        guard let typename else {
            fail(
                GraphQLError(
                    message:
                        "Abstract type \"\(abstractType.name)\" must resolve to an Object type at runtime for field \"\(field.parentType.name).\(field.name)\". Either the \"\(abstractType.name)\" type should provide a \"resolveType\" function or each possible type should provide an \"isTypeOf\" function."
                ), field.nodes)
            return nil
        }
        guard let runtimeType = schema.type(named: typename) else {
            fail(
                GraphQLError(
                    message:
                        "Abstract type \"\(abstractType.name)\" was resolved to a type \"\(typename)\" that does not exist inside the schema."
                ), field.nodes)
            return nil
        }
        guard runtimeType.kind == .object else {
            fail(
                GraphQLError(message: "Abstract type \"\(abstractType.name)\" was resolved to a non-object type \"\(typename)\"."),
                field.nodes)
            return nil
        }
        guard schema.isSubType(abstractType, runtimeType) else {
            fail(
                GraphQLError(message: "Runtime Object type \"\(typename)\" is not a possible type for \"\(abstractType.name)\"."),
                field.nodes)
            return nil
        }
        return runtimeType
    }

    // MARK: Errors

    /// A field error at the current position, reported once with the field's
    /// locations and path. Nulling is the caller's: the position, or (for a
    /// non-null position) the nearest nullable one above it.
    func fail(_ error: any Error, _ fieldNodes: [Field]) {
        let (parentPath, key) = currentPosition()
        var path = [key]
        var node = parentPath
        while let current = node {
            path.append(current.component)
            node = current.parent
        }
        path.reverse()
        var located: GraphQLError
        if let graphQLError = error as? GraphQLError {
            located = graphQLError
            if located.path == nil {
                if located.locations.isEmpty {
                    located.locations = fieldNodes.map { source.location(at: $0.location.start) }
                }
                located.path = path
            }
        } else if let failure = error as? FieldFailure {
            located = GraphQLError(
                message: failure.message, locations: fieldNodes.map { source.location(at: $0.location.start) }, path: path)
        } else if let unexpectedError = schema.unexpectedError {
            located = unexpectedError(error)
            located.locations = fieldNodes.map { source.location(at: $0.location.start) }
            located.path = path
        } else {
            located = GraphQLError(
                message: String(describing: error), locations: fieldNodes.map { source.location(at: $0.location.start) }, path: path
            )
        }
        errors.append(located)
    }

    /// The field error for a null where the field's type at the current
    /// position is non-null.
    func failNullInNonNull(_ field: PlannedField) {
        fail(FieldFailure("Cannot return null for non-nullable field \(field.parentType.name).\(field.name)."), field.nodes)
    }

    /// A non-null value inside `region` failed after the region was written:
    /// the region becomes null, or, where its own position is non-null, the
    /// region around it does, and so on up to the data.
    private func propagateNull(into region: Region) {
        var current: Region? = region
        while let candidate = current {
            if !candidate.isNonNull {
                candidate.isNull = true
                candidate.segment.nulled.append(candidate)
                return
            }
            current = candidate.parent
        }
        dataIsNull = true
    }

    struct FieldFailure: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }
}

/// A Swift value that answers for its fields by name, so that an object type
/// reading fields by name can take it as a parent (as it takes JSON).
public protocol FieldReadable: Sendable {
    func resolve(field name: String) -> Resolved
}

/// What a round of waiting work has finished so far, recorded by its tasks
/// as they finish and read once, when the round ends or its deadline comes.
private final class Round: Sendable {
    private struct State {
        var outcomes: [Result<Resolved, any Error>?]
        var finishedBatches: Set<ObjectIdentifier> = []
        var isOver = false
        var woken = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state: Mutex<State>

    init(count: Int) {
        state = Mutex(State(outcomes: Array(repeating: nil, count: count)))
    }

    func record(_ index: Int, _ outcome: Result<Resolved, any Error>) {
        state.withLock { if !$0.isOver { $0.outcomes[index] = outcome } }
    }

    func recordBatch(_ identity: ObjectIdentifier) {
        state.withLock { if !$0.isOver { $0.finishedBatches.insert(identity) } }
    }

    /// The round is done, or its time is up: lets `finished` return.
    func wake() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.woken = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    func finished() async {
        await withCheckedContinuation { continuation in
            let woken = state.withLock { state -> Bool in
                if state.woken { return true }
                state.waiter = continuation
                return false
            }
            if woken { continuation.resume() }
        }
    }

    /// What finished; anything that finishes later is dropped.
    func end() -> (outcomes: [Result<Resolved, any Error>?], finishedBatches: Set<ObjectIdentifier>) {
        state.withLock { state in
            state.isOver = true
            return (state.outcomes, state.finishedBatches)
        }
    }
}
