/// Executes an operation with incremental delivery (`@defer`, `@stream`):
/// the initial result, then, while `hasNext`, the subsequent results from
/// `IncrementalExecution.next()`. An operation that defers nothing (or
/// whose schema lacks the directives) is `.complete`, one result as
/// `execute` gives.
public func executeIncrementally(
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
) async -> IncrementalExecutionResult {
    switch prepareExecution(
        schema: schema, document: document, source: source, operationName: operationName, variables: variables, context: context,
        limits: limits, workExecutor: workExecutor, incremental: true, memo: memo)
    {
    case .refused(let result):
        return .complete(result)
    case .ready(let executor, let operation, let rootType, let cost):
        var result = await executor.run(operation, rootType: rootType, rootValue: rootValue)
        result.cost = cost
        guard let state = executor.incremental, executor.stopError == nil, !executor.dataIsNull else {
            return .complete(result)
        }
        var pending: [PendingResult] = []
        executor.announce(state.initial.released, into: &pending)
        guard !pending.isEmpty else { return .complete(result) }
        result.pending = pending
        return .incremental(initial: result, IncrementalExecution(executor))
    }
}

public enum IncrementalExecutionResult: Sendable {
    /// Nothing was deferred: the one result.
    case complete(ExecutionResult)
    /// The initial result (with `pending` and `hasNext`), and the execution
    /// that gives the subsequent ones.
    case incremental(initial: ExecutionResult, IncrementalExecution)
}

/// The subsequent results of an incremental delivery. One consumer calls
/// `next()` until it returns nil (or stops calling it: nothing runs between
/// calls, so dropping the execution abandons what was still to come).
public final class IncrementalExecution: @unchecked Sendable {
    // Unchecked: the executor is used by one task at a time, the consumer's,
    // as `next()` is awaited call after call.
    private let executor: Executor
    private var isOver = false

    init(_ executor: Executor) {
        self.executor = executor
    }

    /// The next subsequent result; nil after the one whose `hasNext` is false.
    public func next() async -> SubsequentResult? {
        guard !isOver else { return nil }
        guard let result = await executor.nextSubsequentResult() else {
            isOver = true
            return nil
        }
        if !result.hasNext { isOver = true }
        return result
    }
}
