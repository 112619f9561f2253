import GraphQL
import Synchronization
import TestSupport
import Testing

/// The executor with bound resolvers: synchronous and waiting fields,
/// mutations in order, errors with codes, and the build-time resolver check.
@Suite struct ExecutorTests {
    static let sdl = """
        type Query { session(id: ID!): Session sessions: [Session!]! slow(ms: Int!): Int failing: Int required: Int! }
        type Mutation { join(id: ID!): Int leave(id: ID!): Int }
        type Session { id: ID! sport: String! creator: User! players: [User!]! }
        type User { id: ID! name: String }
        """

    struct SessionRow: Sendable {
        var id: Int
        var sport: String
        var creatorID: Int
        var playerIDs: [Int]
    }
    struct UserRow: Sendable {
        var id: Int
        var name: String
    }

    static let sessions = [
        SessionRow(id: 1, sport: "tennis", creatorID: 10, playerIDs: [10, 11]),
        SessionRow(id: 2, sport: "padel", creatorID: 11, playerIDs: [11]),
    ]
    static let users = [10: UserRow(id: 10, name: "Ana"), 11: UserRow(id: 11, name: "Bo")]

    final class Log: Sendable {
        let entries = Mutex<[String]>([])
        func append(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    /// Lets its callers through once `count` of them have arrived.
    actor Barrier {
        let count: Int
        private var waiting: [CheckedContinuation<Void, Never>] = []
        init(count: Int) { self.count = count }

        func arrive() async {
            if waiting.count + 1 >= count {
                waiting.forEach { $0.resume() }
                waiting = []
                return
            }
            await withCheckedContinuation { waiting.append($0) }
        }
    }

    func executable(log: Log = Log(), barrier: Barrier = Barrier(count: 1)) throws -> ExecutableSchema {
        var builder = ExecutableSchema.Builder(schema: try buildSchema(Self.sdl))
        builder.resolve("Query", "session") { input in
            guard case .string(let id)? = input.argument("id"), let row = Self.sessions.first(where: { String($0.id) == id }) else {
                throw GraphQLError.coded("No session \(input.argument("id")?.json ?? "")", code: "NOT_FOUND")
            }
            return .object(row)
        }
        builder.resolve("Query", "sessions") { _ in .list(Self.sessions.map { .object($0) }) }
        builder.resolve("Query", "slow") { input in
            guard case .int(let ms)? = input.argument("ms") else { return .null }
            return .async {
                // Every waiting field must have started before any can finish:
                // run one after another, they would never all arrive.
                await barrier.arrive()
                return .value(.int(ms))
            }
        }
        builder.resolve("Query", "failing") { _ in throw GraphQLError.coded("Not allowed", code: "FORBIDDEN") }
        builder.resolve("Query", "required") { _ in .null }
        builder.resolve("Mutation", "join") { input in
            .async {
                try await Task.sleep(for: .milliseconds(30))
                log.append("join")
                return .value(.int(1))
            }
        }
        builder.resolve("Mutation", "leave") { input in
            log.append("leave")
            return .value(.int(0))
        }
        builder.resolve("Session", "id") { input in .value(.int((input.parent.object as! SessionRow).id)) }
        builder.resolve("Session", "sport") { input in .value(.string((input.parent.object as! SessionRow).sport)) }
        builder.resolve("Session", "creator") { input in
            let row = input.parent.object as! SessionRow
            return .async { .object(Self.users[row.creatorID]!) }
        }
        builder.resolve("Session", "players") { input in
            .list((input.parent.object as! SessionRow).playerIDs.map { .object(Self.users[$0]!) })
        }
        builder.resolve("User", "id") { input in .value(.int((input.parent.object as! UserRow).id)) }
        builder.resolve("User", "name") { input in .value(.string((input.parent.object as! UserRow).name)) }
        return try builder.build()
    }

    func run(_ query: String, _ schema: ExecutableSchema? = nil) async throws -> String {
        let source = Source(body: query)
        let result = await execute(schema: try schema ?? executable(), document: try parse(source), source: source)
        return result.json()
    }

    @Test func resolvesSwiftValuesSynchronouslyAndAsynchronously() async throws {
        #expect(
            try await run("{ sessions { id sport creator { name } players { id name } } }") == #"""
                {"data":{"sessions":[{"id":"1","sport":"tennis","creator":{"name":"Ana"},"players":[{"id":"10","name":"Ana"},{"id":"11","name":"Bo"}]},{"id":"2","sport":"padel","creator":{"name":"Bo"},"players":[{"id":"11","name":"Bo"}]}]}}
                """#)
    }

    @Test(.hangGuard)
    func waitingFieldsRunConcurrently() async throws {
        let schema = try executable(barrier: Barrier(count: 3))
        let response = try await run("{ a: slow(ms: 1) b: slow(ms: 2) c: slow(ms: 3) }", schema)
        #expect(response == #"{"data":{"a":1,"b":2,"c":3}}"#)
    }

    @Test func mutationRootFieldsRunOneAfterAnother() async throws {
        let log = Log()
        let response = try await run("mutation { a: join(id: 1) b: leave(id: 1) c: join(id: 2) }", try executable(log: log))
        #expect(response == #"{"data":{"a":1,"b":0,"c":1}}"#)
        #expect(log.all == ["join", "leave", "join"])
    }

    @Test func resolverErrorsCarryTheirCodeLocationAndPath() async throws {
        #expect(
            try await run("{ failing session(id: 9) { id } }") == #"""
                {"errors":[{"message":"Not allowed","locations":[{"line":1,"column":3}],"path":["failing"],"extensions":{"code":"FORBIDDEN"}},{"message":"No session \"9\"","locations":[{"line":1,"column":11}],"path":["session"],"extensions":{"code":"NOT_FOUND"}}],"data":{"failing":null,"session":null}}
                """#)
    }

    @Test func aNullForANonNullRootFieldNullsTheData() async throws {
        #expect(
            try await run("{ required sessions { id } }") == #"""
                {"errors":[{"message":"Cannot return null for non-nullable field Query.required.","locations":[{"line":1,"column":3}],"path":["required"]}],"data":null}
                """#)
    }

    final class Entry: Sendable {
        let level: GraphQLValue
        let count: Int
        init(_ level: GraphQLValue, _ count: Int) { (self.level, self.count) = (level, count) }
    }

    /// Leaves of class instances through their resolvers, the objects of a
    /// list repeating a value: an enum value already written is written
    /// again without a lookup, so one that is not of the type must still
    /// fail after it (and a name given as a string still pass), as must an
    /// Int past 32 bits among Ints that are not.
    @Test func leavesOfAListAreCoercedForEveryObject() async throws {
        let entries = [
            Entry(.enum("LOW"), 1), Entry(.enum("LOW"), 2), Entry(.enum("NOPE"), 1 << 40), Entry(.string("HIGH"), 3),
            Entry(.enum("HIGH"), 4), Entry(.int(1), 5),
        ]
        var builder = ExecutableSchema.Builder(
            schema: try buildSchema("enum Level { LOW HIGH } type Query { entries: [Entry] } type Entry { level: Level count: Int }"))
        builder.resolve("Query", "entries") { _ in .list(entries.map { .object($0) }) }
        builder.resolve("Entry", "level", on: Entry.self) { .value($0.level) }
        builder.resolve("Entry", "count", on: Entry.self) { .value(.int($0.count)) }
        #expect(
            try await run("{ entries { level count } }", try builder.build()) == #"""
                {"errors":[{"message":"Enum \"Level\" cannot represent value: \"NOPE\"","locations":[{"line":1,"column":13}],"path":["entries",2,"level"]},{"message":"Int cannot represent non 32-bit signed integer value: 1099511627776","locations":[{"line":1,"column":19}],"path":["entries",2,"count"]},{"message":"Enum \"Level\" cannot represent value: 1","locations":[{"line":1,"column":13}],"path":["entries",5,"level"]}],"data":{"entries":[{"level":"LOW","count":1},{"level":"LOW","count":2},{"level":null,"count":null},{"level":"HIGH","count":3},{"level":"HIGH","count":4},{"level":null,"count":5}]}}
                """#)
    }

    @Test func buildingRefusesFieldsWithoutResolvers() throws {
        var builder = ExecutableSchema.Builder(schema: try buildSchema("type Query { a: Int b: User } type User { name: String }"))
        builder.resolve("Query", "a") { _ in .value(.int(1)) }
        builder.resolve("Query", "nope") { _ in .null }
        builder.resolve("__Type", "name") { _ in .value(.string("mine")) }
        let error = try #require(throws: ExecutableSchemaError.self) { try builder.build() }
        #expect(
            error.problems == [
                "Cannot bind a resolver to \"Query.nope\": \"Query\" has no field \"nope\".",
                "Cannot bind a resolver to \"__Type.name\": introspection types are resolved from the schema.",
                "Field \"Query.b\" has no resolver, and \"Query\" does not read fields by name.",
                "Field \"User.name\" has no resolver, and \"User\" does not read fields by name.",
            ])
        var fixed = ExecutableSchema.Builder(schema: builder.schema)
        fixed.resolve("Query", "a") { _ in .value(.int(1)) }
        fixed.resolve("Query", "b") { _ in .value(.object([.init("name", .string("x"))])) }
        fixed.readFieldsByName("User")
        _ = try fixed.build()
    }
}

extension Parent {
    /// The Swift value of an object parent (for the tests' resolvers).
    var object: any Sendable {
        guard case .object(let object) = self else { fatalError("not an object parent") }
        return object
    }
}
