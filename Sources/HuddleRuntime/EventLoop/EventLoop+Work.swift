import CLibUV
import Foundation

extension EventLoop {
    /// Suspends the calling task for `duration` with a libuv timer, or until
    /// the task is cancelled, whichever comes first. Call it from a task
    /// running on this loop.
    public func sleep(for duration: Duration) async {
        let milliseconds = UInt64(max(0, duration.milliseconds))
        let sleeper = Sleeper()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                checkIsolated()
                if sleeper.cancelled { return continuation.resume() }
                sleeper.continuation = continuation
                let timer = UnsafeMutablePointer<uv_timer_t>.allocate(capacity: 1)
                uv_timer_init(uv, timer)
                timer.pointee.data = Unmanaged.passUnretained(sleeper).toOpaque()
                sleeper.timer = timer
                uv_timer_start(
                    timer,
                    { timer in
                        Unmanaged<Sleeper>.fromOpaque(timer!.pointee.data).takeUnretainedValue().wake()
                    }, milliseconds, 0)
            }
        } onCancel: {
            // Any thread; the sleeper is touched on the loop only.
            enqueue {
                sleeper.cancelled = true
                sleeper.wake()
            }
        }
    }

    /// Runs CPU-heavy `work` (password hashing, say) on libuv's thread pool,
    /// so the loop keeps serving, and resumes on the loop with its result.
    /// Call it from a task running on this loop.
    public func runInThreadPool<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { (continuation: CheckedContinuation<Result, Never>) in
            checkIsolated()
            let request = UnsafeMutablePointer<uv_work_t>.allocate(capacity: 1)
            request.pointee.data = Unmanaged.passRetained(WorkBox(work: work, continuation: continuation)).toOpaque()
            uv_queue_work(
                uv, request,
                { request in
                    // On a pool thread.
                    Unmanaged<AnyWorkBox>.fromOpaque(request!.pointee.data).takeUnretainedValue().perform()
                },
                { request, _ in
                    // Back on the loop thread.
                    let box = Unmanaged<AnyWorkBox>.fromOpaque(request!.pointee.data).takeRetainedValue()
                    request!.deallocate()
                    box.finish()
                })
        }
    }

    /// Calls `handler` on the loop thread each time the process receives
    /// `signal` (SIGTERM, SIGINT, ...). Call it on the loop thread.
    public func onSignal(_ signal: Int32, _ handler: @escaping () -> Void) {
        checkIsolated()
        let handle = UnsafeMutablePointer<uv_signal_t>.allocate(capacity: 1)
        uv_signal_init(uv, handle)
        handle.pointee.data = Unmanaged.passRetained(HandlerBox(handler)).toOpaque()
        uv_signal_start(
            handle,
            { handle, _ in
                Unmanaged<HandlerBox>.fromOpaque(handle!.pointee.data).takeUnretainedValue().handler()
            }, signal)
        // A signal watcher must not keep the loop alive on its own.
        uv_unref(UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_handle_t.self))
    }
}

/// A sleeping task's timer; used on the loop thread only.
private final class Sleeper: @unchecked Sendable {
    var timer: UnsafeMutablePointer<uv_timer_t>?
    var continuation: CheckedContinuation<Void, Never>?
    var cancelled = false

    /// Closes the timer and resumes the task, once.
    func wake() {
        if let timer {
            self.timer = nil
            uv_timer_stop(timer)
            uv_close(UnsafeMutableRawPointer(timer).assumingMemoryBound(to: uv_handle_t.self)) { handle in
                handle!.withMemoryRebound(to: uv_timer_t.self, capacity: 1) { $0.deallocate() }
            }
        }
        continuation?.resume()
        continuation = nil
    }
}

private final class HandlerBox {
    let handler: () -> Void
    init(_ handler: @escaping () -> Void) { self.handler = handler }
}

/// Thread-pool work with its result, type-erased for the C callbacks.
private class AnyWorkBox {
    func perform() {}
    func finish() {}
}

/// Sendable because libuv hands it over: the pool thread writes `result`
/// before `uv_queue_work` calls back on the loop thread, which reads it.
private final class WorkBox<Result: Sendable>: AnyWorkBox, @unchecked Sendable {
    let work: @Sendable () -> Result
    let continuation: CheckedContinuation<Result, Never>
    // Written on the pool thread, read on the loop thread after libuv's hand-over.
    var result: Result?

