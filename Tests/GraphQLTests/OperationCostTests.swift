import GraphQL
import Synchronization
import Testing

/// `OperationCost` and the limits that refuse an operation before any
/// resolver runs: each at its limit and one over.
@Suite struct OperationCostTests {
    static let sdl = """
        directive @cost(weight: Int!) on FIELD_DEFINITION
        directive @listSize(assumedSize: Int, slicingArguments: [String!], sizedFields: [String!]) on FIELD_DEFINITION
        type Query { me: User users(first: Int): [User!]! all: [User!]! search: [Result!]! node: Node recent(limit: Int): [Pet!]! @listSize(slicingArguments: ["limit"]) }
        interface Node { id: ID! }
        union Result = User | Pet
        type User implements Node {
          id: ID! name: String best: User expensive: Int @cost(weight: 10)
          friends(first: Int, last: Int, after: String): UserConnection!
          pets: [Pet!]! @listSize(assumedSize: 3)
        }
        type Pet implements Node { id: ID! name: String owners: [User!]! }
        type UserConnection { edges: [UserEdge!]! nodes: [User!]! total: Int }
        type UserEdge { cursor: String! node: User! }
        """
    static let schema = try! buildSchema(sdl)

    func measure(_ query: String, _ variables: [GraphQLValue.Member] = [], defaultListSize: Int = 20) throws -> OperationCost {
        let document = try parse(query)
        #expect(validate(schema: Self.schema, document: document, source: Source(body: query)).isEmpty)
        guard case .success(let operation) = selectOperation(document, nil),
            case .success(let values) = VariableValues.coerce(
                schema: Self.schema, definitions: operation.variableDefinitions, inputs: variables, source: Source(body: query)
            )
        else {
            throw GraphQLError(message: "no operation")
        }
        return OperationCost.measure(
            schema: Self.schema, document: document, operation: operation, variableValues: values, defaultListSize: defaultListSize
        )
    }

    @Test func everyFieldCostsOneAndTypenameNothing() throws {
        let measured = try measure("{ me { id name __typename best { id } } }")
        #expect(measured.cost == 5)
        #expect(measured.depth == 3)
        #expect(measured.rootFields == 1)
    }

    @Test func aConnectionsFirstMultipliesItsEdgesAndNodes() throws {
        // me 1 + friends 1 + edges (1 + 10 × (node 1 + id 1)) + nodes (1 + 10 × name 1) + total 1
        #expect(try measure("{ me { friends(first: 10) { edges { node { id } } nodes { name } total } } }").cost == 1 + 1 + 21 + 11 + 1)
        // Through a variable, and `last`; without either, the default size.
        #expect(try measure("query ($n: Int) { me { friends(last: $n) { nodes { id } } } }", [.init("n", .int(50))]).cost == 1 + 1 + 51)
        #expect(try measure("{ me { friends { nodes { id } } } }").cost == 1 + 1 + 21)
        #expect(try measure("{ me { friends { nodes { id } } } }", defaultListSize: 5).cost == 1 + 1 + 6)
    }

    @Test func listsMultiplyBySlicingArgumentsOrAssumedSize() throws {
        #expect(try measure("{ users(first: 7) { id name } }").cost == 1 + 7 * 2)
        #expect(try measure("{ all { id } }").cost == 1 + 20)
        #expect(try measure("{ me { pets { id } } }").cost == 1 + 1 + 3)
        #expect(try measure("{ recent(limit: 4) { id } }").cost == 1 + 4)
        #expect(try measure("{ me { expensive } }").cost == 11)
    }

    @Test func nestedListsMultiply() throws {
        let query = "{ users(first: 100) { friends(first: 100) { nodes { friends(first: 100) { nodes { id } } } } } }"
        // users 1 + 100 × (friends 1 + (nodes 1 + 100 × (friends 1 + (nodes 1 + 100 × 1))))
        #expect(try measure(query).cost == 1 + 100 * (1 + 1 + 100 * (1 + 1 + 100)))
        #expect(try measure(query).depth == 6)
    }

