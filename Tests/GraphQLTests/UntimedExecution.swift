@testable import GraphQL

extension ExecutionLimits {
    /// The default limits without the time budget.
    static let untimed: ExecutionLimits = {
        var limits = ExecutionLimits.default
        limits.maxExecutionTime = nil
        return limits
    }()
}

/// The engine's `execute` as these tests call it: with the default limits
/// but no time budget unless a test passes one. Every suite runs at once on
/// a machine with two cores, and a test waiting that long for a thread would
/// see its fields nulled by the 5 s budget; the budget has tests of its own
/// (ExecutionTimeBudgetTests), which pass their limits.
func execute(
    schema: ExecutableSchema, document: Document, source: Source, operationName: String? = nil,
    variables: [GraphQLValue.Member] = [], rootValue: Parent = .root, context: any Sendable = (),
    limits: ExecutionLimits = .untimed, workExecutor: (any TaskExecutor)? = nil
) async -> ExecutionResult {
    await GraphQL.execute(
        schema: schema, document: document, source: source, operationName: operationName, variables: variables,
        rootValue: rootValue, context: context, limits: limits, workExecutor: workExecutor)
}
