/// Subscribe (spec §6.2.3): CreateSourceEventStream, then
/// MapSourceToResponseEvent, each event executed as a response of its own.
public enum SubscriptionResult: Sendable {
    /// One response per event. Ending the iteration (or cancelling the task
    /// that iterates) ends the source stream too.
    case stream(AsyncStream<ExecutionResult>)
    /// A request error, or the subscribe resolver's error: no stream.
    case failure(ExecutionResult)
}

/// Subscribes to a subscription operation. `context` makes the context of
/// each event's execution, so each gets loaders of its own. With
/// `sharedEvents`, an event the source marks as shared (`SharedSourceEvent`)
/// runs once for all subscriptions asking the same of it, per viewer where
/// the run read who asked (`ViewerScopedContext`).
public func subscribe(
    schema: ExecutableSchema,
    document: Document,
    source: Source,
    operationName: String? = nil,
    variables: [GraphQLValue.Member] = [],
    context: @escaping @Sendable () -> any Sendable = { () },
    limits: ExecutionLimits = .default,
    workExecutor: (any TaskExecutor)? = nil,
    memo: OperationMemo? = nil,
    sharedEvents: SharedEventExecutions? = nil
) async -> SubscriptionResult {
    let prepared = await PreparedSubscription.make(
        schema: schema, document: document, source: source, operationName: operationName, variables: variables,
        context: context, limits: limits, workExecutor: workExecutor, memo: memo, sharedEvents: sharedEvents)
    switch prepared {
    case .failed(let result): return .failure(result)
    case .ready(let subscription): return .stream(subscription.responses())
    }
}

/// What `subscribe(…, pushingOn:)` gives.
public enum PushedSubscriptionResult: Sendable {
    /// Started with `SubscriptionFeed.start`, on the queue.
    case feed(SubscriptionFeed)
    case failure(ExecutionResult)
}

/// Subscribes as `subscribe` does, but hands each response to the caller
/// on `queue` (`SubscriptionFeed`) instead of waiting to be asked: a
/// subscription whose source is a feed holds no task while it waits, and
/// the subscribers of one shared event are handed its result in one job
/// per queue. `eventScope` runs around each event's execution (to give it
/// the task-local values of the operation, say).
public func subscribe(
    schema: ExecutableSchema,
    document: Document,
    source: Source,
    operationName: String? = nil,
    variables: [GraphQLValue.Member] = [],
    context: @escaping @Sendable () -> any Sendable = { () },
    limits: ExecutionLimits = .default,
    workExecutor: (any TaskExecutor)? = nil,
    memo: OperationMemo? = nil,
    sharedEvents: SharedEventExecutions? = nil,
    pushingOn queue: SubscriberQueue,
    eventScope: SubscriptionFeed.EventScope? = nil
) async -> PushedSubscriptionResult {
    let prepared = await PreparedSubscription.make(
        schema: schema, document: document, source: source, operationName: operationName, variables: variables,
        context: context, limits: limits, workExecutor: workExecutor, memo: memo, sharedEvents: sharedEvents)
    switch prepared {
    case .failed(let result): return .failure(result)
    case .ready(let subscription): return .feed(SubscriptionFeed(subscription, queue: queue, eventScope: eventScope))
    }
}

/// A subscription whose source event stream is made (CreateSourceEventStream
/// done), with what executing each of its events needs.
struct PreparedSubscription: Sendable {
    enum Events: Sendable {
        case stream(AsyncThrowingStream<Parent, any Error>)
        case feed(SourceEventFeed)
    }

    /// What making one gives: the subscription, or the response saying why not.
    enum Made: Sendable {
        case ready(PreparedSubscription)
        case failed(ExecutionResult)
    }

    let events: Events
    let context: @Sendable () -> any Sendable
    /// Shared runs: the registry, what this subscription asks of each
    /// event, and who asks (the same for every event of one subscription;
    /// runs are shared only where the context can tell whether a run read it).
    let sharing: (executions: SharedEventExecutions, shape: SharedEventExecutions.Shape, viewer: SharingKey)?
    private let execute: @Sendable (_ event: Parent, _ context: any Sendable) async -> ExecutionResult

