import GraphQL
import Synchronization
import Testing

/// `ExecutionLimits.maxResponseBytes`: a response as large as the limit is
/// written whole; one byte more stops the execution, which then starts no
/// waiting work and runs no further mutation, and answers with the error alone.
@Suite struct ExecutionLimitsTests {
    static let sdl = """
        type Query { items(count: Int!): [Item!]! later(count: Int!): [Item] }
        type Mutation { big(count: Int!): [Item!]! counted: Int }
        type Item { id: Int! name: String! child: Item }
        """

    /// Counts the resolvers that ran after they could have been stopped.
    final class Counter: Sendable {
        let children = Atomic(0)
        let mutations = Atomic(0)
    }

    func executable(_ counter: Counter) throws -> ExecutableSchema {
        var builder = ExecutableSchema.Builder(schema: try buildSchema(Self.sdl))
        let items: FieldResolver = { input in
            guard case .int(let count)? = input.argument("count") else { return .null }
            return .list((0..<count).map { .object(Item(id: $0)) })
        }
        builder.resolve("Query", "items", items)
        builder.resolve("Mutation", "big", items)
        builder.resolve("Query", "later") { input in
            let list = try items(input)
            return .async { list }
        }
        builder.resolve("Mutation", "counted") { _ in
            counter.mutations.add(1, ordering: .relaxed)
            return .value(.int(1))
        }
        builder.resolve("Item", "id") { input in .value(.int((input.parent.object as! Item).id)) }
        builder.resolve("Item", "name") { input in .value(.string("item \((input.parent.object as! Item).id)")) }
        builder.resolve("Item", "child") { input in
            let id = (input.parent.object as! Item).id
            return .async {
                counter.children.add(1, ordering: .relaxed)
                return .object(Item(id: id * 100))
            }
        }
        return try builder.build()
    }

    struct Item: Sendable {
        var id: Int
    }

    // Not inlined into the tests: inlined, an optimised build crashed the
    // compiler (Swift 6.3.1, splitting an async test's coroutine).
    @inline(never)
    func run(_ query: String, _ limits: ExecutionLimits, _ counter: Counter = Counter(), schema: ExecutableSchema? = nil) async throws
        -> ExecutionResult
    {
        let source = Source(body: query)
        return await execute(
            schema: try schema ?? executable(counter), document: try parse(source), source: source, limits: limits
        )
    }

    // The size limits below come without the default time budget (5 s): on
    // a loaded machine a run took 17 s, the budget nulled the waiting
    // children, and the response came out smaller than the limit under test.

    /// The bytes of the data of `query`'s response when nothing limits it.
    @inline(never)
    func dataBytes(_ query: String, schema: ExecutableSchema? = nil) async throws -> Int {
        let result = try await run(query, .unlimited, schema: schema)
        #expect(result.errors.isEmpty)
        return try #require(result.data?.json.utf8.count)
    }

    @Test func aResponseAsLargeAsTheLimitIsWrittenWhole() async throws {
        let query = "{ items(count: 100) { id name } }"
        let size = try await dataBytes(query)
        let atLimit = try await run(query, ExecutionLimits(maxResponseBytes: size, maxExecutionTime: nil))
        #expect(atLimit.errors.isEmpty)
        #expect(atLimit.data?.json.utf8.count == size)
    }

