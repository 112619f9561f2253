import Dispatch
import Synchronization
import TestSupport
import Testing

@testable import GraphQL

/// Pushed subscriptions (`subscribe(…, pushingOn:)`), without a time
/// budget (a held run waits on the test, however busy the machine): the same responses
/// as a stream's, in the source's order, shared across queues, ending
/// after the last response, and bounded in the events they keep.
@Suite struct SubscriptionFeedTests {
    typealias News = SharedEventExecutionsTests.News
    typealias Reader = SharedEventExecutionsTests.Reader

    /// A serial queue on a thread of its own, as a server's loop is.
    final class TestQueue: TaskExecutor, @unchecked Sendable {
        private let dispatch = DispatchQueue(label: "subscriber queue")

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            dispatch.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        }

        /// Given to every `queue` of this one, as a server's loop gives its own.
        let waits: SharedRunWaits?

        init(gatheringWaits: Bool = false) {
            waits = gatheringWaits ? SharedRunWaits() : nil
        }

        var queue: SubscriberQueue { SubscriberQueue(executor: self, waits: waits) { work in self.dispatch.async(execute: work) } }

        /// The waits under way on this queue, read on it.
        var waitsUnderWay: Int {
            get async {
                await withCheckedContinuation { continuation in
                    dispatch.async { continuation.resume(returning: self.waits?.count ?? 0) }
                }
            }
        }
    }

    /// A source many subscriptions follow: what it publishes reaches each
    /// on its queue, in order.
    final class Topic: Sendable {
        private let sinks = Mutex<[Int: (SubscriberQueue?, @Sendable (SourceEventFeed.Delivery) -> Void)]>([:])
        private let next = Atomic<Int>(0)
        let stops = Atomic<Int>(0)
        let discards = Atomic<Int>(0)

        var feed: SourceEventFeed {
            SourceEventFeed(discard: { [self] in discards.add(1, ordering: .relaxed) }) { [self] queue, deliver in
                let id = next.add(1, ordering: .relaxed).newValue
                sinks.withLock { $0[id] = (queue, deliver) }
                return { [self] in
                    stops.add(1, ordering: .relaxed)
                    sinks.withLock { $0[id] = nil }
                }
            }
        }

        var followers: Int { sinks.withLock { $0.count } }

        func publish(_ delivery: SourceEventFeed.Delivery) {
            for (queue, deliver) in sinks.withLock({ Array($0.values) }) {
                if let queue { queue.async { deliver(delivery) } } else { deliver(delivery) }
            }
        }
    }

    /// A resolver held until the test lets it go.
    final class Hold: Sendable {
        private let state = Mutex<(held: Bool, waiting: [CheckedContinuation<Void, Never>])>((true, []))
        func pass() async {
            await withCheckedContinuation { continuation in
                let go = state.withLock { state -> Bool in
                    if state.held { state.waiting.append(continuation) }
                    return !state.held
                }
                if go { continuation.resume() }
            }
        }
        func release() {
            for continuation in state.withLock({ state in
                state.held = false
                defer { state.waiting = [] }
                return state.waiting
            }) { continuation.resume() }
        }
        var waiting: Int { state.withLock { $0.waiting.count } }
    }

    static func schema(_ topic: Topic, runs: SharedEventExecutionsTests.Runs, hold: Hold? = nil) throws -> ExecutableSchema {
        var builder = ExecutableSchema.Builder(
            schema: try buildSchema(
                """
                type Query { a: Int }
                type Subscription { news(topic: String): News! }
                type News { number: Int! headline: String! forYou: String! }
                """))
        builder.resolve("Query", "a") { _ in .null }
        builder.subscribe("Subscription", "news", feed: { _ in topic.feed })
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
            if news.number == 1, let hold {
                return .async {
                    await hold.pass()
                    return .value(.string(news.headline))
                }
            }
            return .value(.string(news.headline))
        }
        builder.resolve("News", "forYou") { input in
            guard case .object(let news as News) = input.parent, let reader = input.context as? Reader else { return .null }
            runs.forYou.add(1, ordering: .relaxed)
            return .value(.string("\(news.headline), for \(reader.askedName)"))
        }
        return try builder.build()
    }

    /// What each subscriber was given, and whether it ended; it keeps the
    /// feeds (dropping a feed stops it), set before any response.
    final class Received: @unchecked Sendable {
        var feeds: [SubscriptionFeed] = []
        private let state = Mutex<(responses: [Int: [String]], ended: [Int: Int])>(([:], [:]))
        func add(_ index: Int, _ response: String) { state.withLock { $0.responses[index, default: []].append(response) } }
        func end(_ index: Int) { state.withLock { $0.ended[index, default: 0] += 1 } }
        func responses(_ index: Int) -> [String] { state.withLock { $0.responses[index] ?? [] } }
        func ended(_ index: Int) -> Int { state.withLock { $0.ended[index] ?? 0 } }
        var total: Int { state.withLock { $0.responses.values.reduce(0) { $0 + $1.count } } }
        var endedCount: Int { state.withLock { $0.ended.count } }
    }

    /// Subscribes `readers[i]` with `queries[i]` on the queues in turn and
    /// starts each feed, once every one follows the topic.
    static func follow(
        _ schema: ExecutableSchema, _ topic: Topic, _ executions: SharedEventExecutions?, readers: [String], queries: [String],
        queues: [TestQueue], received: Received
    ) async throws -> [SubscriptionFeed] {
        var feeds: [SubscriptionFeed] = []
        for (index, name) in readers.enumerated() {
            let source = Source(body: queries[index])
            let document = try parse(source)
            let reader = Reader(name)
            let queue = queues[index % queues.count].queue
            let result = await subscribe(
                schema: schema, document: document, source: source, context: { reader }, limits: .untimed, sharedEvents: executions,
                pushingOn: queue)
            guard case .feed(let feed) = result else {
                Issue.record("no feed for \(queries[index])")
                continue
            }
            queue.async {
                feed.start { response in
                    received.add(index, response.json())
                } ended: {
                    received.end(index)
                }
            }
            feeds.append(feed)
        }
        while topic.followers < readers.count { await Task.yield() }
        received.feeds = feeds
        return feeds
    }

    static func until(_ condition: () -> Bool) async {
        while !condition() { try? await Task.sleep(for: .milliseconds(1)) }
    }

    static let events = SharedEventExecutionsTests.events

    @Test(.hangGuard)
    func subscribersOnTwoQueuesShareOneRunOfEachEvent() async throws {
        let topic = Topic()
        let runs = SharedEventExecutionsTests.Runs()
        let executions = SharedEventExecutions()
        let readers = (0..<20).map { "reader \($0)" }
        let received = Received()
        _ = try await Self.follow(
            try Self.schema(topic, runs: runs), topic, executions, readers: readers,
            queries: Array(repeating: "subscription { news { number headline } }", count: readers.count),
            queues: [TestQueue(), TestQueue()], received: received)
        for event in Self.events { topic.publish(.event(.object(event))) }
        topic.publish(.end(nil))
        await Self.until { received.endedCount == readers.count }
        for index in readers.indices {
            #expect(
                received.responses(index) == [
                    #"{"data":{"news":{"number":1,"headline":"Rain"}}}"#, #"{"data":{"news":{"number":2,"headline":"Sun"}}}"#,
                    #"{"data":{"news":{"number":3,"headline":"Snow"}}}"#,
                ])
            #expect(received.ended(index) == 1)
        }
        #expect(runs.headline.load(ordering: .relaxed) == 3)
        #expect(executions.runs.load(ordering: .relaxed) == 3)
        #expect(executions.shared.load(ordering: .relaxed) == 57)
        // Each subscription let go of the source when it ended.
        #expect(topic.stops.load(ordering: .relaxed) == readers.count)
    }

    /// The differential: whatever the query, the viewers and the sharing,
    /// a pushed subscriber is given what a stream's consumer is.
    @Test(.hangGuard)
    func pushedResponsesAreTheStreamsResponses() async throws {
        let queries = [
            "subscription { news { number headline } }", "subscription { news { number forYou } }",
            "subscription N { news { headline forYou } }", "subscription { news { headline nope: number } }",
        ]
        let readers = ["ana", "bo", "ana", "cy", "bo", "ana", "dee", "cy"]
        let subscriberQueries = readers.indices.map { queries[$0 % queries.count] }
        // Through streams, one subscriber at a time, unshared.
        var expected: [[String]] = []
        for (index, name) in readers.enumerated() {
            let topic = Topic()
            let schema = try Self.schema(topic, runs: SharedEventExecutionsTests.Runs())
            let source = Source(body: subscriberQueries[index])
            let reader = Reader(name)
            let result = await subscribe(
                schema: schema, document: try parse(source), source: source, context: { reader }, limits: .untimed)
            guard case .stream(let stream) = result else { throw SubscriptionFeedError.noStream }
            let reading = Task {
                var responses: [String] = []
                for await response in stream { responses.append(response.json()) }
                return responses
            }
            await Self.until { topic.followers == 1 }
            for event in Self.events { topic.publish(.event(.object(event))) }
            topic.publish(.end(nil))
            expected.append(await reading.value)
        }
        #expect(expected.allSatisfy { $0.count == Self.events.count })
        for (sharing, gathering) in [(false, false), (true, false), (true, true)] {
            let topic = Topic()
            let schema = try Self.schema(topic, runs: SharedEventExecutionsTests.Runs())
            let received = Received()
            let queues = (0..<3).map { _ in TestQueue(gatheringWaits: gathering) }
            _ = try await Self.follow(
                schema, topic, sharing ? SharedEventExecutions() : nil, readers: readers, queries: subscriberQueries,
                queues: queues, received: received)
            for event in Self.events { topic.publish(.event(.object(event))) }
            topic.publish(.end(nil))
            await Self.until { received.endedCount == readers.count }
            for index in readers.indices {
                #expect(received.responses(index) == expected[index], "sharing \(sharing), gathering \(gathering), subscriber \(index)")
            }
            for queue in queues { #expect(await queue.waitsUnderWay == 0) }
        }
    }

    /// A queue's subscriptions waiting for one shared run wait for it
    /// once in the registry (issue 42): with two queues, two waits for
    /// eighteen subscribers, rather than eighteen; each is given the run's
    /// result all the same.
    @Test(.hangGuard, arguments: [false, true])
    func aQueuesSubscribersWaitOnceForASharedRun(gathering: Bool) async throws {
        let topic = Topic()
        let hold = Hold()
        let runs = SharedEventExecutionsTests.Runs()
        let executions = SharedEventExecutions()
        let readers = (0..<20).map { "reader \($0)" }
        let received = Received()
        let queues = [TestQueue(gatheringWaits: gathering), TestQueue(gatheringWaits: gathering)]
        _ = try await Self.follow(
            try Self.schema(topic, runs: runs, hold: hold), topic, executions, readers: readers,
            queries: Array(repeating: "subscription { news { number headline } }", count: readers.count),
            queues: queues, received: received)
        topic.publish(.event(.object(News(number: 1, headline: "held"))))
        // One subscriber runs the event; the nineteen others wait for it.
        await Self.until { hold.waiting == 1 && executions.waiting == (gathering ? 2 : 19) }
        let waits = [await queues[0].waitsUnderWay, await queues[1].waitsUnderWay]
        #expect(waits.reduce(0, +) == (gathering ? 2 : 0))
        hold.release()
        await Self.until { received.total == readers.count }
        for index in readers.indices {
            #expect(received.responses(index) == [#"{"data":{"news":{"number":1,"headline":"held"}}}"#])
        }
        #expect(runs.headline.load(ordering: .relaxed) == 1)
        #expect(executions.runs.load(ordering: .relaxed) == 1)
        #expect(executions.shared.load(ordering: .relaxed) == 19)
        // The next event starts afresh: the ended waits are gone.
        topic.publish(.event(.object(News(number: 2, headline: "next"))))
        await Self.until { received.total == 2 * readers.count }
        #expect(executions.runs.load(ordering: .relaxed) == 2)
        for queue in queues { #expect(await queue.waitsUnderWay == 0) }
    }

    /// A wait for a viewer's own run is never another viewer's: two of
    /// Ana's subscriptions and Bo's and Cy's on one queue, whose runs read
    /// the viewer, each hear their own answer to every event.
    @Test(.hangGuard)
    func aViewersOwnRunIsNotGatheredWithOthers() async throws {
        let topic = Topic()
        let runs = SharedEventExecutionsTests.Runs()
        let executions = SharedEventExecutions()
        let readers = ["ana", "ana", "bo", "cy"]
        let received = Received()
        let queue = TestQueue(gatheringWaits: true)
        _ = try await Self.follow(
            try Self.schema(topic, runs: runs), topic, executions, readers: readers,
            queries: Array(repeating: "subscription { news { number forYou } }", count: readers.count), queues: [queue],
            received: received)
        for event in Self.events { topic.publish(.event(.object(event))) }
        topic.publish(.end(nil))
        await Self.until { received.endedCount == readers.count }
        for (index, reader) in readers.enumerated() {
            let expected = Self.events.map { #"{"data":{"news":{"number":\#($0.number),"forYou":"\#($0.headline), for \#(reader)"}}}"# }
            #expect(received.responses(index) == expected, "\(reader)")
        }
        #expect(await queue.waitsUnderWay == 0)
    }

    /// A subscription its consumer drops while it waits in a gathered
    /// wait stops, as one waiting on its own would: the wait holds it
    /// weakly, and it answers nothing when the run ends.
    @Test(.hangGuard)
    func aDroppedSubscriptionInAGatheredWaitStops() async throws {
        let topic = Topic()
        let hold = Hold()
        let executions = SharedEventExecutions()
        let readers = ["ana", "bo", "cy"]
        let received = Received()
        let queue = TestQueue(gatheringWaits: true)
        var feeds: [SubscriptionFeed] = try await Self.follow(
            try Self.schema(topic, runs: SharedEventExecutionsTests.Runs(), hold: hold), topic, executions, readers: readers,
            queries: Array(repeating: "subscription { news { number headline } }", count: readers.count), queues: [queue],
            received: received)
        topic.publish(.event(.object(News(number: 1, headline: "held"))))
        await Self.until { hold.waiting == 1 && executions.waiting == 1 }
        #expect(await queue.waitsUnderWay == 1)
        // Only the one running the event is kept (by its run) once the test lets go.
        weak let first = feeds[0]
        weak let second = feeds[1]
        weak let third = feeds[2]
        received.feeds = []
        feeds = []
        _ = feeds
        await Self.until { [first, second, third].compactMap { $0 }.count == 1 }
        hold.release()
        await Self.until { received.total == 1 }
        #expect(await queue.waitsUnderWay == 0)
        #expect(received.total == 1)
    }

    @Test(.hangGuard)
    func eventsKeepTheirOrderWhileOneRuns() async throws {
        let topic = Topic()
        let hold = Hold()
        let schema = try Self.schema(topic, runs: SharedEventExecutionsTests.Runs(), hold: hold)
        let received = Received()
        _ = try await Self.follow(
            schema, topic, SharedEventExecutions(), readers: ["ana", "bo"],
            queries: ["subscription { news { number headline } }", "subscription { news { number } }"],
            queues: [TestQueue()], received: received)
        let later = (2...6).map { News(number: $0, headline: "later \($0)") }
        topic.publish(.event(.object(News(number: 1, headline: "first"))))
        await Self.until { hold.waiting == 1 }
        for event in later { topic.publish(.event(.object(event))) }
        // Each subscription keeps its own order: one whose run is held holds back only its own events.
        await Self.until { received.responses(1).count == 6 }
        #expect(received.responses(0).isEmpty)
        hold.release()
        await Self.until { received.responses(0).count == 6 }
        let inOrder: [Int] = Array(1...6)
        #expect(Self.numbers(received.responses(0)) == inOrder)
        #expect(Self.numbers(received.responses(1)) == inOrder)
    }

    /// The `number` of each response.
    static func numbers(_ responses: [String]) -> [Int] {
        responses.map { response -> Int in
            guard let match = response.firstMatch(of: /"number":(\d+)/) else { return 0 }
            return Int(match.1) ?? 0
        }
    }

    @Test(.hangGuard)
    func aFailedSourceEndsAfterItsLastResponse() async throws {
        let topic = Topic()
        let schema = try Self.schema(topic, runs: SharedEventExecutionsTests.Runs())
        let received = Received()
        _ = try await Self.follow(
            schema, topic, nil, readers: ["ana"], queries: ["subscription { news { number } }"], queues: [TestQueue()],
            received: received)
        topic.publish(.event(.object(Self.events[0])))
        topic.publish(.end(GraphQLError(message: "The topic went away.")))
        await Self.until { received.ended(0) == 1 }
        #expect(received.responses(0) == [#"{"data":{"news":{"number":1}}}"#, #"{"errors":[{"message":"The topic went away."}]}"#])
    }

    @Test(.hangGuard)
    func aCancelledSubscriptionLetsGoOfItsSource() async throws {
        let topic = Topic()
        let schema = try Self.schema(topic, runs: SharedEventExecutionsTests.Runs())
        let received = Received()
        let queue = TestQueue()
        let feeds = try await Self.follow(
            schema, topic, nil, readers: ["ana"], queries: ["subscription { news { number } }"], queues: [queue], received: received)
        topic.publish(.event(.object(Self.events[0])))
        await Self.until { received.total == 1 }
        let feed = try #require(feeds.first)
        queue.queue.async { feed.cancel() }
        await Self.until { topic.followers == 0 }
        topic.publish(.event(.object(Self.events[1])))
        try await Task.sleep(for: .milliseconds(20))
        #expect(received.total == 1 && received.ended(0) == 0)
    }

    /// A subscription that ends before it starts (its client left while
    /// it was being made) lets go of its source all the same, whether
    /// cancelled or dropped.
    @Test(.hangGuard)
    func aSubscriptionThatNeverStartsLetsGoOfItsSource() async throws {
        let topic = Topic()
        let schema = try Self.schema(topic, runs: SharedEventExecutionsTests.Runs())
        let source = Source(body: "subscription { news { number } }")
        let queue = TestQueue()
        for cancelled in [true, false] {
            var result: PushedSubscriptionResult? = await subscribe(
                schema: schema, document: try parse(source), source: source, limits: .untimed, pushingOn: queue.queue)
            guard case .feed(let feed)? = result else { throw SubscriptionFeedError.noStream }
            if cancelled {
                queue.queue.async { feed.cancel() }
            }
            result = nil
            _ = result
        }
        await Self.until { topic.discards.load(ordering: .relaxed) == 2 }
        #expect(topic.stops.load(ordering: .relaxed) == 0)
    }

    /// Events that come while one runs wait their turn, at most
    /// `maxWaitingEvents` of them; past that the oldest go.
    @Test(.hangGuard, arguments: [0, 1])
    func atMostMaxWaitingEventsWait(over: Int) async throws {
        let topic = Topic()
        let hold = Hold()
        let schema = try Self.schema(topic, runs: SharedEventExecutionsTests.Runs(), hold: hold)
        let received = Received()
        let feeds = try await Self.follow(
            schema, topic, nil, readers: ["ana"], queries: ["subscription { news { number headline } }"], queues: [TestQueue()],
            received: received)
        topic.publish(.event(.object(News(number: 1, headline: "held"))))
        await Self.until { hold.waiting == 1 }
        let waiting = SubscriptionFeed.maxWaitingEvents + over
        for number in 2..<(2 + waiting) { topic.publish(.event(.object(News(number: number, headline: "")))) }
        topic.publish(.end(nil))
        hold.release()
        await Self.until { received.ended(0) == 1 }
        let responses = received.responses(0)
        #expect(responses.count == 1 + SubscriptionFeed.maxWaitingEvents)
        #expect(responses.first == #"{"data":{"news":{"number":1,"headline":"held"}}}"#)
        // The oldest waiting went first; the newest is kept.
        #expect(responses.last == #"{"data":{"news":{"number":\#(1 + waiting),"headline":""}}}"#)
        #expect(responses.dropFirst().first == #"{"data":{"news":{"number":\#(2 + over),"headline":""}}}"#)
        #expect(feeds.first?.droppedEvents == over)
    }
}

enum SubscriptionFeedError: Error {
    case noStream
}
