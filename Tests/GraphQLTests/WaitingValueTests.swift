import GraphQL
import Testing

/// Values that must wait are written after the rest of the response (in
/// segments spliced in where they belong); these tests pin how their
/// failures null what holds them, however far up and however deep in other
/// waiting values, and that values cut away never show.
@Suite struct WaitingValueTests {
    static let sdl = """
        type Query { items: [Item] strictItems: [Item!] strict: Item! }
        type Item {
          id: Int!
          later: Int
          laterStrict: Int!
          syncStrict: Int!
          child: Item
          childStrict: Item!
          numbers: [Int!]
        }
        """

    /// An item whose waiting fields fail when `fails` is set.
    struct Row: Sendable {
        var id: Int
        var fails: Bool
    }

    static let rows = [Row(id: 1, fails: false), Row(id: 2, fails: true)]

    @Sendable static func row(_ input: ResolverInput) -> Row { input.parent.object as! Row }

    func executable() throws -> ExecutableSchema {
        let row = Self.row
        var builder = ExecutableSchema.Builder(schema: try buildSchema(Self.sdl))
        builder.resolve("Query", "items") { _ in .list(Self.rows.map { .object($0) }) }
        builder.resolve("Query", "strictItems") { _ in .list(Self.rows.map { .object($0) }) }
        builder.resolve("Query", "strict") { _ in .async { .object(Self.rows[1]) } }
        builder.resolve("Item", "id") { input in .value(.int(row(input).id)) }
        builder.resolve("Item", "later") { input in
            let row = row(input)
            return .async {
                await Task.yield()
                if row.fails { throw GraphQLError(message: "later \(row.id) failed") }
                return .value(.int(row.id))
            }
        }
        builder.resolve("Item", "laterStrict") { input in
            let row = row(input)
            return .async { row.fails ? .null : .value(.int(row.id)) }
        }
        builder.resolve("Item", "syncStrict") { input in row(input).fails ? .null : .value(.int(row(input).id)) }
        builder.resolve("Item", "child") { input in
            let row = row(input)
            return .async { .object(Row(id: row.id * 10, fails: row.fails)) }
        }
        builder.resolve("Item", "childStrict") { input in
            let row = row(input)
            return .async { .object(Row(id: row.id * 10, fails: row.fails)) }
        }
        builder.resolve("Item", "numbers") { input in
            let row = row(input)
            return .list([.value(.int(row.id)), .async { row.fails ? .null : .value(.int(row.id + 1)) }])
        }
        return try builder.build()
    }

    /// The data as JSON, and each error as its message and path.
    func run(_ query: String) async throws -> (data: String?, errors: [String]) {
        let source = Source(body: query)
        let result = await execute(schema: try executable(), document: try parse(source), source: source)
        let errors = result.errors.map { error in
            error.message + " @ "
                + (error.path ?? []).map { component in
                    switch component {
                    case .key(let key): key
                    case .index(let index): String(index)
                    }
                }.joined(separator: ".")
        }
        return (result.data?.json, errors)
    }

    @Test func aNullableFieldThatFailsLaterIsNull() async throws {
        let (data, errors) = try await run("{ items { id later } }")
        #expect(data == #"{"items":[{"id":1,"later":1},{"id":2,"later":null}]}"#)
        #expect(errors == ["later 2 failed @ items.1.later"])
    }

    @Test func aNonNullFieldThatFailsLaterNullsItsObject() async throws {
        let (data, errors) = try await run("{ items { id laterStrict } }")
        #expect(data == #"{"items":[{"id":1,"laterStrict":1},null]}"#)
        #expect(errors == ["Cannot return null for non-nullable field Item.laterStrict. @ items.1.laterStrict"])
    }

    @Test func theNullGoesUpThroughNonNullPositions() async throws {
        let (data, errors) = try await run("{ strictItems { id laterStrict } }")
        #expect(data == #"{"strictItems":null}"#)
        #expect(errors == ["Cannot return null for non-nullable field Item.laterStrict. @ strictItems.1.laterStrict"])
    }

    @Test func aFailureThatReachesTheRootNullsTheData() async throws {
        let source = Source(body: "{ strict { id laterStrict } }")
        let result = await execute(schema: try executable(), document: try parse(source), source: source)
        #expect(result.data == .null)
        #expect(result.json().hasSuffix(#""data":null}"#))
        #expect(result.errors.map(\.message) == ["Cannot return null for non-nullable field Item.laterStrict."])
    }

    @Test func aFailureInsideAWaitingObjectNullsThatObject() async throws {
        let (data, errors) = try await run("{ items { id child { id laterStrict } } }")
        #expect(data == #"{"items":[{"id":1,"child":{"id":10,"laterStrict":10}},{"id":2,"child":null}]}"#)
        #expect(errors == ["Cannot return null for non-nullable field Item.laterStrict. @ items.1.child.laterStrict"])
    }

    @Test func aFailureInsideAWaitingNonNullObjectNullsWhatHoldsIt() async throws {
        let (data, errors) = try await run("{ items { id childStrict { laterStrict } } }")
        #expect(data == #"{"items":[{"id":1,"childStrict":{"laterStrict":10}},null]}"#)
        #expect(errors == ["Cannot return null for non-nullable field Item.laterStrict. @ items.1.childStrict.laterStrict"])
    }

    @Test func aWaitingValueCutAwayBySiblingIsNeverWritten() async throws {
        // Item 2's `later` waits, then its `syncStrict` fails at once and nulls
        // the item: `later`'s own failure belongs to a value no longer there.
        let (data, errors) = try await run("{ items { id later syncStrict } }")
        #expect(data == #"{"items":[{"id":1,"later":1,"syncStrict":1},null]}"#)
        #expect(errors == ["Cannot return null for non-nullable field Item.syncStrict. @ items.1.syncStrict"])
    }

    @Test func aWaitingValueUnderAnObjectNulledLaterIsNeverWritten() async throws {
        let (data, errors) = try await run("{ items { id laterStrict later } }")
        #expect(data == #"{"items":[{"id":1,"laterStrict":1,"later":1},null]}"#)
        #expect(errors == ["Cannot return null for non-nullable field Item.laterStrict. @ items.1.laterStrict"])
    }

    @Test func aWaitingListItemThatFailsNullsItsList() async throws {
        let (data, errors) = try await run("{ items { id numbers } }")
        #expect(data == #"{"items":[{"id":1,"numbers":[1,2]},{"id":2,"numbers":null}]}"#)
        #expect(errors == ["Cannot return null for non-nullable field Item.numbers. @ items.1.numbers.1"])
    }

    @Test func waitingValuesAreSplicedInResponseOrder() async throws {
        let source = Source(body: "{ items { later id child { later id child { id } } numbers } }")
        let result = await execute(schema: try executable(), document: try parse(source), source: source)
        #expect(
            result.json().hasSuffix(
                #""data":{"items":[{"later":1,"id":1,"child":{"later":10,"id":10,"child":{"id":100}},"numbers":[1,2]},{"later":null,"id":2,"child":{"later":null,"id":20,"child":{"id":200}},"numbers":null}]}}"#
            ))
        #expect(result.errors.count == 3)
    }
}
