import GraphQL
import Synchronization
import Testing

/// `ExecutionLimits.maxExecutionTime` and cancellation: past the budget,
/// fields still waiting are null with `OPERATION_TIMEOUT` and their work is
/// cancelled, what was completed stands, and no later mutation runs; a
/// cancelled execution starts no more waiting work.
@Suite struct ExecutionTimeBudgetTests {
    static let sdl = """
        type Query { quick: String slow: String slowList: [Item!] never: String! }
        type Mutation { first: String second: String }
        type Item { id: Int! later: String }
        """

    final class Probe: Sendable {
        /// Work that saw its task cancelled instead of finishing.
        let cancelled = Atomic(0)
        /// Work that ran to its end.
        let finished = Atomic(0)
        let mutations = Atomic(0)
    }

    /// Work that takes a minute unless it is cancelled.
    static func aMinute(_ probe: Probe) async -> Resolved {
        do {
            try await Task.sleep(for: .seconds(60))
            probe.finished.add(1, ordering: .relaxed)
            return .value(.string("late"))
        } catch {
            probe.cancelled.add(1, ordering: .relaxed)
            return .null
        }
    }

    func executable(_ probe: Probe) throws -> ExecutableSchema {
        var builder = ExecutableSchema.Builder(schema: try buildSchema(Self.sdl))
        builder.resolve("Query", "quick") { _ in .async { .value(.string("done")) } }
        builder.resolve("Query", "slow") { _ in .async { await Self.aMinute(probe) } }
        builder.resolve("Query", "never") { _ in .async { await Self.aMinute(probe) } }
        builder.resolve("Query", "slowList") { _ in .list((0..<3).map { .value(.object([.init("id", .int($0))])) }) }
        builder.resolve("Item", "id") { input in .value(input.parent[member: "id"] ?? .null) }
        builder.resolve("Item", "later") { _ in .async { await Self.aMinute(probe) } }
        builder.resolve("Mutation", "first") { _ in .async { await Self.aMinute(probe) } }
        builder.resolve("Mutation", "second") { _ in
            probe.mutations.add(1, ordering: .relaxed)
            return .value(.string("ran"))
        }
        return try builder.build()
    }

    @inline(never)
    func run(_ query: String, budget: Duration, _ probe: Probe) async throws -> ExecutionResult {
        var limits = ExecutionLimits.default
        limits.maxExecutionTime = budget
        let source = Source(body: query)
        return await execute(schema: try executable(probe), document: try parse(source), source: source, limits: limits)
    }

    @Test func fieldsStillWaitingAtTheBudgetAreNullAndTheRestStands() async throws {
        let probe = Probe()
        let result = try await run("{ quick slow slowList { id later } }", budget: .milliseconds(200), probe)
        #expect(
            result.json() == """
                {"errors":[{"message":"The operation ran past its time budget of 0.2 seconds; this field was not completed.","locations":[{"line":1,"column":9}],"path":["slow"],"extensions":{"code":"OPERATION_TIMEOUT"}},\
                {"message":"The operation ran past its time budget of 0.2 seconds; this field was not completed.","locations":[{"line":1,"column":28}],"path":["slowList",0,"later"],"extensions":{"code":"OPERATION_TIMEOUT"}},\
                {"message":"The operation ran past its time budget of 0.2 seconds; this field was not completed.","locations":[{"line":1,"column":28}],"path":["slowList",1,"later"],"extensions":{"code":"OPERATION_TIMEOUT"}},\
                {"message":"The operation ran past its time budget of 0.2 seconds; this field was not completed.","locations":[{"line":1,"column":28}],"path":["slowList",2,"later"],"extensions":{"code":"OPERATION_TIMEOUT"}}],\
                "data":{"quick":"done","slow":null,"slowList":[{"id":0,"later":null},{"id":1,"later":null},{"id":2,"later":null}]}}
                """)
        // The abandoned work was cancelled, not left to run its minute.
        for _ in 0..<200 where probe.cancelled.load(ordering: .relaxed) < 4 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(probe.cancelled.load(ordering: .relaxed) == 4)
        #expect(probe.finished.load(ordering: .relaxed) == 0)
    }

    @Test func aNonNullFieldPastTheBudgetNullsWhatHoldsIt() async throws {
        let result = try await run("{ quick never }", budget: .milliseconds(100), Probe())
        #expect(result.data == .null)
        #expect(result.errors.map(\.code) == ["OPERATION_TIMEOUT"])
    }

    @Test func noMutationRunsPastTheBudget() async throws {
        let probe = Probe()
        let result = try await run("mutation { first second }", budget: .milliseconds(100), probe)
        #expect(result.json().contains(#""data":{"first":null,"second":null}"#))
        #expect(result.errors.map(\.path) == [[.key("first")], [.key("second")]])
        #expect(probe.mutations.load(ordering: .relaxed) == 0)
    }

    @Test func aCancelledExecutionStopsAndStartsNoMoreWork() async throws {
        let probe = Probe()
        let executable = try executable(probe)
        let source = Source(body: "{ slow quick }")
        let document = try parse(source)
        let task = Task { await execute(schema: executable, document: document, source: source) }
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        let result = await task.value
        #expect(result.errors.map(\.code) == ["CANCELLED"])
        #expect(!result.hasData || result.data == .null)
        for _ in 0..<200 where probe.cancelled.load(ordering: .relaxed) < 1 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(probe.cancelled.load(ordering: .relaxed) == 1)
    }
}
