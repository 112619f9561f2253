import GraphQL
import Synchronization
import Testing

/// DataLoader batching through the executor: one batch per loader per level,
/// whatever the number of parents.
@Suite struct DataLoaderTests {
    struct Session: Sendable {
        var id: Int
        var creatorID: Int
        var locationID: Int
    }
    struct User: Sendable {
        var id: Int
        var name: String
    }
    struct Place: Sendable {
        var id: Int
        var name: String
    }

    /// The request's loaders, as an app keeps them in its context.
    final class Loaders: Sendable {
        let users: DataLoader<Int, User>
        let playersBySession: DataLoader<Int, [User]>
        let places: DataLoader<Int, Place>

        init(maxBatchSize: Int = 1_000, failingPlace: Int? = nil) {
            users = DataLoader(maxBatchSize: maxBatchSize) { ids in
                ids.map { .success(User(id: $0, name: "user\($0)")) }
            }
            playersBySession = DataLoader(maxBatchSize: maxBatchSize) { sessionIDs in
                sessionIDs.map { .success([User(id: $0 * 10, name: "p\($0)a"), User(id: $0 * 10 + 1, name: "p\($0)b")]) }
            }
            places = DataLoader(maxBatchSize: maxBatchSize) { ids in
                ids.map { id in
                    id == failingPlace
                        ? .failure(GraphQLError.coded("Place \(id) is gone", code: "NOT_FOUND"))
                        : .success(Place(id: id, name: "place\(id)"))
                }
            }
        }
    }

    static let schema: GraphQLSchema = try! buildSchema(
        """
        type Query { sessions(n: Int!): [Session!]! }
        type Session { id: ID! creator: User! players: [User!]! location: Place }
        type User { id: ID! name: String! }
        type Place { name: String! }
        """)

    static let executable: ExecutableSchema = {
        var builder = ExecutableSchema.Builder(schema: schema)
        builder.resolve("Query", "sessions") { input in
            guard case .int(let n)? = input.argument("n") else { return .null }
            return .list((0..<n).map { .object(Session(id: $0, creatorID: $0 % 7, locationID: $0 % 5)) })
        }
        builder.resolve("Session", "id") { input in .value(.int(session(input).id)) }
        builder.resolve("Session", "creator") { input in
            loaders(input).users.load(session(input).creatorID) { .object($0) }
        }
        builder.resolve("Session", "players") { input in
            loaders(input).playersBySession.load(session(input).id) { users in .list(users.map { .object($0) }) }
        }
        builder.resolve("Session", "location") { input in
            loaders(input).places.load(session(input).locationID) { .object($0) }
        }
        builder.resolve("User", "id") { input in
            guard case .object(let user as User) = input.parent else { return .null }
            return .value(.int(user.id))
        }
        builder.resolve("User", "name") { input in
            guard case .object(let user as User) = input.parent else { return .null }
            return .value(.string(user.name))
        }
        builder.resolve("Place", "name") { input in
            guard case .object(let place as Place) = input.parent else { return .null }
            return .value(.string(place.name))
        }
        return try! builder.build()
    }()

    static func session(_ input: ResolverInput) -> Session {
        guard case .object(let session as Session) = input.parent else { fatalError("not a session") }
        return session
    }

    static func loaders(_ input: ResolverInput) -> Loaders { input.context as! Loaders }

    func run(_ n: Int, _ loaders: Loaders) async throws -> ExecutionResult {
        let source = Source(body: "{ sessions(n: \(n)) { id creator { name } players { id name } location { name } } }")
        return await execute(schema: Self.executable, document: try parse(source), source: source, context: loaders)
    }