    static func make(
        schema: ExecutableSchema, document: Document, source: Source, operationName: String?, variables: [GraphQLValue.Member],
        context: @escaping @Sendable () -> any Sendable, limits: ExecutionLimits, workExecutor: (any TaskExecutor)?,
        memo: OperationMemo?, sharedEvents: SharedEventExecutions?
    ) async -> Made {
        let operation: OperationDefinition
        switch selectOperation(document, operationName) {
        case .success(let selected): operation = selected
        case .failure(let error): return .failed(ExecutionResult(data: nil, errors: [error]))
        }
        let variableValues: [String: GraphQLValue]
        switch VariableValues.coerce(schema: schema.schema, definitions: operation.variableDefinitions, inputs: variables, source: source) {
        case .success(let values): variableValues = values
        case .failure(let failure): return .failed(ExecutionResult(data: nil, errors: failure.errors))
        }
        guard operation.operation == .subscription, let rootType = schema.schema.subscriptionType else {
            return .failed(ExecutionResult(data: nil, errors: [notConfigured(operation, source)]))
        }
        if let refusal = limits.measure(operation, in: document, schema: schema.schema, variableValues: variableValues, memo: memo).refusal
        {
            return .failed(ExecutionResult(data: nil, errors: [refusal]))
        }
        // Measured once here: each event keeps only the bounds on running it.
        let eventLimits = limits.whileRunning
        // CreateSourceEventStream: the one root field's stream.
        let collector = FieldCollector(schema: schema.schema, document: document, variableValues: variableValues, source: source)
        let fields: FieldCollector.GroupedFields
        do {
            fields = try collector.collectFields(rootType, operation.selectionSet)
        } catch {
            return .failed(ExecutionResult(data: nil, errors: [error]))
        }
        guard let key = fields.keys.first, let node = fields.fields.first?.first,
            let field = rootType.field(named: node.name.value)
        else {
            return .failed(
                ExecutionResult(
                    data: nil,
                    errors: [
                        GraphQLError(
                            message: "The subscription field \"\(fields.fields.first?.first?.name.value ?? "")\" is not defined.",
                            locations: fields.fields.first.map { $0.map { source.location(at: $0.location.start) } } ?? []
                        )
                    ]))
        }
        let locations = fields.fields[0].map { source.location(at: $0.location.start) }
        guard let subscriber = schema.subscriber(for: field) else {
            return .failed(
                ExecutionResult(
                    data: nil,
                    errors: [
                        GraphQLError(
                            message: "Subscription field \"\(rootType.name).\(field.name)\" has no source event stream.",
                            locations: locations, path: [.key(key)]
                        )
                    ]))
        }
        let events: Events
        do {
            let arguments = try ArgumentValues.coerce(
                definitions: field.arguments, arguments: node.arguments, variableValues: variableValues,
                node: node.location, source: source
            )
            let info = ResolveInfo(
                fieldName: field.name, parentType: rootType, returnType: field.type, parentPath: nil, key: .key(key),
                schema: schema.schema, variableValues: variableValues
            )
            let input = ResolverInput(parent: .root, arguments: arguments, context: context(), info: info)
            switch subscriber {
            case .stream(let makeStream): events = .stream(try await makeStream(input))
            case .feed(let makeFeed): events = .feed(try await makeFeed(input))
            }
        } catch {
            var located = (error as? GraphQLError) ?? GraphQLError(message: String(describing: error))
            if located.locations.isEmpty { located.locations = locations }
            if located.path == nil { located.path = [.key(key)] }
            return .failed(ExecutionResult(data: nil, errors: [located]))
        }
        // MapSourceToResponseEvent: every event executed as its own response.
        let sharing = sharedEvents.flatMap { executions -> (SharedEventExecutions, SharedEventExecutions.Shape, SharingKey)? in
            guard let viewer = (context() as? ViewerScopedContext)?.viewerKey else { return nil }
            let shape = SharedEventExecutions.Shape(
                document: source.body, operationName: operationName, variables: variables, limits: eventLimits)
            return (executions, shape, viewer)
        }
        return .ready(
            PreparedSubscription(
                events: events, context: context, sharing: sharing,
                execute: { event, eventContext in
                    await GraphQL.execute(
                        schema: schema, document: document, source: source,
                        operationName: operationName, variables: variables, rootValue: event, context: eventContext,
                        limits: eventLimits, workExecutor: workExecutor
                    )
                }))
    }

    /// Runs `event` with a context of its own; whether the run read who asked.
    func run(_ event: Parent) async -> (ExecutionResult, readViewer: Bool) {
        let eventContext = context()
        let result = await execute(event, eventContext)
        return (result, (eventContext as? ViewerScopedContext)?.hasReadViewer ?? true)
    }

    /// The event's occurrence, when its runs may be shared.
    func occurrence(of event: Parent) -> SharingKey? {
        guard sharing != nil, case .object(let value) = event else { return nil }
        return (value as? SharedSourceEvent)?.occurrence
    }

    /// The response of a source stream's failure.
    static func failed(_ error: any Error) -> ExecutionResult {
        let message = (error as? GraphQLError)?.message ?? String(describing: error)
        return ExecutionResult(data: nil, errors: [GraphQLError(message: message)])
    }

    /// Each event executed as it is asked for, lazily and in the consumer's
    /// task, so resolvers run on the consumer's executor (a server's event
    /// loop) and not on whatever thread produced the event.
    func responses() -> AsyncStream<ExecutionResult> {
        let eventSource: EventSource
        switch events {
        case .stream(let stream): eventSource = EventSource(stream)
        case .feed(let feed): eventSource = EventSource(feed.stream)
        }
        return AsyncStream<ExecutionResult>(unfolding: {
            guard !eventSource.finished else { return nil }
            do {
                guard let event = try await eventSource.next() else {
                    eventSource.finished = true
                    return nil
                }
                guard let sharing, let occurrence = occurrence(of: event) else { return await run(event).0 }
                // A subscriber that shares a run makes no context for the event.
                return await sharing.executions.result(occurrence: occurrence, shape: sharing.shape, viewer: sharing.viewer) {
                    await run(event)
                }
            } catch {
                eventSource.finished = true
                return Self.failed(error)
            }
        })
    }
}

/// The source stream's iterator, advanced by one consumer at a time (the
/// task iterating the responses).
private final class EventSource: @unchecked Sendable {
    private var iterator: AsyncThrowingStream<Parent, any Error>.Iterator
    var finished = false

    init(_ events: AsyncThrowingStream<Parent, any Error>) {
        iterator = events.makeAsyncIterator()
    }

    func next() async throws -> Parent? {
        try await iterator.next()
    }
}