    init(work: @escaping @Sendable () -> Result, continuation: CheckedContinuation<Result, Never>) {
        self.work = work
        self.continuation = continuation
    }

    override func perform() { result = work() }
    override func finish() { continuation.resume(returning: result!) }
}

extension Duration {
    /// Whole milliseconds, as libuv timers take them.
    package var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }

    /// In seconds, as metrics report durations.
    package var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

extension EventLoop {
    /// Runs `body` on this loop's thread: at once when already there,
    /// otherwise in the calling task with the loop as its executor preference.
    public func onLoop<Result, Failure: Error>(_ body: () async throws(Failure) -> Result) async throws(Failure) -> Result {
        if inLoopThread { return try await body() }
        do {
            let result = try await withTaskExecutorPreference(self) { () async throws(Failure) -> Result in
                await Self.goToPreferredExecutor()
                return try await body()
            }
            await Self.goToPreferredExecutor()
            return result
        } catch {
            await Self.goToPreferredExecutor()
            throw error
        }
    }

    /// Goes to the executor the calling task now prefers (the global one
    /// when it prefers none). Async functions run where their caller does
    /// (SE-0461), so a change of preference moves no one by itself: into
    /// `onLoop`, this takes the body to the loop; after it, the caller back
    /// off the loop's thread, where its next await would find it no longer
    /// is. `Task.yield` begins with the hop to the generic executor (under
    /// the task's preference) that moves it, then queues it once more
    /// there; an empty `@concurrent` function's hop of its own is dropped
    /// by the optimiser as dead. Only a call that crosses loops pays this.
    private static func goToPreferredExecutor() async {
        await Task.yield()
    }
}

extension EventLoop {
    /// Runs `body` with a loop running on a thread of its own, stopped
    /// after: for a command's one piece of database work.
    public static func withOwnThread<T: Sendable>(_ body: @Sendable (EventLoop) async throws -> T) async throws -> T {
        let loop = EventLoop()
        Thread { loop.run() }.start()
        defer { loop.stop() }
        return try await loop.onLoop { try await body(loop) }
    }
}

extension EventLoop {
    /// Calls `action` on the loop thread at `deadline` (a libuv timer),
    /// unless the returned cancel is called first; both from any thread.
    public func schedule(at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        let alarm = Alarm(action)
        let milliseconds = UInt64(max(0, (deadline - ContinuousClock.now).milliseconds))
        // Start and cancel run on the loop thread, in the order they are asked for.
        onLoop { [self] in alarm.start(on: uv, after: milliseconds) }
        return { [self] in onLoop { alarm.cancel() } }
    }

    /// Runs `body` now when on the loop thread, else as a job on it.
    private func onLoop(_ body: @escaping @Sendable () -> Void) {
        if inLoopThread { body() } else { enqueue(body) }
    }
}

/// A one-shot timer for `schedule(at:)`; touched on the loop thread only.
private final class Alarm: @unchecked Sendable {
    private let action: @Sendable () -> Void
    private var timer: UnsafeMutablePointer<uv_timer_t>?
    private var done = false

    init(_ action: @escaping @Sendable () -> Void) {
        self.action = action
    }

    func start(on loop: UnsafeMutablePointer<uv_loop_t>, after milliseconds: UInt64) {
        guard !done else { return }
        let timer = UnsafeMutablePointer<uv_timer_t>.allocate(capacity: 1)
        uv_timer_init(loop, timer)
        timer.pointee.data = Unmanaged.passRetained(self).toOpaque()
        self.timer = timer
        uv_timer_start(
            timer,
            { timer in
                let alarm = Unmanaged<Alarm>.fromOpaque(timer!.pointee.data).takeUnretainedValue()
                alarm.close()
                alarm.action()
            }, milliseconds, 0)
    }

    func cancel() {
        close()
    }

    /// Stops and frees the timer, once; whatever comes after does nothing.
    private func close() {
        done = true
        guard let timer else { return }
        self.timer = nil
        uv_timer_stop(timer)
        Unmanaged<Alarm>.fromOpaque(timer.pointee.data).release()
        uv_close(UnsafeMutableRawPointer(timer).assumingMemoryBound(to: uv_handle_t.self)) { handle in
            handle!.withMemoryRebound(to: uv_timer_t.self, capacity: 1) { $0.deallocate() }
        }
    }
}