    @Test(arguments: [1, 1_000])
    func eachLoaderBatchesOncePerLevel(_ n: Int) async throws {
        let loaders = Loaders()
        let result = try await run(n, loaders)
        #expect(result.errors.isEmpty)
        #expect(loaders.users.batchCount == 1)
        #expect(loaders.playersBySession.batchCount == 1)
        #expect(loaders.places.batchCount == 1)
        guard case .object(let root)? = result.data, case .list(let sessions) = root[0].value else {
            Issue.record("no sessions")
            return
        }
        #expect(sessions.count == n)
        #expect(
            sessions.last?.json
                == #"{"id":"\#(n - 1)","creator":{"name":"user\#((n - 1) % 7)"},"players":[{"id":"\#((n - 1) * 10)","name":"p\#(n - 1)a"},{"id":"\#((n - 1) * 10 + 1)","name":"p\#(n - 1)b"}],"location":{"name":"place\#((n - 1) % 5)"}}"#
        )
    }

    @Test func batchesAreSplitAtTheMaximumSize() async throws {
        let loaders = Loaders(maxBatchSize: 300)
        _ = try await run(1_000, loaders)
        // 1,000 sessions' players in batches of 300; only 7 distinct creators and 5 places.
        #expect(loaders.playersBySession.batchCount == 4)
        #expect(loaders.users.batchCount == 1)
        #expect(loaders.places.batchCount == 1)
    }

    @Test func aKeyThatFailsNullsOnlyItsFields() async throws {
        let result = try await run(2, Loaders(failingPlace: 1))
        #expect(
            result.json() == #"""
                {"errors":[{"message":"Place 1 is gone","locations":[{"line":1,"column":60}],"path":["sessions",1,"location"],"extensions":{"code":"NOT_FOUND"}}],"data":{"sessions":[{"id":"0","creator":{"name":"user0"},"players":[{"id":"0","name":"p0a"},{"id":"1","name":"p0b"}],"location":{"name":"place0"}},{"id":"1","creator":{"name":"user1"},"players":[{"id":"10","name":"p1a"},{"id":"11","name":"p1b"}],"location":null}]}}
                """#)
    }

    @Test func aBatchFunctionMustAnswerEveryKey() async throws {
        let loader = DataLoader<Int, Int> { keys in keys.dropLast().map { .success($0) } }
        let schema = try buildSchema("type Query { a: Int b: Int }")
        var builder = ExecutableSchema.Builder(schema: schema)
        builder.resolve("Query", "a") { _ in loader.load(1) { .value(.int($0)) } }
        builder.resolve("Query", "b") { _ in loader.load(2) { .value(.int($0)) } }
        let source = Source(body: "{ a b }")
        let result = await execute(schema: try builder.build(), document: try parse(source), source: source)
        #expect(
            result.errors.map(\.message) == [
                "The batch function must return one result per key: it was given 2 keys and returned 1 results.",
                "The batch function must return one result per key: it was given 2 keys and returned 1 results.",
            ])
        #expect(loader.batchCount == 1)
    }

    @Test func loadsAreCachedForTheRequest() async throws {
        let loaders = Loaders()
        _ = try await run(50, loaders)
        _ = try await run(50, loaders)
        #expect(loaders.users.batchCount == 1)
    }

    /// A primed key is answered without a batch; priming a key that has a
    /// value or is queued changes nothing (graphql-js DataLoader's prime).
    @Test func primedKeysNeedNoBatch() async throws {
        let loader = DataLoader<Int, Int> { keys in keys.map { .success($0 * 10) } }
        let schema = try buildSchema("type Query { primed: Int queued: Int }")
        var builder = ExecutableSchema.Builder(schema: schema)
        loader.prime(1, 7)
        loader.prime(1, 8)
        builder.resolve("Query", "primed") { _ in loader.load(1) { .value(.int($0)) } }
        builder.resolve("Query", "queued") { _ in
            let value = loader.load(2) { .value(.int($0)) }
            loader.prime(2, 99)
            return value
        }
        let source = Source(body: "{ primed queued }")
        let result = await execute(schema: try builder.build(), document: try parse(source), source: source)
        #expect(result.json() == #"{"data":{"primed":7,"queued":20}}"#)
        #expect(loader.batchCount == 1)
    }

    /// loadMany waits as one value per list, completes each item on its own
    /// (a failing key is its item's error), and answers from the cache
    /// without waiting when every key is known.
    @Test func loadManyBatchesWithLoadsAndFailsPerItem() async throws {
        let loader = DataLoader<Int, Int> { keys in
            keys.map { $0 == 3 ? .failure(GraphQLError.coded("No \($0)", code: "NOT_FOUND")) : .success($0 * 10) }
        }
        let schema = try buildSchema("type Query { one: Int many: [Int] again: [Int] }")
        var builder = ExecutableSchema.Builder(schema: schema)
        builder.resolve("Query", "one") { _ in loader.load(1) { .value(.int($0)) } }
        builder.resolve("Query", "many") { _ in loader.loadMany([1, 2, 3, 2]) { .value(.int($0)) } }
        builder.resolve("Query", "again") { _ in
            .async {
                // By now every key is cached: the list is answered at once, nothing new is batched.
                loader.loadMany([2, 1]) { .value(.int($0)) }
            }
        }
        let source = Source(body: "{ one many again }")
        let result = await execute(schema: try builder.build(), document: try parse(source), source: source)
        #expect(
            result.json() == #"""
                {"errors":[{"message":"No 3","locations":[{"line":1,"column":7}],"path":["many",2],"extensions":{"code":"NOT_FOUND"}}],"data":{"one":10,"many":[10,20,null,20],"again":[20,10]}}
                """#)
        #expect(loader.batchCount == 1)
    }

    /// A key first loaded while its level's batch runs (from inside the
    /// batch function, here) waits for a batch of its own; a key loaded
    /// again while its batch runs is answered by that batch, not batched again.
    @Test func keysLoadedWhileABatchRunsWaitForTheNextBatch() async throws {
        let lateLoads = Mutex<[Resolved]>([])
        let batches = Mutex<[[Int]]>([])
        let loaderBox = Mutex<DataLoader<Int, Int>?>(nil)
        let loader = DataLoader<Int, Int> { keys in
            batches.withLock { $0.append(keys) }
            if keys == [1, 2], let loader = loaderBox.withLock({ $0 }) {
                let late = [loader.load(3) { .value(.int($0)) }, loader.loadMany([2, 4]) { .value(.list([.int($0)])) }]
                lateLoads.withLock { $0 += late }
            }
            return keys.map { .success($0 * 10) }
        }
        loaderBox.withLock { $0 = loader }
        guard case .deferred(let first) = loader.load(1, { .value(.int($0)) }),
            case .deferred(let many) = loader.loadMany([2, 1], { .value(.int($0)) })
        else {
            Issue.record("a new key must wait for its batch")
            return
        }
        await first.batch.run()
        guard case .value(.int(10)) = try first.resolve(), case .list(let items) = try many.resolve(),
            case .value(.int(20)) = items.first, case .value(.int(10)) = items.last
        else {
            Issue.record("the first batch's keys must have their values")
            return
        }
        let late = lateLoads.withLock { $0 }
        try #require(late.count == 2)
        guard case .deferred(let three) = late[0], case .deferred(let twoAndFour) = late[1] else {
            Issue.record("keys recorded during a batch wait")
            return
        }
        // The late keys' batch has not run: their values come from the next one.
        guard case .async(let threeLater) = try three.resolve(), case .list(let mixed) = try twoAndFour.resolve(),
            case .value(.list([.int(20)])) = mixed.first, case .async(let fourLater) = mixed.last
        else {
            Issue.record("a late key waits for the next batch; a key already answered does not")
            return
        }
        guard case .value(.int(30)) = try await threeLater(), case .value(.list([.int(40)])) = try await fourLater() else {
            Issue.record("the late keys must have their values")
            return
        }
        #expect(batches.withLock { $0 } == [[1, 2], [3, 4]])
        #expect(loader.batchCount == 2)
    }
}