    @Test func oneByteMoreStopsTheExecutionWithOneError() async throws {
        let query = "{ items(count: 100) { id name } }"
        let size = try await dataBytes(query)
        let over = try await run(query, ExecutionLimits(maxResponseBytes: size - 1, maxExecutionTime: nil))
        #expect(
            over.json() == """
                {"errors":[{"message":"The response is larger than the limit of \(size - 1) bytes; execution stopped.","extensions":{"code":"RESPONSE_TOO_LARGE"}}],"data":null}
                """)
    }

    /// 1,000 items that come later, each with a child that would come later still.
    static let waitingQuery = "{ later(count: 1000) { id name child { id } } }"

    @Test func waitingValuesAreCountedAndNoMoreWaitingWorkStarts() async throws {
        let counter = Counter()
        let result = try await run(Self.waitingQuery, ExecutionLimits(maxResponseBytes: 2_000, maxExecutionTime: nil), counter)
        #expect(result.errors.map(\.message) == ["The response is larger than the limit of 2000 bytes; execution stopped."])
        #expect(result.data == .null)
        #expect(counter.children.load(ordering: .relaxed) == 0)
    }

    @Test func withoutALimitEveryWaitingValueIsWritten() async throws {
        let counter = Counter()
        let result = try await run(Self.waitingQuery, .unlimited, counter)
        #expect(result.errors.isEmpty)
        #expect(counter.children.load(ordering: .relaxed) == 1_000)
    }

    @Test func whatWasWrittenBeforeAWaitingValueCountsAgainstIt() async throws {
        // The synchronous part alone is within the limit; with the waiting
        // items it is over, so their children never start.
        let query = "{ items(count: 100) { id name } later(count: 100) { id child { id } } }"
        let synchronous = try await dataBytes("{ items(count: 100) { id name } }")
        let counter = Counter()
        let result = try await run(query, ExecutionLimits(maxResponseBytes: synchronous + 100, maxExecutionTime: nil), counter)
        #expect(result.errors.map(\.message) == ["The response is larger than the limit of \(synchronous + 100) bytes; execution stopped."])
        #expect(counter.children.load(ordering: .relaxed) == 0)
        let size = try await dataBytes(query)
        let atLimit = try await run(query, ExecutionLimits(maxResponseBytes: size, maxExecutionTime: nil))
        #expect(atLimit.errors.isEmpty)
        let over = try await run(query, ExecutionLimits(maxResponseBytes: size - 1, maxExecutionTime: nil))
        #expect(over.data == .null)
    }

    @Test func noMutationRunsAfterTheLimit() async throws {
        let counter = Counter()
        let result = try await run(
            "mutation { big(count: 1000) { id name } counted }", ExecutionLimits(maxResponseBytes: 1_000, maxExecutionTime: nil), counter)
        #expect(result.errors.map(\.message) == ["The response is larger than the limit of 1000 bytes; execution stopped."])
        #expect(counter.mutations.load(ordering: .relaxed) == 0)
        let small = try await run(
            "mutation { big(count: 1) { id } counted }", ExecutionLimits(maxResponseBytes: 1_000, maxExecutionTime: nil), counter)
        #expect(small.errors.isEmpty)
        #expect(counter.mutations.load(ordering: .relaxed) == 1)
    }

    @Test func introspectionIsBoundedToo() async throws {
        let schema = try executable(Counter())
        let query = "{ __schema { types { name fields { name type { name ofType { name } } } } } }"
        let size = try await dataBytes(query, schema: schema)
        let atLimit = try await run(query, ExecutionLimits(maxResponseBytes: size, maxExecutionTime: nil), schema: schema)
        #expect(atLimit.errors.isEmpty)
        let over = try await run(query, ExecutionLimits(maxResponseBytes: size - 1, maxExecutionTime: nil), schema: schema)
        #expect(over.errors.map(\.message) == ["The response is larger than the limit of \(size - 1) bytes; execution stopped."])
        #expect(over.data == .null)
    }

    // MARK: maxHeldBytes

    func held(_ limit: Int, _ counter: Counter = Counter()) async throws -> ExecutionResult {
        var limits = ExecutionLimits.unlimited
        limits.maxHeldBytes = limit
        return try await run(Self.waitingQuery, limits, counter)
    }

    @Test func waitingValuesBeyondTheHeldLimitStopTheExecutionBeforeTheyRun() async throws {
        let counter = Counter()
        let over = try await held(500 * ExecutionLimitsTests.bytesPerWaitingValue, counter)
        #expect(
            over.json() == """
                {"errors":[{"message":"The operation holds more than the limit of \(500 * ExecutionLimitsTests.bytesPerWaitingValue) bytes of values still to be written; execution stopped.","extensions":{"code":"MEMORY_LIMIT_EXCEEDED"}}],"data":null}
                """)
        #expect(counter.children.load(ordering: .relaxed) == 0)
    }

    @Test func anExecutionHoldingExactlyTheLimitRunsAndOneByteLessStops() async throws {
        // The least limit the query runs within, found by bisection.
        var (low, high) = (1, 4_000 * ExecutionLimitsTests.bytesPerWaitingValue)
        while low < high {
            let middle = (low + high) / 2
            if try await held(middle).errors.isEmpty { high = middle } else { low = middle + 1 }
        }
        let counter = Counter()
        let atLimit = try await held(low, counter)
        #expect(atLimit.errors.isEmpty)
        #expect(counter.children.load(ordering: .relaxed) == 1_000)
        let over = try await held(low - 1)
        #expect(over.errors.map(\.code) == ["MEMORY_LIMIT_EXCEEDED"])
        // 1,001 waiting values (the list, then each item's child) and what was written around them.
        #expect(low > 1_001 * ExecutionLimitsTests.bytesPerWaitingValue)
    }

    /// `ExecutionLimits.bytesPerWaitingValue`, as the engine counts it.
    static let bytesPerWaitingValue = 512
}
