import Synchronization
import TestSupport
import Testing

@testable import GraphQL

/// One run of an event for all the subscribers asking the same of it, per
/// viewer where the run read who asks, bounded in what it holds.
@Suite struct SharedEventExecutionsTests {
    struct News: SharedSourceEvent {
        var number: Int
        var headline: String
        var occurrence: SharingKey? { SharingKey(number) }
    }

    /// A subscriber's context: who they are, and whether a resolver asked.
    final class Reader: ViewerScopedContext {
        let name: String
        private let asked = Atomic<Bool>(false)
        init(_ name: String) { self.name = name }

        var askedName: String {
            asked.store(true, ordering: .relaxed)
            return name
        }
        var viewerKey: SharingKey { SharingKey(name) }
        var hasReadViewer: Bool { asked.load(ordering: .relaxed) }
    }

    /// How many times each field's resolver ran.
    final class Runs: Sendable {
        let headline = Atomic<Int>(0)
        let forYou = Atomic<Int>(0)
    }

    static func schema(_ runs: Runs, events: [News]) throws -> ExecutableSchema {
        var builder = ExecutableSchema.Builder(
            schema: try buildSchema(
                """
                type Query { a: Int }
                type Subscription { news(topic: String): News! }
                type News { number: Int! headline: String! forYou: String! }
                """))
        builder.resolve("Query", "a") { _ in .null }
        builder.subscribe("Subscription", "news") { _ in
            AsyncThrowingStream { continuation in
                for event in events { continuation.yield(.object(event)) }
                continuation.finish()
            }
        }
        builder.resolve("Subscription", "news") { input in
            guard case .object(let event) = input.parent else { return .null }
            return .object(event)
        }
        builder.resolve("News", "number") { input in
            guard case .object(let news as News) = input.parent else { return .null }
            return .value(.int(news.number))
        }
        builder.resolve("News", "headline") { input in
            guard case .object(let news as News) = input.parent else { return .null }
            runs.headline.add(1, ordering: .relaxed)
            return .value(.string(news.headline))
        }
        builder.resolve("News", "forYou") { input in
            guard case .object(let news as News) = input.parent, let reader = input.context as? Reader else { return .null }
            runs.forYou.add(1, ordering: .relaxed)
            return .value(.string("\(news.headline), for \(reader.askedName)"))
        }
        return try builder.build()
    }

    static let events = [News(number: 1, headline: "Rain"), News(number: 2, headline: "Sun"), News(number: 3, headline: "Snow")]

    /// Every subscriber's responses, `readers[i]` subscribing with `queries[i]`, all at once.
    static func responses(
        _ schema: ExecutableSchema, _ executions: SharedEventExecutions?, readers: [String], queries: [String],
        variables: [[GraphQLValue.Member]]? = nil
    ) async throws -> [[String]] {
        try await withThrowingTaskGroup(of: (Int, [String]).self) { group in
            for (index, name) in readers.enumerated() {
                let source = Source(body: queries[index])
                let document = try parse(source)
                let reader = Reader(name)
                group.addTask {
                    let result = await subscribe(
                        schema: schema, document: document, source: source, variables: variables?[index] ?? [],
                        context: { reader }, limits: .untimed, sharedEvents: executions)
                    guard case .stream(let stream) = result else { return (index, ["no stream"]) }
                    var received: [String] = []
                    for await response in stream { received.append(response.json()) }
                    return (index, received)
                }
            }
            var all = [[String]](repeating: [], count: readers.count)
            for try await (index, received) in group { all[index] = received }
            return all
        }
    }