    @Test func anAbstractTypeCostsItsMostExpensiveMember() throws {
        let measured = try measure("{ search { ... on User { id name best { id } } ... on Pet { id } } }")
        #expect(measured.cost == 1 + 20 * 4)
        #expect(measured.depth == 3)
        #expect(try measure("{ node { id ... on Pet { owners { id name } } } }").cost == 1 + 1 + 1 + 20 * 2)
    }

    @Test func skippedSelectionsCostNothing() throws {
        let query = "query ($no: Boolean!) { me { id friends(first: 50) @skip(if: $no) { nodes { id } } } }"
        #expect(try measure(query, [.init("no", .boolean(true))]).cost == 2)
        #expect(try measure(query, [.init("no", .boolean(false))]).cost == 2 + 1 + 51)
    }

    @Test func fragmentsCountOnceMeasuredButTheirCostAsOftenAsSpread() throws {
        let measured = try measure(
            """
            { me { ...F best { ...F } a: best { ...F } } }
            fragment F on User { id b: name @include(if: true) }
            """)
        #expect(measured.cost == 1 + 2 + (1 + 2) + (1 + 2))
        #expect(measured.aliases == 2)
        #expect(measured.directives == 1)
    }

    /// Thirty fragments, each spreading the one below under two aliases: an
    /// operation of 2^30 fields, measured at once, its cost saturated.
    @Test func anExponentialOperationIsMeasuredInLinearTime() throws {
        var fragments = "fragment F0 on User { id }\n"
        for level in 1...30 {
            fragments += "fragment F\(level) on User { a: best { ...F\(level - 1) } b: best { ...F\(level - 1) } }\n"
        }
        let measured = try measure("{ me { ...F30 } }\n" + fragments)
        #expect(measured.cost > 1 << 30)
        #expect(measured.depth == 32)
        #expect(ExecutionLimits.default.refusal(of: measured)?.extensions.first?.value == .string("COST_LIMIT_EXCEEDED"))
    }

