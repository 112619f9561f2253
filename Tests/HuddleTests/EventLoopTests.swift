import Foundation
import HuddleRuntime
import Synchronization
import Testing

/// The libuv loop as the executor of Swift tasks.
@Suite struct EventLoopTests {
    /// A loop running on a thread of its own for the test.
    final class RunningLoop: Sendable {
        let loop = EventLoop()
        let finished = Atomic<Bool>(false)

        init() {
            Thread { [self] in
                loop.run()
                finished.store(true, ordering: .releasing)
            }.start()
        }

        func stop() async {
            loop.stop()
            while !finished.load(ordering: .acquiring) { await Task.yield() }
        }
    }

    @Test(.timeLimit(.minutes(1)))
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

    @Test(.timeLimit(.minutes(1)))
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

    @Test(.timeLimit(.minutes(1)))
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

    @Test(.timeLimit(.minutes(1)))
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
}