    @Test(.hangGuard)
    func subscribersAskingTheSameShareOneRunOfEachEvent() async throws {
        let runs = Runs()
        let executions = SharedEventExecutions()
        let readers = (0..<20).map { "reader \($0)" }
        let query = "subscription { news { number headline } }"
        let all = try await Self.responses(
            try Self.schema(runs, events: Self.events), executions, readers: readers,
            queries: Array(repeating: query, count: readers.count))
        for received in all {
            #expect(
                received == [
                    #"{"data":{"news":{"number":1,"headline":"Rain"}}}"#, #"{"data":{"news":{"number":2,"headline":"Sun"}}}"#,
                    #"{"data":{"news":{"number":3,"headline":"Snow"}}}"#,
                ])
        }
        #expect(runs.headline.load(ordering: .relaxed) == 3)
        #expect(executions.runs.load(ordering: .relaxed) == 3)
        #expect(executions.shared.load(ordering: .relaxed) == 57)
    }

    @Test(.hangGuard)
    func aRunThatReadsTheViewerIsSharedOnlyWithTheSameViewer() async throws {
        let runs = Runs()
        let executions = SharedEventExecutions()
        let readers = ["ana", "bo", "ana", "cy", "bo", "ana"]
        let query = "subscription { news { number forYou } }"
        let all = try await Self.responses(
            try Self.schema(runs, events: Self.events), executions, readers: readers,
            queries: Array(repeating: query, count: readers.count))
        for (reader, received) in zip(readers, all) {
            #expect(
                received == Self.events.map { #"{"data":{"news":{"number":\#($0.number),"forYou":"\#($0.headline), for \#(reader)"}}}"# })
        }
        // Each viewer's run once per event: the first run learns it read the viewer and is that viewer's.
        #expect(runs.forYou.load(ordering: .relaxed) == 3 * 3)
        #expect(executions.runs.load(ordering: .relaxed) == 3 * 3)
    }

    @Test(.hangGuard)
    func subscribersAskingOtherwiseRunApart() async throws {
        let runs = Runs()
        let executions = SharedEventExecutions()
        let queries = [
            "subscription { news { headline } }", "subscription { news { headline } }", "subscription { news { number headline } }",
            "subscription N { news { headline } }", "subscription($t: String) { news(topic: $t) { headline } }",
            "subscription($t: String) { news(topic: $t) { headline } }", "subscription($t: String) { news(topic: $t) { headline } }",
        ]
        let variables: [[GraphQLValue.Member]] = [
            [], [], [], [], [.init("t", .string("weather"))], [.init("t", .string("sport"))], [.init("t", .string("weather"))],
        ]
        let all = try await Self.responses(
            try Self.schema(runs, events: Self.events), executions, readers: queries.indices.map { "r\($0)" }, queries: queries,
            variables: variables)
        #expect(all.allSatisfy { $0.count == 3 })
        // Five distinct shapes (two pairs asking the same), three events each.
        #expect(executions.runs.load(ordering: .relaxed) == 15)
        #expect(runs.headline.load(ordering: .relaxed) == 15)
    }

    @Test(.hangGuard)
    func withoutSharingEachSubscriberRunsEachEvent() async throws {
        let runs = Runs()
        let readers = (0..<5).map { "reader \($0)" }
        let all = try await Self.responses(
            try Self.schema(runs, events: Self.events), nil, readers: readers,
            queries: Array(repeating: "subscription { news { headline } }", count: readers.count))
        #expect(all.allSatisfy { $0.count == 3 })
        #expect(runs.headline.load(ordering: .relaxed) == 15)
    }

    // MARK: - What is held

    static func run(_ executions: SharedEventExecutions, event: Int, text: String = "x") async -> ExecutionResult {
        let shape = SharedEventExecutions.Shape(document: "d", operationName: nil, variables: [], limits: .default)
        return await executions.result(occurrence: SharingKey(event), shape: shape, viewer: SharingKey("v")) {
            (ExecutionResult(data: .leaf(.string(text)), errors: []), false)
        }
    }

    @Test func atMostMaxEntriesResultsAreHeld() async {
        let atLimit = SharedEventExecutions(maxEntries: 3)
        for event in 1...3 { _ = await Self.run(atLimit, event: event) }
        #expect(atLimit.heldResults == 3)
        let overLimit = SharedEventExecutions(maxEntries: 3)
        for event in 1...4 { _ = await Self.run(overLimit, event: event) }
        #expect(overLimit.heldResults == 3)
        // The oldest went: running it again runs it.
        _ = await Self.run(overLimit, event: 1)
        #expect(overLimit.runs.load(ordering: .relaxed) == 5)
        _ = await Self.run(overLimit, event: 4)
        #expect(overLimit.shared.load(ordering: .relaxed) == 1)
    }

    @Test func atMostMaxHeldBytesAreHeld() async {
        let bytes = ExecutionResult(data: .leaf(.string("x")), errors: []).encodedForSharing().heldJSONBytes
        let atLimit = SharedEventExecutions(maxHeldBytes: 2 * bytes)
        for event in 1...2 { _ = await Self.run(atLimit, event: event) }
        #expect(atLimit.heldResults == 2)
        let overLimit = SharedEventExecutions(maxHeldBytes: 2 * bytes - 1)
        for event in 1...2 { _ = await Self.run(overLimit, event: event) }
        #expect(overLimit.heldResults == 1)
    }

    @Test func resultsPastHoldForGo() async throws {
        let executions = SharedEventExecutions(holdFor: .milliseconds(1))
        _ = await Self.run(executions, event: 1)
        try await Task.sleep(for: .milliseconds(20))
        _ = await Self.run(executions, event: 2)
        #expect(executions.heldResults == 1)
    }

    @Test(.hangGuard)
    func aRunCutShortIsNotShared() async throws {
        let executions = SharedEventExecutions()
        let shape = SharedEventExecutions.Shape(document: "d", operationName: nil, variables: [], limits: .default)
        let started = AsyncStream.makeStream(of: Void.self)
        let first = Task {
            await executions.result(occurrence: SharingKey(1), shape: shape, viewer: SharingKey("a")) {
                started.continuation.yield()
                while !Task.isCancelled { await Task.yield() }
                return (ExecutionResult(data: .leaf(.string("cut short")), errors: []), false)
            }
        }
        for await _ in started.stream { break }
        let second = Task {
            await executions.result(occurrence: SharingKey(1), shape: shape, viewer: SharingKey("b")) {
                (ExecutionResult(data: .leaf(.string("whole")), errors: []), false)
            }
        }
        // The second waits on the first's run, which its subscriber then leaves.
        while executions.waiting == 0 { await Task.yield() }
        first.cancel()
        _ = await first.value
        #expect(await second.value.json() == #"{"data":"whole"}"#)
        #expect(executions.runs.load(ordering: .relaxed) == 2)
    }

    @Test func aResultWithErrorsIsNoOneElses() async {
        let executions = SharedEventExecutions()
        let shape = SharedEventExecutions.Shape(document: "d", operationName: nil, variables: [], limits: .default)
        for viewer in ["a", "b"] {
            let result = await executions.result(occurrence: SharingKey(1), shape: shape, viewer: SharingKey(viewer)) {
                (ExecutionResult(data: nil, errors: [GraphQLError(message: "The operation ran past its time budget")]), false)
            }
            #expect(result.errors.count == 1)
        }
        #expect(executions.runs.load(ordering: .relaxed) == 2)
        #expect(executions.heldResults == 0)
    }

    @Test(.hangGuard)
    func aSubscriberThatLeavesStopsWaiting() async throws {
        let executions = SharedEventExecutions()
        let shape = SharedEventExecutions.Shape(document: "d", operationName: nil, variables: [], limits: .default)
        let started = AsyncStream.makeStream(of: Void.self)
        let release = AsyncStream.makeStream(of: Void.self)
        let first = Task {
            await executions.result(occurrence: SharingKey(1), shape: shape, viewer: SharingKey("a")) {
                started.continuation.yield()
                for await _ in release.stream { break }
                return (ExecutionResult(data: .leaf(.string("slow")), errors: []), false)
            }
        }
        for await _ in started.stream { break }
        let second = Task {
            await executions.result(occurrence: SharingKey(1), shape: shape, viewer: SharingKey("b")) {
                (ExecutionResult(data: .leaf(.string("own")), errors: []), false)
            }
        }
        while executions.waiting == 0 { await Task.yield() }
        second.cancel()
        // It stops waiting while the first run goes on.
        #expect(await second.value.json() == #"{"data":"own"}"#)
        #expect(executions.waiting == 0)
        release.continuation.yield()
        #expect(await first.value.json() == #"{"data":"slow"}"#)
    }
}
