import Foundation
import GraphQL
import HuddleRuntime
import RuntimeTestSupport
import Synchronization
import TestSupport
import Testing

/// A value the loop's actions and the test both touch.
private final class Shared<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result { value.withLock { body(&$0) } }
}

/// The libuv loop as the executor of Swift tasks.
@Suite struct EventLoopTests {

    @Test(.hangGuard)
    func aScheduledActionRunsOnTheLoopAtItsDeadlineUnlessCancelled() async throws {
        let running = RunningLoop()
        let loop = running.loop
        let log = Log()
        // From another thread: both hop to the loop.
        _ = loop.schedule(at: .now + .milliseconds(30)) { log.append("fired on loop: \(loop.inLoopThread)") }
        let cancel = loop.schedule(at: .now + .milliseconds(30)) { log.append("cancelled one fired") }
        cancel()
        // From the loop itself, already due.
        await Task(executorPreference: loop) {
            _ = loop.schedule(at: .now - .seconds(1)) { log.append("past deadline fired") }
        }.value
        while log.all.count < 2 { try await Task.sleep(for: .milliseconds(10)) }
        try await Task.sleep(for: .milliseconds(100))
        #expect(log.all.sorted() == ["fired on loop: true", "past deadline fired"])
        await running.stop()
    }

    @Test(.hangGuard)
    func repeatingActionsAreCalledEachIntervalUntilCancelled() async throws {
        let running = RunningLoop()
        let loop = running.loop
        let interval = Duration.milliseconds(160)
        let calls = Shared([Int](repeating: 0, count: 100))
        let started = ContinuousClock.now
        let firstCall = Shared<Duration?>(nil)
        let actions = await Task(executorPreference: loop) {
            (0..<100).map { index in
                loop.repeating(every: interval) {
                    firstCall.withLock { $0 = $0 ?? .now - started }
                    calls.withLock { $0[index] += 1 }
                }
            }
        }.value
        while calls.withLock({ $0.min()! }) < 2 { try await Task.sleep(for: .milliseconds(10)) }
        // Not before 15/16 of the interval (libuv's clock counts whole milliseconds).
        #expect(try #require(firstCall.withLock { $0 }) >= interval * 15 / 16 - .milliseconds(2))
        // Half are cancelled on the loop, between two of its turns: none of them is called again.
        let atCancel = await Task(executorPreference: loop) {
            for index in stride(from: 0, to: 100, by: 2) { actions[index].cancel() }
            return calls.withLock { $0 }
        }.value
        while calls.withLock({ counts in stride(from: 1, to: 100, by: 2).contains { counts[$0] < atCancel[$0] + 2 } }) {
            try await Task.sleep(for: .milliseconds(10))
        }
        let now = calls.withLock { $0 }
        #expect(stride(from: 0, to: 100, by: 2).allSatisfy { now[$0] == atCancel[$0] })
        await running.stop()
    }

    @Test(.hangGuard)
    func anExecutionOnTheLoopKeepsItsTimeBudgetWithTheLoopsTimers() async throws {
        let running = RunningLoop()
        var builder = ExecutableSchema.Builder(schema: try buildSchema("type Query { quick: String slow: String }"))
        builder.resolve("Query", "quick") { _ in .value(.string("done")) }
        builder.resolve("Query", "slow") { _ in
            .async {
                try? await Task.sleep(for: .seconds(60))
                return .value(.string("late"))
            }
        }
        let schema = try builder.build()
        var limits = ExecutionLimits.default
        limits.maxExecutionTime = .milliseconds(100)
        let source = Source(body: "{ quick slow }")
        let document = try parse(source)
        let loop = running.loop
        let result = await Task(executorPreference: loop) {
            await execute(schema: schema, document: document, source: source, limits: limits, workExecutor: loop)
        }.value
        #expect(result.json().contains(#""data":{"quick":"done","slow":null}"#))
        #expect(result.errors.map(\.code) == ["OPERATION_TIMEOUT"])
        await running.stop()
    }

    @Test(.hangGuard)
    func aLaneWithMuchQueuedWorkTakesTurnsWithTheOthers() async {
        let running = RunningLoop()
        let loop = running.loop
        let log = Log()
        await Task(executorPreference: loop) {
            let busy = loop.makeLane(), other = loop.makeLane()
            let finished = Gate()
            _ = Task(executorPreference: busy) {
                await withTaskGroup(of: Void.self) { group in
                    // Ten jobs queued at once in one lane, each longer than a turn.
                    for _ in 0..<10 {
                        group.addTask {
                            let until = ContinuousClock.now + EventLoop.slice + .microseconds(100)
                            while ContinuousClock.now < until {}
                            log.append("busy")
                        }
                    }
                    // Queued after all ten, in a lane of its own.
                    _ = Task(executorPreference: other) {
                        #expect(loop.inLoopThread)
                        log.append("other")
                    }
                }
                finished.open()
            }
            await finished.wait()
        }.value
        // One queue would have run it after the ten; in its lane it waits for one at most.
        #expect(log.all.count == 11)
        #expect((log.all.firstIndex(of: "other") ?? 11) <= 1)
        await running.stop()
    }

