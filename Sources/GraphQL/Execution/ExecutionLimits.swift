/// The bounds of one execution. A document within the parser's limits can
/// still ask for unbounded work (each level of nested lists multiplies the
/// one above), so a server measures what an operation asks for before it
/// runs (`OperationCost`) and bounds what it will write.
///
/// The defaults were chosen from the apps' own screens (docs/operations.md, "Limits"):
/// a page of 20 nearby sessions with their players (up to 100 each) costs
/// about 6,300 and nests 5 deep, the feed's largest page (100 sessions)
/// about 22,000; a friends-of-friends list nests 8. The defaults leave
/// twice the largest page and refuse the nested pages of 100 that cost
/// millions.
public struct ExecutionLimits: Sendable, Hashable {
    /// The most bytes of response data, or nil for no limit. Past it the
    /// execution stops, starts no more waiting work, and the response is
    /// `data: null` with only the error that says so.
    public var maxResponseBytes: Int?
    /// The most bytes an execution may hold on the way to its response:
    /// what it has written, and the values still waiting to be (each taken
    /// as `bytesPerWaitingValue` times the objects it is expected to bring:
    /// its page size for a list or a connection, sized as `OperationCost`
    /// sizes it). A response within its limit can be preceded by far more
    /// waiting work than it will show (loads of pages that nest); past this
    /// the execution stops, as for `maxResponseBytes`, before the loads run.
    public var maxHeldBytes: Int?
    /// The highest `OperationCost.cost` an operation may have.
    public var maxCost: Int?
    /// The deepest field nesting (a root field is at depth 1).
    public var maxDepth: Int?
    /// Fields with an alias, in the operation and its fragments.
    public var maxAliases: Int?
    /// Root fields of one operation.
    public var maxRootFields: Int?
    /// Directives in the operation and its fragments.
    public var maxDirectives: Int?
    /// Nesting of introspection's `fields`, `interfaces`, `possibleTypes`
    /// and `inputFields` (graphql-js 17 refuses 3).
    public var maxIntrospectionDepth: Int?
    /// How many items a list is taken to hold when no argument or `@listSize` says.
    public var defaultListSize: Int
    /// How long an execution may take (each subscription event's, for a
    /// subscription). Past it no more waiting work is started or awaited:
    /// the fields still waiting are null with `OPERATION_TIMEOUT`, the rest
    /// of the response stands.
    public var maxExecutionTime: Duration?

    public init(
        maxResponseBytes: Int? = 16 << 20, maxCost: Int? = 50_000, maxDepth: Int? = 10, maxAliases: Int? = 15,
        maxRootFields: Int? = 20, maxDirectives: Int? = 50, maxIntrospectionDepth: Int? = 2, defaultListSize: Int = 20,
        maxExecutionTime: Duration? = .seconds(5), maxHeldBytes: Int? = 64 << 20
    ) {
        self.maxExecutionTime = maxExecutionTime
        self.maxHeldBytes = maxHeldBytes
        self.maxResponseBytes = maxResponseBytes
        self.maxCost = maxCost
        self.maxDepth = maxDepth
        self.maxAliases = maxAliases
        self.maxRootFields = maxRootFields
        self.maxDirectives = maxDirectives
        self.maxIntrospectionDepth = maxIntrospectionDepth
        self.defaultListSize = defaultListSize
    }

    /// What a server applies to clients' operations.
    public static let `default` = ExecutionLimits()

    /// No bounds: for trusted documents over local data (`huddle execute`, benchmarks).
    public static let unlimited = ExecutionLimits(
        maxResponseBytes: nil, maxCost: nil, maxDepth: nil, maxAliases: nil, maxRootFields: nil, maxDirectives: nil,
        maxIntrospectionDepth: nil, maxExecutionTime: nil, maxHeldBytes: nil
    )

    /// Whether any bound needs the operation measured.
    var measuresOperations: Bool {
        maxCost != nil || maxDepth != nil || maxAliases != nil || maxRootFields != nil || maxDirectives != nil
            || maxIntrospectionDepth != nil
    }

