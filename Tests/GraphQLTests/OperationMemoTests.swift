import GraphQL
import Testing

/// A cached document's `OperationMemo`: an operation is measured once per
/// name and variables, the measure and the refusal it gives are the ones a
/// fresh measure gives, and a document run with many variables keeps at
/// most `maxVariants` measures.
@Suite struct OperationMemoTests {
    static let executable: ExecutableSchema = {
        var builder = ExecutableSchema.Builder(schema: OperationCostTests.schema)
        for type in ["Query", "User", "Pet", "UserConnection", "UserEdge"] { builder.readFieldsByName(type) }
        builder.resolveType("Node") { _, _ in "User" }
        builder.resolveType("Result") { _, _ in "User" }
        return try! builder.build()
    }()

    static let query = "query Q($n: Int) { me { friends(first: $n) { nodes { id } } } } query R { me { name } }"

    func run(_ memo: OperationMemo?, _ name: String, _ variables: [GraphQLValue.Member] = [], maxCost: Int? = nil) async throws
        -> ExecutionResult
    {
        var limits = ExecutionLimits.default
        limits.maxCost = maxCost
        limits.maxExecutionTime = nil
        return await execute(
            schema: Self.executable, document: try parse(Self.query), source: Source(body: Self.query), operationName: name,
            variables: variables, rootValue: .value(.object([])), limits: limits, memo: memo)
    }

    @Test func anOperationIsMeasuredOncePerNameAndVariables() async throws {
        let memo = OperationMemo()
        let first = try await run(memo, "Q", [.init("n", .int(10))])
        let again = try await run(memo, "Q", [.init("n", .int(10))])
        #expect(memo.count == 1)
        #expect(first.cost == again.cost)
        #expect(again.cost == (try await run(nil, "Q", [.init("n", .int(10))])).cost)
        // Other variables, another measure: the slicing argument changes the cost.
        let wider = try await run(memo, "Q", [.init("n", .int(50))])
        #expect(memo.count == 2)
        #expect(wider.cost?.cost != first.cost?.cost)
        _ = try await run(memo, "R")
        #expect(memo.count == 3)
    }

    @Test func aMemorisedMeasureRefusesAsAFreshOneDoes() async throws {
        let memo = OperationMemo()
        let limit = (try await run(nil, "Q", [.init("n", .int(10))])).cost!.cost
        _ = try await run(memo, "Q", [.init("n", .int(10))], maxCost: limit)
        let atLimit = try await run(memo, "Q", [.init("n", .int(10))], maxCost: limit)
        #expect(atLimit.errors.isEmpty)
        let over = try await run(memo, "Q", [.init("n", .int(10))], maxCost: limit - 1)
        #expect(over.errors.first?.code == "COST_LIMIT_EXCEEDED")
        #expect(over.data == nil)
    }

    @Test func manyVariantsAreMeasuredNotKept() async throws {
        let memo = OperationMemo()
        for n in 0..<(OperationMemo.maxVariants + 5) { _ = try await run(memo, "Q", [.init("n", .int(n))]) }
        #expect(memo.count == OperationMemo.maxVariants)
    }
}
