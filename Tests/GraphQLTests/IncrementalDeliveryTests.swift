import GraphQL
import Synchronization
import Testing

/// `@defer` and `@stream` (the incremental delivery RFC, graphql-js 17's
/// response shape): every result of each case against expected JSON
/// checked by hand, starting with the RFC's own examples.
@Suite struct IncrementalDeliveryTests {
    static let sdl = """
        type Query {
          person(id: ID!): Person
          people: [Person!]!
          hero: Person!
          numbers: [Int!]
          maybeNumbers: [Int]
          name: String
        }
        type Mutation { rename(name: String!): Person }
        type Subscription { people: [Person] }
        type Person {
          id: ID!
          name: String
          firstName: String
          lastName: String
          homeWorld: Planet
          films: [Film]
          friends: [Person!]
          broken: String
          brokenNonNull: String!
          slowName: String
        }
        type Planet { name: String terrain: String }
        type Film { title: String }
        """

    /// Luke as the RFC's examples have him; `broken` fields fail, `slowName` waits.
    static let luke: GraphQLValue = .object([
        .init("id", .string("1")),
        .init("name", .string("Luke Skywalker")),
        .init("firstName", .string("Luke")),
        .init("lastName", .string("Skywalker")),
        .init("homeWorld", .object([.init("name", .string("Tatooine")), .init("terrain", .string("desert"))])),
        .init(
            "films",
            .list([
                .object([.init("title", .string("A New Hope"))]),
                .object([.init("title", .string("The Empire Strikes Back"))]),
                .object([.init("title", .string("Return of the Jedi"))]),
            ])),
    ])

    /// How many batches each loader ran, for the batching case.
    final class Loads: Sendable {
        final class Counter: Sendable {
            let value = Mutex(0)
        }
        let planets: DataLoader<String, GraphQLValue>
        let batches = Counter()

        init() {
            let batches = self.batches
            planets = DataLoader { ids in
                batches.value.withLock { $0 += 1 }
                return ids.map { .success(.object([.init("name", .string("planet of \($0)"))])) }
            }
        }
    }

    static func executable(incremental: Bool = true) -> ExecutableSchema {
        let schema = try! buildSchema(
            [Source(body: sdl, name: "test")] + (incremental ? [incrementalDeliveryDirectives] : []))
        var builder = ExecutableSchema.Builder(schema: schema)
        for type in ["Query", "Person", "Planet", "Film", "Subscription"] { builder.readFieldsByName(type) }
        builder.subscribe("Subscription", "people") { _ in AsyncThrowingStream { $0.finish() } }
        builder.resolve("Query", "person") { _ in .value(luke) }
        builder.resolve("Query", "hero") { _ in .value(luke) }
        builder.resolve("Query", "people") { _ in
            .list(
                (1...3).map { id in
                    .value(.object([.init("id", .string("\(id)")), .init("name", .string("person \(id)"))]))
                })
        }
        builder.resolve("Query", "numbers") { _ in .list([.value(.int(1)), .value(.int(2)), .null, .value(.int(4))]) }
        builder.resolve("Query", "maybeNumbers") { _ in .list([.value(.int(1)), .value(.string("x")), .value(.int(3))]) }
        builder.resolve("Person", "broken") { _ in throw GraphQLError(message: "broken") }
        builder.resolve("Person", "brokenNonNull") { _ in .null }
        builder.resolve("Person", "slowName") { input in
            let name = input.parent[member: "name"] ?? .null
            return .async {
                try await Task.sleep(for: .milliseconds(5))
                return .value(name)
            }
        }
        builder.resolve("Person", "homeWorld") { input in
            if let loads = input.context as? Loads, case .string(let id)? = input.parent[member: "id"] {
                return loads.planets.load(id) { .value($0) }
            }
            return .value(input.parent[member: "homeWorld"] ?? .null)
        }
        builder.resolve("Person", "friends") { input in
            .list([.value(luke), .value(luke)])
        }
        builder.resolve("Mutation", "rename") { _ in .value(luke) }
        return try! builder.build()
    }

    /// Every result as JSON: the initial one, then each subsequent one.
    static func results(
        _ query: String, variables: [GraphQLValue.Member] = [], schema: ExecutableSchema = executable(), context: any Sendable = ()
    ) async throws -> [String] {
        let document = try parse(query)
        let source = Source(body: query)
        let errors = validate(schema: schema.schema, document: document, source: source)
        guard errors.isEmpty else { return [ExecutionResult(data: nil, errors: errors).json()] }
        // No time budget (UntimedExecution.swift says why).
        switch await executeIncrementally(
            schema: schema, document: document, source: source, variables: variables, context: context, limits: .untimed)
        {
        case .complete(let result):
            return [result.json()]
        case .incremental(let initial, let execution):
            var results = [initial.json()]
            while let next = await execution.next() { results.append(next.json()) }
            return results
        }
    }

