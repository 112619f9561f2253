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
    let operation: OperationDefinition
    switch selectOperation(document, operationName) {
    case .success(let selected): operation = selected
    case .failure(let error): return .failure(ExecutionResult(data: nil, errors: [error]))
    }
    let variableValues: [String: GraphQLValue]
    switch VariableValues.coerce(schema: schema.schema, definitions: operation.variableDefinitions, inputs: variables, source: source) {
    case .success(let values): variableValues = values
    case .failure(let failure): return .failure(ExecutionResult(data: nil, errors: failure.errors))
    }
    guard operation.operation == .subscription, let rootType = schema.schema.subscriptionType else {
        return .failure(ExecutionResult(data: nil, errors: [notConfigured(operation, source)]))
    }
    if let refusal = limits.measure(operation, in: document, schema: schema.schema, variableValues: variableValues, memo: memo).refusal {
        return .failure(ExecutionResult(data: nil, errors: [refusal]))
    }
    // Measured once here: each event keeps only the bounds on running it.
    let eventLimits = limits.whileRunning
    // CreateSourceEventStream: the one root field's stream.
    let collector = FieldCollector(schema: schema.schema, document: document, variableValues: variableValues, source: source)
    let fields: FieldCollector.GroupedFields
    do {
        fields = try collector.collectFields(rootType, operation.selectionSet)
    } catch {
        return .failure(ExecutionResult(data: nil, errors: [error]))
    }
    guard let key = fields.keys.first, let node = fields.fields.first?.first,
        let field = rootType.field(named: node.name.value)
    else {
        return .failure(
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
        return .failure(
            ExecutionResult(
                data: nil,
                errors: [
                    GraphQLError(
                        message: "Subscription field \"\(rootType.name).\(field.name)\" has no source event stream.",
                        locations: locations, path: [.key(key)]
                    )
                ]))
    }
    let events: AsyncThrowingStream<Parent, any Error>
    do {
        let arguments = try ArgumentValues.coerce(
            definitions: field.arguments, arguments: node.arguments, variableValues: variableValues,
            node: node.location, source: source
        )
        let info = ResolveInfo(
            fieldName: field.name, parentType: rootType, returnType: field.type, parentPath: nil, key: .key(key),
            schema: schema.schema, variableValues: variableValues
        )
        events = try await subscriber(ResolverInput(parent: .root, arguments: arguments, context: context(), info: info))
    } catch {
        var located = (error as? GraphQLError) ?? GraphQLError(message: String(describing: error))
        if located.locations.isEmpty { located.locations = locations }
        if located.path == nil { located.path = [.key(key)] }
        return .failure(ExecutionResult(data: nil, errors: [located]))
    }
    // MapSourceToResponseEvent: every event executed as its own response,
    // lazily and in the consumer's task, so resolvers run on the consumer's
    // executor (a server's event loop) and not on whatever thread produced
    // the event.
    let variablesCopy = variables
    let shape = sharedEvents.map { _ in
        SharedEventExecutions.Shape(document: source.body, operationName: operationName, variables: variables, limits: eventLimits)
    }
    // Who asks is the same for every event of one subscription; runs are
    // shared only where the context can tell whether a run read it.
    let viewerKey = sharedEvents == nil ? nil : (context() as? ViewerScopedContext)?.viewerKey
    let eventSource = EventSource(events)
    let responses = AsyncStream<ExecutionResult>(unfolding: {
        guard !eventSource.finished else { return nil }
        do {
            guard let event = try await eventSource.next() else {
                eventSource.finished = true
                return nil
            }
            func run(_ eventContext: any Sendable) async -> ExecutionResult {
                await execute(
                    schema: schema, document: document, source: source,
                    operationName: operationName, variables: variablesCopy, rootValue: event, context: eventContext,
                    limits: eventLimits, workExecutor: workExecutor
                )
            }
            guard let sharedEvents, let shape, let viewerKey, case .object(let value) = event,
                let occurrence = (value as? SharedSourceEvent)?.occurrence
            else { return await run(context()) }
            // A subscriber that shares a run makes no context for the event.
            return await sharedEvents.result(occurrence: occurrence, shape: shape, viewer: viewerKey) {
                let eventContext = context()
                let result = await run(eventContext)
                return (result, (eventContext as? ViewerScopedContext)?.hasReadViewer ?? true)
            }
        } catch {
            eventSource.finished = true
            let message = (error as? GraphQLError)?.message ?? String(describing: error)
            return ExecutionResult(data: nil, errors: [GraphQLError(message: message)])
        }
    })
    return .stream(responses)
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