    /// `operation` measured, when a bound needs it, and the error of the
    /// first bound it is over.
    /// With `memo`, a measure made before for the same operation and
    /// variables is reused.
    func measure(
        _ operation: OperationDefinition, in document: Document, schema: GraphQLSchema, variableValues: [String: GraphQLValue],
        memo: OperationMemo? = nil
    ) -> (cost: OperationCost?, refusal: GraphQLError?) {
        guard measuresOperations else { return (nil, nil) }
        let key = memo.map { _ in
            OperationMemo.Key(operationName: operation.name?.value, variableValues: variableValues, defaultListSize: defaultListSize)
        }
        if let key, let measured = memo?.cost(for: key) { return (measured, refusal(of: measured)) }
        let measured = OperationCost.measure(
            schema: schema, document: document, operation: operation, variableValues: variableValues,
            defaultListSize: defaultListSize
        )
        if let key { memo?.keep(measured, for: key) }
        return (measured, refusal(of: measured))
    }

    /// The bounds on running an operation already measured (each event of
    /// a subscription, whose document and variables do not change).
    var whileRunning: ExecutionLimits {
        var limits = self
        (limits.maxCost, limits.maxDepth, limits.maxAliases, limits.maxRootFields, limits.maxDirectives, limits.maxIntrospectionDepth) =
            (nil, nil, nil, nil, nil, nil)
        return limits
    }

    /// The error for the first bound `measured` is over, if any: a request
    /// error, before any resolver runs, with the measure and the limit.
    public func refusal(of measured: OperationCost) -> GraphQLError? {
        // The message is made only for the bound that is over: every request is measured.
        func over(_ value: Int, _ limit: Int?, _ code: String, _ message: @autoclosure () -> String, _ measure: String) -> GraphQLError? {
            guard let limit, value > limit else { return nil }
            return GraphQLError(
                message: message(),
                extensions: [
                    .init("code", .string(code)), .init(measure, .int(value)), .init("limit", .int(limit)),
                ])
        }
        return over(
            measured.cost, maxCost, "COST_LIMIT_EXCEEDED",
            "The operation's cost is \(measured.cost), over the limit of \(maxCost ?? 0). Ask for fewer items (first/last) or fewer nested lists.",
            "cost")
            ?? over(
                measured.depth, maxDepth, "DEPTH_LIMIT_EXCEEDED",
                "The operation nests fields \(measured.depth) deep, over the limit of \(maxDepth ?? 0).", "depth")
            ?? over(
                measured.aliases, maxAliases, "ALIAS_LIMIT_EXCEEDED",
                "The operation has \(measured.aliases) aliases, over the limit of \(maxAliases ?? 0).", "aliases")
            ?? over(
                measured.rootFields, maxRootFields, "ROOT_FIELD_LIMIT_EXCEEDED",
                "The operation has \(measured.rootFields) root fields, over the limit of \(maxRootFields ?? 0).", "rootFields")
            ?? over(
                measured.directives, maxDirectives, "DIRECTIVE_LIMIT_EXCEEDED",
                "The operation has \(measured.directives) directives, over the limit of \(maxDirectives ?? 0).", "directives")
            ?? over(
                measured.introspectionDepth, maxIntrospectionDepth, "INTROSPECTION_DEPTH_EXCEEDED",
                "Maximum introspection depth exceeded", "introspectionDepth")
    }

    /// What one waiting value is taken to hold until it is written: its
    /// hole, its place in the plan and frames, and the object its load brought.
    static let bytesPerWaitingValue = 512

    /// The error an execution holding more than `maxHeldBytes` stops with.
    static func heldTooMuch(_ limit: Int) -> GraphQLError {
        .coded(
            "The operation holds more than the limit of \(limit) bytes of values still to be written; execution stopped.",
            code: "MEMORY_LIMIT_EXCEEDED")
    }

    /// The error of a field still waiting when the time budget ran out.
    static func timedOut(_ budget: Duration) -> GraphQLError {
        .coded("The operation ran past its time budget of \(budget); this field was not completed.", code: "OPERATION_TIMEOUT")
    }

    /// The error an execution whose task was cancelled (its client went away) stops with.
    static let cancelled = GraphQLError.coded("The operation was cancelled.", code: "CANCELLED")

    /// The error a response over `maxResponseBytes` ends with.
    static func responseTooLarge(_ limit: Int) -> GraphQLError {
        .coded("The response is larger than the limit of \(limit) bytes; execution stopped.", code: "RESPONSE_TOO_LARGE")
    }
}
