import GraphQL
import Synchronization
import TestSupport
import Testing

/// Plans kept across runs (issue 36, item 2): an operation's plan is kept
/// by its document's memo, per operation and variables (byte for byte),
/// from a variant's second run, lent to the next run and given back when it
/// ends whole; the runs that borrow it answer as a fresh plan does; runs of
/// one variant at once each give theirs back, up to `maxPlansPerVariant`;
/// the plans kept are bounded per document (`OperationMemo.maxPlans`
/// variants, the oldest variant's plans replaced together;
/// `maxFieldsPerPlan`) and over all documents (`PlanBudget`), and a memo
/// let go gives its fields back.
@Suite struct KeptPlanTests {
    static let executable: ExecutableSchema = {
        let schema = try! buildSchema(
            """
            type Query { me: User things: [Thing] }
            union Thing = User | Pet
            type User { id: ID! name: String friends(first: Int): [User] }
            type Pet { id: ID! kind: String }
            """)
        return .readingFieldsByName(schema)
    }()

    static let root: GraphQLValue = {
        func user(_ id: Int) -> GraphQLValue {
            .object([.init("__typename", .string("User")), .init("id", .string("u\(id)")), .init("name", .string("User \(id)"))])
        }
        let friends = GraphQLValue.list((1...3).map(user))
        var me = [GraphQLValue.Member("__typename", .string("User")), .init("id", .string("u0")), .init("name", .string("Ana"))]
        me.append(.init("friends", friends))
        // Objects of alternating types: the plan's subplans switch at each.
        let things = (1...6).map { index -> GraphQLValue in
            index % 2 == 0
                ? .object([.init("__typename", .string("Pet")), .init("id", .string("p\(index)")), .init("kind", .string("cat"))])
                : user(index)
        }
        return .object([.init("me", .object(me)), .init("things", .list(things))])
    }()

    static let query = """
        query Q($n: Int, $named: Boolean = true) {
          me { id name @include(if: $named) friends(first: $n) { id name } }
          things { ... on User { id name } ... on Pet { id kind } }
        }
        """

    let source = Source(body: Self.query)
    let document: Document

    init() throws {
        document = try parse(source)
    }

    func run(_ memo: OperationMemo?, _ variables: [GraphQLValue.Member] = [], limits: ExecutionLimits = .unlimited) async
        -> ExecutionResult
    {
        await execute(
            schema: Self.executable, document: document, source: source, variables: variables, rootValue: .value(Self.root),
            limits: limits, memo: memo)
    }

    @Test func aPlanIsKeptAndLentToTheNextRun() async throws {
        let budget = PlanBudget(maxFields: 10_000)
        let memo = OperationMemo(planBudget: budget)
        let fresh = await run(nil, [.init("n", .int(2))]).json()
        #expect(fresh.contains(#""kind":"cat""#))
        var kept: [Int] = []
        for _ in 0..<6 {
            #expect(await run(memo, [.init("n", .int(2))]).json() == fresh)
            kept.append(budget.fieldsKept)
        }
        // The first run is only noted, the second keeps its plan, the four
        // after it borrow it; objects of alternating types do not make it grow.
        #expect(memo.plansLent.load(ordering: .relaxed) == 4)
        #expect(kept[0] == 0 && kept[1] > 0 && Set(kept.dropFirst()).count == 1)
    }

    @Test func plansAreKeptPerVariablesAtMostMaxPlans() async throws {
        let budget = PlanBudget(maxFields: 10_000)
        let memo = OperationMemo(planBudget: budget)
        for variables: [GraphQLValue.Member] in [
            [], [.init("named", .boolean(false))], [.init("n", .int(1))], [.init("n", .int(2))], [.init("n", .int(3))],
            [.init("n", .int(4))],
        ] {
            let fresh = await run(nil, variables).json()
            for _ in 0..<3 { #expect(await run(memo, variables).json() == fresh) }
        }
        // Six variants, each kept from its second run: the last four stay,
        // and the budget holds their fields, no more.
        #expect(memo.plansKept == OperationMemo.maxPlans)
        #expect(budget.fieldsKept > 0 && budget.fieldsKept <= OperationMemo.maxPlans * OperationMemo.maxFieldsPerPlan)
        let fieldsOfFour = budget.fieldsKept
        #expect(memo.plansLent.load(ordering: .relaxed) == 6)
        _ = await run(memo, [.init("n", .int(4))])
        #expect(memo.plansLent.load(ordering: .relaxed) == 7)
        _ = await run(memo, [])
        #expect(memo.plansLent.load(ordering: .relaxed) == 7)
        #expect(budget.fieldsKept == fieldsOfFour)
    }

    /// Holds every caller until `count` have come, then lets them all go:
    /// so many runs are under way at once.
    final class Barrier: Sendable {
        private let state = Mutex<(count: Int, arrived: Int, waiting: [CheckedContinuation<Void, Never>])>((1, 0, []))

        /// How many callers the next group is.
        func expect(_ count: Int) { state.withLock { $0.count = count } }

        func arrive() async {
            await withCheckedContinuation { continuation in
                let released = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                    state.arrived += 1
                    state.waiting.append(continuation)
                    guard state.arrived == state.count else { return [] }
                    defer { (state.arrived, state.waiting) = (0, []) }
                    return state.waiting
                }
                for waiting in released { waiting.resume() }
            }
        }
    }

