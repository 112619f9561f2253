import GraphQL
import Testing

/// Plans kept across runs (issue 36, item 2): an operation's plan is kept
/// by its document's memo, per operation and variables, lent to the next
/// run and given back when it ends whole; the runs that borrow it answer as
/// a fresh plan does; the plans kept are bounded per document
/// (`OperationMemo.maxPlans`, `maxFieldsPerPlan`) and over all documents
/// (`PlanBudget`), and a memo let go gives its fields back.
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
        for _ in 0..<4 {
            #expect(await run(memo, [.init("n", .int(2))]).json() == fresh)
            #expect(memo.plansKept == 1)
        }
        // The first run planned; the three after it borrowed its plan.
        #expect(memo.plansLent.load(ordering: .relaxed) == 3)
        #expect(budget.fieldsKept > 0)
    }

    @Test func plansAreKeptPerVariablesAtMostMaxPlans() async throws {
        let memo = OperationMemo(planBudget: PlanBudget(maxFields: 10_000))
        for variables: [GraphQLValue.Member] in [
            [], [.init("named", .boolean(false))], [.init("n", .int(1))], [.init("n", .int(2))], [.init("n", .int(3))],
            [.init("n", .int(4))],
        ] {
            let fresh = await run(nil, variables).json()
            #expect(await run(memo, variables).json() == fresh)
            #expect(await run(memo, variables).json() == fresh)
        }
        #expect(memo.plansKept == OperationMemo.maxPlans)
    }

    /// The budget at the plan's own size keeps it; one field less does not.
    @Test func theBudgetBoundsThePlansKept() async throws {
        let measuring = PlanBudget(maxFields: 10_000)
        let measured = OperationMemo(planBudget: measuring)
        _ = await run(measured)
        let fields = measuring.fieldsKept
        withExtendedLifetime(measured) {}
        #expect(fields > 0)
        let exact = PlanBudget(maxFields: fields)
        let kept = OperationMemo(planBudget: exact)
        _ = await run(kept)
        #expect(kept.plansKept == 1 && exact.fieldsKept == fields)
        let short = PlanBudget(maxFields: fields - 1)
        let notKept = OperationMemo(planBudget: short)
        let fresh = await run(nil).json()
        #expect(await run(notKept).json() == fresh)
        #expect(notKept.plansKept == 0 && short.fieldsKept == 0)
        // A memo without a budget keeps none.
        let unbudgeted = OperationMemo()
        _ = await run(unbudgeted)
        #expect(unbudgeted.plansKept == 0)
    }

    @Test func aMemoLetGoGivesItsFieldsBack() async throws {
        let budget = PlanBudget(maxFields: 10_000)
        var memo: OperationMemo? = OperationMemo(planBudget: budget)
        _ = await run(memo)
        #expect(budget.fieldsKept > 0)
        memo = nil
        _ = memo
        #expect(budget.fieldsKept == 0)
    }

    /// A run a limit stopped keeps no plan: the next plans afresh.
    @Test func aRunCutShortKeepsNoPlan() async throws {
        let memo = OperationMemo(planBudget: PlanBudget(maxFields: 10_000))
        var limits = ExecutionLimits.unlimited
        limits.maxResponseBytes = 40
        let stopped = await run(memo, limits: limits)
        #expect(stopped.errors.first?.code == "RESPONSE_TOO_LARGE")
        #expect(memo.plansKept == 0)
        _ = await run(memo)
        #expect(memo.plansKept == 1)
    }
}
