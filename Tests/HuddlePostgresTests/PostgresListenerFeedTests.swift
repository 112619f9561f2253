import Foundation
import HuddlePostgres
import HuddleRuntime
import PostgresTestSupport
import RuntimeTestSupport
import Synchronization
import TestSupport
import Testing

/// The listener's feeds: what NOTIFY sends reaches each feed on its own
/// loop, in order, including what was heard before it started; a stopped
/// feed hears nothing more, and the last to stop ends the LISTEN.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct PostgresListenerFeedTests {
    /// What one feed was handed, and on which thread.
    final class Heard: Sendable {
        private let state = Mutex<(payloads: [String], onItsLoop: Bool, ended: Bool)>(([], true, false))
        let loop: EventLoop?

        init(loop: EventLoop?) { self.loop = loop }

        func take(_ event: PostgresListener.Event?) {
            let onItsLoop = loop?.inLoopThread ?? true
            state.withLock { state in
                state.onItsLoop = state.onItsLoop && onItsLoop
                switch event {
                case .notification(let notification)?: state.payloads.append(notification.payload)
                case .reconnected?: state.payloads.append("reconnected")
                case nil: state.ended = true
                }
            }
        }

        var payloads: [String] { state.withLock { $0.payloads } }
        var onItsLoop: Bool { state.withLock { $0.onItsLoop } }
        var ended: Bool { state.withLock { $0.ended } }
    }

    static func until(_ condition: () -> Bool) async {
        while !condition() { try? await Task.sleep(for: .milliseconds(2)) }
    }

    @Test func feedsOnSeveralLoopsHearEachNotificationInOrder() async throws {
        let listenerLoop = RunningLoop()
        let loops = [RunningLoop(), RunningLoop()]
        let configuration = TestDatabase.configuration()
        let pool = PostgresPool(configuration, on: listenerLoop.loop)
        try await pool.start()
        let listener = PostgresListener(configuration, on: listenerLoop.loop)
        try await listener.start()
        let channel = "feed_test_\(UInt32.random(in: 0...UInt32.max))"

        // Six feeds on two loops and one on the listener's; the first hears
        // a notification before it starts, and is handed it first.
        let feeds = try await (0..<7).asyncMap { _ in try await listener.feed(on: channel) }
        try await PostgresListener.notify(channel, payload: "early", through: pool)
        try await Task.sleep(for: .milliseconds(100))
        let heard = (0..<7).map { Heard(loop: $0 < 6 ? loops[$0 % 2].loop : nil) }
        let stops = zip(feeds, heard).map { feed, heard in feed.start(on: heard.loop, heard.take) }
        for number in 1...50 { try await PostgresListener.notify(channel, payload: "\(number)", through: pool) }
        await Self.until { heard.allSatisfy { $0.payloads.count == 51 } }
        for each in heard {
            #expect(each.payloads == ["early"] + (1...50).map(String.init))
            #expect(each.onItsLoop)
        }

        // A stopped feed hears nothing more; the others go on. (A stop is
        // a job on the listener's loop: one queued after it has run after it.)
        stops[0]()
        await listenerLoop.loop.onLoop {}
        try await PostgresListener.notify(channel, payload: "after", through: pool)
        await Self.until { heard[1...].allSatisfy { $0.payloads.count == 52 } }
        #expect(heard[0].payloads.count == 51)

        // A feed made while the others hear the channel hears what comes after.
        let joined = try await listener.feed(on: channel)
        let joinedHeard = Heard(loop: loops[1].loop)
        let stopJoined = joined.start(on: loops[1].loop, joinedHeard.take)
        await listenerLoop.loop.onLoop {}
        try await PostgresListener.notify(channel, payload: "joined", through: pool)
        await Self.until { joinedHeard.payloads == ["joined"] && heard[1...].allSatisfy { $0.payloads.count == 53 } }
        stopJoined()

        // Once all have stopped, nothing reaches them.
        for stop in stops.dropFirst() { stop() }
        await listenerLoop.loop.onLoop {}
        try await PostgresListener.notify(channel, payload: "unheard", through: pool)
        try await Task.sleep(for: .milliseconds(100))
        #expect(heard.allSatisfy { !$0.payloads.contains("unheard") })

        // A feed still going when the listener closes is told so.
        let last = try await listener.feed(on: channel)
        let lastHeard = Heard(loop: loops[0].loop)
        _ = last.start(on: loops[0].loop, lastHeard.take)
        await listener.close()
        await Self.until { lastHeard.ended }
        await pool.close()
        for running in loops + [listenerLoop] { await running.stop() }
    }

    @Test func closingTheListenerEndsItsWaitToReconnect() async throws {
        let loopLog = Log()
        let listenerLoop = RunningLoop(logger: Logger(sink: { loopLog.append($0) }))
        var configuration = TestDatabase.configuration()
        configuration.reconnectBackoff = (.seconds(3600), .seconds(3600))
        let listener = PostgresListener(configuration, on: listenerLoop.loop)
        try await listener.start()
        let channel = "close_test_\(UInt32.random(in: 0...UInt32.max))"
        let feed = try await listener.feed(on: channel)
        let stop = feed.start(on: nil) { _ in }
        // Its connection ends: the listener waits out the backoff (an hour) before it tries again.
        let killed = try await TestDatabase.withPool { pool, _ in
            try await pool.query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1", ["LISTEN \"\(channel)\""]
            ).count
        }
        #expect(killed == 1)
        let deadline = ContinuousClock.now + .seconds(60)
        while listener.connectionNumber != nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(listener.connectionNumber == nil)
        stop()
        await listener.close()
        // No sleep or socket of the listener's is left to keep its loop from
        // stopping (not even until the loop's drain limit, which would log what did).
        #expect(await listenerLoop.stop(within: .seconds(60)))
        #expect(loopLog.all == [])
    }
}

extension Sequence {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