    @Test func introspectionHasItsOwnBudget() throws {
        let standard = try measure(
            """
            { __schema { types { name fields { name args { name type { ...T } } type { ...T } } interfaces { name } possibleTypes { name } inputFields { name } } } }
            fragment T on __Type { kind name ofType { kind name ofType { kind name ofType { kind name } } } }
            """)
        #expect(standard.introspectionDepth == 1)
        #expect(standard.cost == 1)
        #expect(standard.depth == 1)
        let nested = try measure("{ __type(name: \"User\") { fields { type { fields { type { fields { name } } } } } } }")
        #expect(nested.introspectionDepth == 3)
        let refusal = try #require(ExecutionLimits.default.refusal(of: nested))
        #expect(refusal.message == "Maximum introspection depth exceeded")
        #expect(
            try ExecutionLimits.default.refusal(of: measure("{ __type(name: \"User\") { fields { type { fields { name } } } } }")) == nil)
    }

    // MARK: Each limit at, and one over

    func refusal(_ query: String, _ limits: ExecutionLimits) async throws -> GraphQLError? {
        let ran = Atomic(0)
        var builder = ExecutableSchema.Builder(schema: Self.schema)
        for type in ["Query", "User", "Pet", "UserConnection", "UserEdge"] { builder.readFieldsByName(type) }
        builder.resolve("Query", "me") { _ in
            ran.add(1, ordering: .relaxed)
            return .value(.object([.init("id", .string("1")), .init("name", .string("Ann"))]))
        }
        let document = try parse(query)
        let result = await execute(
            schema: try builder.build(), document: document, source: Source(body: query), limits: limits
        )
        if result.hasData { return nil }
        #expect(ran.load(ordering: .relaxed) == 0, "a resolver ran before the refusal")
        return result.errors.first
    }

    func limits(_ change: (inout ExecutionLimits) -> Void) -> ExecutionLimits {
        var limits = ExecutionLimits.unlimited
        change(&limits)
        return limits
    }

    @Test func costAtTheLimitRunsAndOneOverIsRefused() async throws {
        let query = "{ me { id name best { id } } }"
        #expect(try await refusal(query, limits { $0.maxCost = 5 }) == nil)
        let refused = try #require(try await refusal(query, limits { $0.maxCost = 4 }))
        #expect(
            refused.message == "The operation's cost is 5, over the limit of 4. Ask for fewer items (first/last) or fewer nested lists.")
        #expect(refused.extensions == [.init("code", .string("COST_LIMIT_EXCEEDED")), .init("cost", .int(5)), .init("limit", .int(4))])
    }

    @Test func depthAtTheLimitRunsAndOneOverIsRefused() async throws {
        let query = "{ me { best { best { id } } } }"
        #expect(try await refusal(query, limits { $0.maxDepth = 4 }) == nil)
        let refused = try #require(try await refusal(query, limits { $0.maxDepth = 3 }))
        #expect(refused.extensions == [.init("code", .string("DEPTH_LIMIT_EXCEEDED")), .init("depth", .int(4)), .init("limit", .int(3))])
    }

    @Test func aliasesAtTheLimitRunAndOneOverIsRefused() async throws {
        let query = "{ a: me { b: id c: name } }"
        #expect(try await refusal(query, limits { $0.maxAliases = 3 }) == nil)
        let refused = try #require(try await refusal(query, limits { $0.maxAliases = 2 }))
        #expect(refused.extensions.first?.value == .string("ALIAS_LIMIT_EXCEEDED"))
    }

    @Test func rootFieldsAtTheLimitRunAndOneOverAreRefused() async throws {
        let query = "{ me { id } a: me { id } b: me { id } }"
        #expect(try await refusal(query, limits { $0.maxRootFields = 3 }) == nil)
        let refused = try #require(try await refusal(query, limits { $0.maxRootFields = 2 }))
        #expect(
            refused.extensions == [
                .init("code", .string("ROOT_FIELD_LIMIT_EXCEEDED")), .init("rootFields", .int(3)), .init("limit", .int(2)),
            ])
    }

    @Test func directivesAtTheLimitRunAndOneOverAreRefused() async throws {
        let query = "{ me @include(if: true) { id @skip(if: false) ... @include(if: true) { name } } }"
        #expect(try await refusal(query, limits { $0.maxDirectives = 3 }) == nil)
        let refused = try #require(try await refusal(query, limits { $0.maxDirectives = 2 }))
        #expect(refused.extensions.first?.value == .string("DIRECTIVE_LIMIT_EXCEEDED"))
    }

    @Test func introspectionDepthAtTheLimitRunsAndOneOverIsRefused() async throws {
        let query = "{ __schema { types { fields { type { fields { type { name } } } } } } }"
        #expect(try await refusal(query, limits { $0.maxIntrospectionDepth = 2 }) == nil)
        let refused = try #require(try await refusal(query, limits { $0.maxIntrospectionDepth = 1 }))
        #expect(refused.extensions.first?.value == .string("INTROSPECTION_DEPTH_EXCEEDED"))
    }

    @Test func aRefusedOperationIsARequestErrorWithoutData() async throws {
        let document = try parse("{ all { id } }")
        let result = await execute(
            schema: .readingFieldsByName(Self.schema), document: document, source: Source(body: "{ all { id } }"),
            limits: limits { $0.maxCost = 20 }
        )
        #expect(
            result.json()
                == #"{"errors":[{"message":"The operation's cost is 21, over the limit of 20. Ask for fewer items (first/last) or fewer nested lists.","extensions":{"code":"COST_LIMIT_EXCEEDED","cost":21,"limit":20}}]}"#
        )
        #expect(result.cost?.cost == 21)
    }
}