    @Test func rfcExampleOneDefersAFragmentAndStreamsAList() async throws {
        let results = try await Self.results(
            """
            query {
              person(id: "cGVvcGxlOjE=") {
                ...HomeWorldFragment @defer(label: "homeWorldDefer")
                name
                films @stream(initialCount: 1, label: "filmsStream") {
                  title
                }
              }
            }
            fragment HomeWorldFragment on Person {
              homeWorld {
                name
              }
            }
            """)
        #expect(
            results == [
                #"{"data":{"person":{"name":"Luke Skywalker","films":[{"title":"A New Hope"}]}},"pending":[{"id":"0","path":["person"],"label":"homeWorldDefer"},{"id":"1","path":["person","films"],"label":"filmsStream"}],"hasNext":true}"#,
                #"{"hasNext":false,"incremental":[{"data":{"homeWorld":{"name":"Tatooine"}},"id":"0"},{"items":[{"title":"The Empire Strikes Back"},{"title":"Return of the Jedi"}],"id":"1"}],"completed":[{"id":"0"},{"id":"1"}]}"#,
            ])
    }

    /// Overlapping defers: `homeWorld` goes once, in a group both fragments
    /// share; `terrain`, only the first's, under `subPath`; `firstName`,
    /// also outside any deferred fragment, in the initial result.
    @Test func rfcExampleTwoDeliversOverlappingFieldsOnce() async throws {
        let results = try await Self.results(
            """
            query {
              person(id: "cGVvcGxlOjE=") {
                ...HomeWorldFragment @defer(label: "homeWorldDefer")
                ...NameAndHomeWorldFragment @defer(label: "nameAndWorld")
                firstName
              }
            }
            fragment HomeWorldFragment on Person {
              homeWorld {
                name
                terrain
              }
            }
            fragment NameAndHomeWorldFragment on Person {
              firstName
              lastName
              homeWorld {
                name
              }
            }
            """)
        #expect(
            results == [
                #"{"data":{"person":{"firstName":"Luke"}},"pending":[{"id":"0","path":["person"],"label":"homeWorldDefer"},{"id":"1","path":["person"],"label":"nameAndWorld"}],"hasNext":true}"#,
                #"{"hasNext":false,"incremental":[{"data":{"homeWorld":{"name":"Tatooine"}},"id":"0"},{"data":{"terrain":"desert"},"id":"0","subPath":["homeWorld"]},{"data":{"lastName":"Skywalker"},"id":"1"}],"completed":[{"id":"0"},{"id":"1"}]}"#,
            ])
    }

    /// A deferred fragment inside another is announced when the outer one
    /// completes, and delivered after it.
    @Test func nestedDeferredFragmentsComeOneAfterTheOther() async throws {
        let results = try await Self.results(
            """
            { person(id: "1") { id ... @defer(label: "outer") { name homeWorld { ... @defer(label: "inner") { terrain } } } } }
            """)
        #expect(
            results == [
                #"{"data":{"person":{"id":"1"}},"pending":[{"id":"0","path":["person"],"label":"outer"}],"hasNext":true}"#,
                #"{"hasNext":true,"pending":[{"id":"1","path":["person","homeWorld"],"label":"inner"}],"incremental":[{"data":{"name":"Luke Skywalker","homeWorld":{}},"id":"0"}],"completed":[{"id":"0"}]}"#,
                #"{"hasNext":false,"incremental":[{"data":{"terrain":"desert"},"id":"1"}],"completed":[{"id":"1"}]}"#,
            ])
    }

    /// A fragment deferred at the root, with a field the initial result has too.
    @Test func deferAtTheRootLeavesOutWhatIsAlreadyDelivered() async throws {
        let results = try await Self.results(#"{ name: __typename ... @defer { name: __typename person(id: "1") { name } } }"#)
        #expect(
            results == [
                #"{"data":{"name":"Query"},"pending":[{"id":"0","path":[]}],"hasNext":true}"#,
                #"{"hasNext":false,"incremental":[{"data":{"person":{"name":"Luke Skywalker"}},"id":"0"}],"completed":[{"id":"0"}]}"#,
            ])
    }

    /// A deferred fragment whose fields all went in the initial result is
    /// never announced.
    @Test func aDeferredFragmentWithNothingLeftIsNotAnnounced() async throws {
        let results = try await Self.results(#"{ person(id: "1") { name ... @defer { name } } }"#)
        #expect(results == [#"{"data":{"person":{"name":"Luke Skywalker"}}}"#])
    }

    @Test func ifFalseAndIfVariableTurnDeferAndStreamOff() async throws {
        let query = """
            query ($on: Boolean!) { person(id: "1") { ... @defer(if: $on) { name } films @stream(if: $on) { title } } }
            """
        let off = try await Self.results(query, variables: [.init("on", .boolean(false))])
        #expect(
            off == [
                #"{"data":{"person":{"name":"Luke Skywalker","films":[{"title":"A New Hope"},{"title":"The Empire Strikes Back"},{"title":"Return of the Jedi"}]}}}"#
            ])
        let on = try await Self.results(query, variables: [.init("on", .boolean(true))])
        #expect(on.count == 2)
        #expect(
            on[0]
                == #"{"data":{"person":{"films":[]}},"pending":[{"id":"0","path":["person"]},{"id":"1","path":["person","films"]}],"hasNext":true}"#
        )
    }

    /// A field error inside a deferred fragment goes with its data; a null
    /// in a non-null field fails the fragment, which completes with the error.
    @Test func errorsInDeferredFragments() async throws {
        let results = try await Self.results(
            #"{ person(id: "1") { ... @defer(label: "soft") { name broken } ... @defer(label: "hard") { firstName brokenNonNull } } }"#)
        #expect(
            results == [
                #"{"data":{"person":{}},"pending":[{"id":"0","path":["person"],"label":"soft"},{"id":"1","path":["person"],"label":"hard"}],"hasNext":true}"#,
                #"{"hasNext":false,"incremental":[{"data":{"name":"Luke Skywalker","broken":null},"errors":[{"message":"broken","locations":[{"line":1,"column":54}],"path":["person","broken"]}],"id":"0"}],"completed":[{"id":"1","errors":[{"message":"Cannot return null for non-nullable field Person.brokenNonNull.","locations":[{"line":1,"column":101}],"path":["person","brokenNonNull"]}]},{"id":"0"}]}"#,
            ])
    }

    /// A null that propagates in the initial result past a deferred
    /// fragment's object drops the fragment: it is never announced.
    @Test func aFragmentUnderANulledObjectIsDropped() async throws {
        let results = try await Self.results(#"{ person(id: "1") { ... @defer { name } brokenNonNull } name }"#)
        #expect(
            results == [
                #"{"errors":[{"message":"Cannot return null for non-nullable field Person.brokenNonNull.","locations":[{"line":1,"column":41}],"path":["person","brokenNonNull"]}],"data":{"person":null,"name":null}}"#
            ])
    }

    /// Defers under a list: one fragment per item, all announced at once,
    /// and their loads made in one batch.
    @Test func defersUnderAListBatchTheirLoads() async throws {
        let loads = Loads()
        let results = try await Self.results(
            "{ people { id ... @defer { homeWorld { name } } } }", context: loads)
        #expect(
            results == [
                #"{"data":{"people":[{"id":"1"},{"id":"2"},{"id":"3"}]},"pending":[{"id":"0","path":["people",0]},{"id":"1","path":["people",1]},{"id":"2","path":["people",2]}],"hasNext":true}"#,
                #"{"hasNext":false,"incremental":[{"data":{"homeWorld":{"name":"planet of 1"}},"id":"0"},{"data":{"homeWorld":{"name":"planet of 2"}},"id":"1"},{"data":{"homeWorld":{"name":"planet of 3"}},"id":"2"}],"completed":[{"id":"0"},{"id":"1"},{"id":"2"}]}"#,
            ])
        #expect(loads.batches.value.withLock { $0 } == 1)
    }

    /// Streamed items: the first `initialCount` now, the rest later; a
    /// nullable item that fails is null with its error; an item that may
    /// not be null ends the stream with the items before it delivered.
    @Test func streamedItemsAndTheirErrors() async throws {
        let nullable = try await Self.results("{ maybeNumbers @stream(initialCount: 1, label: \"n\") }")
        #expect(
            nullable == [
                #"{"data":{"maybeNumbers":[1]},"pending":[{"id":"0","path":["maybeNumbers"],"label":"n"}],"hasNext":true}"#,
                #"{"hasNext":false,"incremental":[{"items":[null,3],"errors":[{"message":"Int cannot represent non-integer value: \"x\"","locations":[{"line":1,"column":3}],"path":["maybeNumbers",1]}],"id":"0"}],"completed":[{"id":"0"}]}"#,
            ])
        let nonNull = try await Self.results("{ numbers @stream(initialCount: 1) }")
        #expect(
            nonNull == [
                #"{"data":{"numbers":[1]},"pending":[{"id":"0","path":["numbers"]}],"hasNext":true}"#,
                #"{"hasNext":false,"incremental":[{"items":[2],"id":"0"}],"completed":[{"id":"0","errors":[{"message":"Cannot return null for non-nullable field Query.numbers.","locations":[{"line":1,"column":3}],"path":["numbers",2]}]}]}"#,
            ])
    }

    /// A list no longer than `initialCount` is not streamed at all.
    @Test func aShortListIsDeliveredWhole() async throws {
        let results = try await Self.results("{ person(id: \"1\") { films @stream(initialCount: 5) { title } } }")
        #expect(results.count == 1)
        #expect(!results[0].contains("hasNext"))
    }

    /// A deferred fragment in each streamed item, and a stream inside a
    /// deferred fragment; values that wait are written where they belong.
    @Test func deferInsideStreamAndStreamInsideDefer() async throws {
        let results = try await Self.results(
            """
            { people @stream(initialCount: 2) { id ... @defer { slowName } }
              person(id: "1") { ... @defer { films @stream { title } } } }
            """)
        #expect(
            results == [
                #"{"data":{"people":[{"id":"1"},{"id":"2"}],"person":{}},"pending":[{"id":"0","path":["people",0]},{"id":"1","path":["people",1]},{"id":"2","path":["people"]},{"id":"3","path":["person"]}],"hasNext":true}"#,
                #"{"hasNext":true,"pending":[{"id":"4","path":["person","films"]},{"id":"5","path":["people",2]}],"incremental":[{"data":{"slowName":"person 1"},"id":"0"},{"data":{"slowName":"person 2"},"id":"1"},{"data":{"films":[]},"id":"3"},{"items":[{"id":"3"}],"id":"2"}],"completed":[{"id":"0"},{"id":"1"},{"id":"3"},{"id":"2"}]}"#,
                #"{"hasNext":false,"incremental":[{"data":{"slowName":"person 3"},"id":"5"},{"items":[{"title":"A New Hope"},{"title":"The Empire Strikes Back"},{"title":"Return of the Jedi"}],"id":"4"}],"completed":[{"id":"5"},{"id":"4"}]}"#,
            ])
    }

    @Test func validationRulesOfIncrementalDelivery() async throws {
        let cases: [(String, String)] = [
            (
                #"mutation { ... @defer { rename(name: "x") { name } } }"#,
                #"{"errors":[{"message":"Defer directive cannot be used on root mutation type \"Mutation\".","locations":[{"line":1,"column":16}]}]}"#
            ),
            (
                "subscription { people { ... @defer { name } } }",
                #"{"errors":[{"message":"Defer directive not supported on subscription operations. Disable `@defer` by setting the `if` argument to `false`.","locations":[{"line":1,"column":29}]}]}"#
            ),
            (
                #"{ a: person(id: "1") { ... @defer(label: "x") { name } } b: people @stream(label: "x") { id } }"#,
                #"{"errors":[{"message":"Value for arguments \"defer(label:)\" and \"stream(label:)\" must be unique across all Defer/Stream directive usages.","locations":[{"line":1,"column":28},{"line":1,"column":68}]}]}"#
            ),
            (
                "query ($l: String) { person(id: \"1\") { ... @defer(label: $l) { name } } }",
                #"{"errors":[{"message":"Argument \"@defer(label:)\" must be a static string.","locations":[{"line":1,"column":44}]}]}"#
            ),
            (
                "{ name @stream }",
                #"{"errors":[{"message":"Directive \"@stream\" cannot be used on non-list field \"Query.name\".","locations":[{"line":1,"column":8}]}]}"#
            ),
            (
                "{ people @stream { id } people { id } }",
                #"{"errors":[{"message":"Fields \"people\" conflict because they have differing stream directives. Use different aliases on the fields to fetch both if this was intentional.","locations":[{"line":1,"column":3},{"line":1,"column":25}]}]}"#
            ),
        ]
        for (query, expected) in cases {
            #expect(try await Self.results(query) == [expected], "\(query)")
        }
    }

    /// Without the directives in the schema (incremental delivery off),
    /// both are unknown, as in graphql-js 16.
    @Test func aSchemaWithoutTheDirectivesRefusesThem() async throws {
        let results = try await Self.results(
            #"{ person(id: "1") { ... @defer { name } } }"#, schema: Self.executable(incremental: false))
        #expect(results == [#"{"errors":[{"message":"Unknown directive \"@defer\".","locations":[{"line":1,"column":25}]}]}"#])
    }

    /// `execute` (what a client that cannot read incremental results gets)
    /// delivers everything in one result.
    @Test func executeInlinesDeferredFragments() async throws {
        let query = #"{ person(id: "1") { ... @defer { name } films @stream { title } } }"#
        let result = await execute(schema: Self.executable(), document: try parse(query), source: Source(body: query))
        #expect(
            result.json()
                == #"{"data":{"person":{"name":"Luke Skywalker","films":[{"title":"A New Hope"},{"title":"The Empire Strikes Back"},{"title":"Return of the Jedi"}]}}}"#
        )
    }
}