    /// Runs of one variant at once: one borrows the plan kept, the others
    /// plan their own, and all give theirs back; as many runs at once next
    /// then all borrow one. One more at once than a variant keeps plans
    /// for leaves one run planning.
    @Test(.hangGuard)
    func runsAtOnceEachGiveTheirPlanBack() async throws {
        let barrier = Barrier()
        var builder = ExecutableSchema.Builder(schema: try buildSchema("type Query { item: Item } type Item { id: ID name: String }"))
        builder.resolve("Query", "item") { _ in
            .async {
                await barrier.arrive()
                return .value(.object([.init("id", .string("1")), .init("name", .string("one"))]))
            }
        }
        builder.readFieldsByName("Item")
        let executable = try builder.build()
        // One document, as a memo is one document's: the operation run at
        // once, and `maxPlans` more to run one at a time.
        let others = (1...OperationMemo.maxPlans).map { "V\($0)" }
        let source = Source(body: (["Q"] + others).map { "query \($0) { item { id name } }" }.joined(separator: "\n"))
        let document = try parse(source)
        let budget = PlanBudget(maxFields: 10_000)
        let memo = OperationMemo(planBudget: budget)
        let expected = #"{"data":{"item":{"id":"1","name":"one"}}}"#
        func runAtOnce(_ count: Int) async -> [String] {
            barrier.expect(count)
            return await withTaskGroup(of: String.self) { group in
                for _ in 0..<count {
                    group.addTask {
                        await execute(
                            schema: executable, document: document, source: source, operationName: "Q", limits: .unlimited, memo: memo
                        ).json()
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        let runs = OperationMemo.maxPlansPerVariant
        #expect(await runAtOnce(1) == [expected])
        #expect(await runAtOnce(1) == [expected])
        #expect(memo.plansKept == 1 && memo.plansLent.load(ordering: .relaxed) == 0)
        #expect(await runAtOnce(runs) == Array(repeating: expected, count: runs))
        #expect(memo.plansKept == runs && memo.plansLent.load(ordering: .relaxed) == 1)
        #expect(await runAtOnce(runs) == Array(repeating: expected, count: runs))
        #expect(memo.plansKept == runs && memo.plansLent.load(ordering: .relaxed) == 1 + runs)
        #expect(await runAtOnce(runs + 1) == Array(repeating: expected, count: runs + 1))
        #expect(memo.plansKept == runs && memo.plansLent.load(ordering: .relaxed) == 1 + 2 * runs)
        let fieldsOfOneVariant = budget.fieldsKept
        #expect(fieldsOfOneVariant > 0 && fieldsOfOneVariant % runs == 0)
        // Past `maxPlans` variants (the other operations run one at a time,
        // each kept from its second run), the first variant's plans go
        // together, and the budget gets all their fields back.
        barrier.expect(1)
        for name in others {
            for _ in 0..<2 {
                let result = await execute(
                    schema: executable, document: document, source: source, operationName: name, limits: .unlimited, memo: memo)
                #expect(result.json() == expected)
            }
        }
        #expect(memo.plansKept == OperationMemo.maxPlans)
        #expect(budget.fieldsKept == OperationMemo.maxPlans * fieldsOfOneVariant / runs)
    }

    /// The budget at the plan's own size keeps it; one field less does not.
    @Test func theBudgetBoundsThePlansKept() async throws {
        let measuring = PlanBudget(maxFields: 10_000)
        let measured = OperationMemo(planBudget: measuring)
        _ = await run(measured)
        _ = await run(measured)
        let fields = measuring.fieldsKept
        withExtendedLifetime(measured) {}
        #expect(fields > 0)
        let exact = PlanBudget(maxFields: fields)
        let kept = OperationMemo(planBudget: exact)
        _ = await run(kept)
        _ = await run(kept)
        #expect(kept.plansKept == 1 && exact.fieldsKept == fields)
        let short = PlanBudget(maxFields: fields - 1)
        let notKept = OperationMemo(planBudget: short)
        let fresh = await run(nil).json()
        #expect(await run(notKept).json() == fresh)
        #expect(await run(notKept).json() == fresh)
        #expect(notKept.plansKept == 0 && short.fieldsKept == 0)
        // A memo without a budget keeps none.
        let unbudgeted = OperationMemo()
        _ = await run(unbudgeted)
        _ = await run(unbudgeted)
        #expect(unbudgeted.plansKept == 0)
    }

    @Test func aMemoLetGoGivesItsFieldsBack() async throws {
        let budget = PlanBudget(maxFields: 10_000)
        var memo: OperationMemo? = OperationMemo(planBudget: budget)
        _ = await run(memo)
        _ = await run(memo)
        #expect(budget.fieldsKept > 0)
        memo = nil
        _ = memo
        #expect(budget.fieldsKept == 0)
    }

    /// A plan holds its schema's resolvers: one memo used with two schemas
    /// built apart (the same SDL, other resolvers) lends each only its own.
    @Test func aPlanIsLentOnlyToTheSchemaThatMadeIt() async throws {
        let schema = try buildSchema("type Query { greeting: String }")
        func executable(_ word: String) throws -> ExecutableSchema {
            var builder = ExecutableSchema.Builder(schema: schema)
            builder.resolve("Query", "greeting") { _ in .value(.string(word)) }
            return try builder.build()
        }
        let (hello, goodbye) = (try executable("hello"), try executable("goodbye"))
        let source = Source(body: "{ greeting }")
        let document = try parse(source)
        let memo = OperationMemo(planBudget: PlanBudget(maxFields: 100))
        for _ in 0..<2 {
            for (executable, word) in [(hello, "hello"), (goodbye, "goodbye")] {
                let result = await execute(schema: executable, document: document, source: source, limits: .unlimited, memo: memo)
                #expect(result.json() == #"{"data":{"greeting":"\#(word)"}}"#)
            }
        }
        #expect(memo.plansLent.load(ordering: .relaxed) == 0)
        // The same schema twice in a row: the second run borrows the first's plan.
        for _ in 0..<2 { _ = await execute(schema: hello, document: document, source: source, limits: .unlimited, memo: memo) }
        #expect(memo.plansLent.load(ordering: .relaxed) == 1)
    }

    /// A run a limit stopped gives back no plan: the next plans afresh.
    @Test func aRunCutShortGivesBackNoPlan() async throws {
        let memo = OperationMemo(planBudget: PlanBudget(maxFields: 10_000))
        _ = await run(memo)
        _ = await run(memo)
        #expect(memo.plansKept == 1)
        var limits = ExecutionLimits.unlimited
        limits.maxResponseBytes = 40
        let stopped = await run(memo, limits: limits)
        #expect(stopped.errors.first?.code == "RESPONSE_TOO_LARGE")
        #expect(memo.plansKept == 0 && memo.plansLent.load(ordering: .relaxed) == 1)
        _ = await run(memo)
        #expect(memo.plansKept == 1 && memo.plansLent.load(ordering: .relaxed) == 1)
    }

    /// A run whose time budget ran out with work still running gives back
    /// no plan: that work may still touch it.
    @Test func aRunPastItsTimeBudgetGivesBackNoPlan() async throws {
        let schema = try buildSchema("type Query { quick: Int slow: Int }")
        var builder = ExecutableSchema.Builder(schema: schema)
        builder.resolve("Query", "quick") { _ in .value(.int(1)) }
        builder.resolve("Query", "slow") { _ in
            .async {
                try await Task.sleep(for: .seconds(30))
                return .value(.int(2))
            }
        }
        let executable = try builder.build()
        let source = Source(body: "{ quick slow }")
        let document = try parse(source)
        let memo = OperationMemo(planBudget: PlanBudget(maxFields: 100))
        var limits = ExecutionLimits.unlimited
        limits.maxExecutionTime = .milliseconds(20)
        for _ in 0..<3 {
            let result = await execute(schema: executable, document: document, source: source, limits: limits, memo: memo)
            #expect(result.json().contains(#""quick":1,"slow":null"#))
        }
        #expect(memo.plansKept == 0 && memo.plansLent.load(ordering: .relaxed) == 0)
    }

    /// Variables equal under `==` but not byte for byte (é as one letter
    /// and as e with an accent) are two variants: each run's resolver gets
    /// the bytes its request sent.
    @Test func variablesAreComparedByteForByte() async throws {
        let schema = try buildSchema("type Query { bytes(text: String, number: Float): String }")
        var builder = ExecutableSchema.Builder(schema: schema)
        builder.resolve("Query", "bytes") { input in
            guard case .string(let text)? = input.arguments["text"] else { return .null }
            guard case .float(let number)? = input.arguments["number"] else { return .value(.string("\(text.utf8.count)")) }
            return .value(.string("\(text.utf8.count) \(number.sign == .minus ? "-" : "+")"))
        }
        let executable = try builder.build()
        let source = Source(body: "query Q($t: String, $f: Float) { bytes(text: $t, number: $f) }")
        let document = try parse(source)
        let memo = OperationMemo(planBudget: PlanBudget(maxFields: 100))
        let variants: [([GraphQLValue.Member], String)] = [
            ([.init("t", .string("\u{E9}"))], "2"), ([.init("t", .string("e\u{301}"))], "3"),
            ([.init("t", .string("a")), .init("f", .float(0))], "1 +"), ([.init("t", .string("a")), .init("f", .float(-0.0))], "1 -"),
        ]
        for _ in 0..<3 {
            for (variables, answer) in variants {
                let result = await execute(
                    schema: executable, document: document, source: source, variables: variables, limits: .unlimited, memo: memo)
                #expect(result.json() == #"{"data":{"bytes":"\#(answer)"}}"#)
            }
        }
        #expect(memo.plansLent.load(ordering: .relaxed) == 4)
    }
}