    /// Async functions run where their caller does (SE-0461): `onLoop`
    /// must go to the loop for its body, and send its caller back after,
    /// whether the body returns or throws, and whoever the caller is.
    @Test(.hangGuard)
    func onLoopRunsItsBodyOnTheLoopAndLeavesItsCallerWhereItWas() async throws {
        struct Refused: Error {}
        let running = RunningLoop()
        let loop = running.loop
        let other = RunningLoop()
        let wasOnLoop = await loop.onLoop { loop.inLoopThread }
        #expect(wasOnLoop && !loop.inLoopThread)
        await #expect(throws: Refused.self) {
            try await loop.onLoop { () async throws(Refused) in throw Refused() }
        }
        #expect(!loop.inLoopThread)
        // A task of another loop comes back to that loop.
        let otherLoop = other.loop
        let back = await Task(executorPreference: otherLoop) {
            let wasOnLoop = await loop.onLoop { loop.inLoopThread }
            return wasOnLoop && otherLoop.inLoopThread && !loop.inLoopThread
        }.value
        #expect(back)
        await other.stop()
        await running.stop()
    }

    @Test(.hangGuard)
    func tasksPreferringTheLoopRunOnItsThread() async {
        let running = RunningLoop()
        let loop = running.loop
        let onLoop = await Task(executorPreference: loop) {
            var always = loop.inLoopThread
            for _ in 0..<1_000 {
                await Task.yield()
                always = always && loop.inLoopThread
            }
            return always
        }.value
        #expect(onLoop)
        #expect(!loop.inLoopThread)
        await running.stop()
    }

    @Test(.hangGuard)
    func aMillionSuspensionsOnTheLoopAllResume() async {
        let running = RunningLoop()
        let loop = running.loop
        let count = await Task(executorPreference: loop) {
            var resumed = 0
            for _ in 0..<1_000_000 {
                await Task.yield()
                resumed += 1
            }
            return resumed
        }.value
        #expect(count == 1_000_000)
        await running.stop()
    }

    @Test(.hangGuard)
    func continuationsResumedFromOtherThreadsComeBackToTheLoop() async {
        let running = RunningLoop()
        let loop = running.loop
        let allOnLoop = await Task(executorPreference: loop) {
            var always = true
            for _ in 0..<2_000 {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    DispatchQueue.global().async { continuation.resume() }
                }
                always = always && loop.inLoopThread
            }
            return always
        }.value
        #expect(allOnLoop)
        await running.stop()
    }

    @Test(.hangGuard)
    func manyTasksFromManyThreadsAllRun() async {
        let running = RunningLoop()
        let loop = running.loop
        let total = await withTaskGroup(of: Int.self) { group in
            for index in 0..<100 {
                group.addTask(executorPreference: loop) {
                    await Task.yield()
                    return loop.inLoopThread ? index : -1_000_000
                }
            }
            return await group.reduce(0, +)
        }
        #expect(total == (0..<100).reduce(0, +))
        await running.stop()
    }

    @Test(.hangGuard)
    func timersResumeTheirTaskOnTheLoop() async {
        let running = RunningLoop()
        let loop = running.loop
        let order = await Task(executorPreference: loop) {
            let log = Log()
            await withTaskGroup(of: Void.self) { group in
                group.addTask(executorPreference: loop) {
                    await loop.sleep(for: .milliseconds(60))
                    log.append("late")
                }
                group.addTask(executorPreference: loop) {
                    await loop.sleep(for: .milliseconds(1))
                    log.append("early")
                }
            }
            return log.all.sorted() + [loop.inLoopThread ? "on loop" : "elsewhere"]
        }.value
        // Both timers fire and resume their tasks on the loop (their order is libuv's business).
        #expect(order == ["early", "late", "on loop"])
        await running.stop()
    }

    @Test(.hangGuard)
    func cancellingASleepingTaskWakesItAndFreesTheLoop() async {
        let running = RunningLoop()
        let loop = running.loop
        let sleeper = Task(executorPreference: loop) {
            let started = ContinuousClock.now
            await loop.sleep(for: .seconds(3600))
            return ContinuousClock.now - started
        }
        try? await Task.sleep(for: .milliseconds(20))
        sleeper.cancel()
        let slept = await sleeper.value
        #expect(slept < .seconds(60))
        // No timer is left behind to keep the loop from stopping.
        await running.stop()
    }

    @Test(.hangGuard)
    func threadPoolWorkRunsOffTheLoopAndResumesOnIt() async {
        let running = RunningLoop()
        let loop = running.loop
        let (workOnLoop, resumedOnLoop, sum) = await Task(executorPreference: loop) {
            let (onLoop, sum) = await loop.runInThreadPool { (loop.inLoopThread, (1...1000).reduce(0, +)) }
            return (onLoop, loop.inLoopThread, sum)
        }.value
        #expect(!workOnLoop)
        #expect(resumedOnLoop)
        #expect(sum == 500_500)
        await running.stop()
    }

    @Test(.hangGuard)
    func whatIsQueuedWhenTheLoopStopsStillRunsBeforeItReturns() async {
        let running = RunningLoop()
        let loop = running.loop
        let log = Log()
        await Task(executorPreference: loop) {
            // A task that goes on after the stop: each yield queues it again,
            // after the turn in which the loop was told to stop.
            _ = Task(executorPreference: loop) {
                loop.stop()
                for _ in 0..<3 { await Task.yield() }
                log.append("went on after the stop, on the loop: \(loop.inLoopThread)")
            }
            // A task waiting on its timer: the timer fires as the loop
            // finishes, and the task's continuation runs before `run` returns.
            _ = Task(executorPreference: loop) {
                await loop.sleep(for: .milliseconds(50))
                log.append("woke on the loop: \(loop.inLoopThread)")
            }
        }.value
        #expect(await running.finished(within: .seconds(60)))
        #expect(log.all == ["went on after the stop, on the loop: true", "woke on the loop: true"])
    }

    @Test(.hangGuard)
    func aSecondStopWhileTheLoopFinishesKeepsItsLimit() async {
        let lines = Log()
        let running = RunningLoop(drainLimit: .milliseconds(200), logger: Logger(sink: { lines.append($0) }))
        let loop = running.loop
        // A timer an hour away keeps the loop finishing until its limit;
        // stops that come meanwhile (a second signal) change nothing.
        _ = loop.schedule(at: .now + .seconds(3600)) {}
        loop.stop()
        for _ in 0..<5 {
            loop.stop()
            try? await Task.sleep(for: .milliseconds(20))
        }
        #expect(await running.finished(within: .seconds(60)))
        #expect(lines.all.count == 1)
    }

    @Test(.hangGuard)
    func aHandleStillOpenAfterTheDrainLimitIsLoggedAndTheLoopStopsAnyway() async {
        let lines = Log()
        let running = RunningLoop(drainLimit: .milliseconds(200), logger: Logger(sink: { lines.append($0) }))
        let loop = running.loop
        // A timer an hour away that nobody cancels would keep the loop running for that hour.
        _ = loop.schedule(at: .now + .seconds(3600)) {}
        // A keep-alive asked for while the loop stops is never called, and keeps nothing running.
        let called = Log()
        loop.stop()
        loop.enqueue { _ = loop.repeating(every: .milliseconds(20)) { called.append("called") } }
        #expect(await running.finished(within: .seconds(60)))
        let logged = lines.all
        #expect(logged.count == 1)
        #expect(logged.first?.contains("the event loop stopped with handles still open") == true)
        #expect(logged.first?.contains("\"handles\":\"timer\"") == true)
        #expect(called.all.isEmpty)
    }

    @Test(.hangGuard)
    func aLoopWhoseHandlesAreClosedStopsWithoutALogLine() async {
        let lines = Log()
        let running = RunningLoop(drainLimit: .milliseconds(200), logger: Logger(sink: { lines.append($0) }))
        let cancel = running.loop.schedule(at: .now + .seconds(3600)) {}
        cancel()
        _ = await Task(executorPreference: running.loop) {
            running.loop.repeating(every: .milliseconds(20)) {}
        }.value
        #expect(await running.stop(within: .seconds(60)))
        #expect(lines.all.isEmpty)
    }

    /// An actor whose executor is the loop runs on the loop's thread, and a
    /// task preferring the loop calls nonisolated code without hopping.
    actor OnLoop {
        let loop: EventLoop
        init(loop: EventLoop) { self.loop = loop }
        nonisolated var unownedExecutor: UnownedSerialExecutor { loop.serialExecutor.asUnownedSerialExecutor() }
        func runsOnLoopThread() -> Bool { loop.inLoopThread }
    }

    @Test(.hangGuard)
    func actorsOnTheLoopRunOnItsThread() async {
        let running = RunningLoop()
        let actor = OnLoop(loop: running.loop)
        var onLoop = true
        for _ in 0..<100 { onLoop = await actor.runsOnLoopThread() && onLoop }
        #expect(onLoop)
        await running.stop()
    }
}
