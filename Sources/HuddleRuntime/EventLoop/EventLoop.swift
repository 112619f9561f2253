import CLibUV
import Synchronization

/// A libuv event loop that is also the executor of the Swift tasks serving
/// its connections.
///
/// A job enqueued on the loop's own thread goes into a queue only that thread
/// touches: no lock, and no wake-up, since the loop is awake already; an idle
/// handle makes the loop run the queue before it next waits for I/O. A job
/// enqueued from another thread goes into a locked queue and wakes the loop
/// with `uv_async_send`. Both queues are ring buffers, so a million
/// suspensions cost a million times one.
///
/// Tasks run here by executor preference (`Task(executorPreference: loop)`)
/// or on an actor whose executor is the loop; either way their code runs on
/// the loop thread, where it may touch the loop's handles directly.
public final class EventLoop: SerialExecutor, TaskExecutor, @unchecked Sendable {
    /// The libuv loop; touched only on the loop thread.
    public let uv: UnsafeMutablePointer<uv_loop_t>
    private let wakeUp: UnsafeMutablePointer<uv_async_t>
    private let idle: UnsafeMutablePointer<uv_idle_t>
    private var localJobs = JobQueue()
    private let remoteJobs = Mutex(JobQueue())
    private var idleRunning = false
    /// The thread running the loop, set when `run` starts.
    private let loopThread = Atomic<UInt>(0)
    private let stopping = Atomic<Bool>(false)

    public init() {
        uv = .allocate(capacity: 1)
        uv_loop_init(uv)
        wakeUp = .allocate(capacity: 1)
        idle = .allocate(capacity: 1)
        uv_async_init(uv, wakeUp) { handle in
            EventLoop.from(handle!.pointee.data).runRemoteJobs()
        }
        uv_idle_init(uv, idle)
        let context = Unmanaged.passUnretained(self).toOpaque()
        wakeUp.pointee.data = context
        idle.pointee.data = context
    }

    deinit {
        uv_loop_close(uv)
        uv.deallocate()
        wakeUp.deallocate()
        idle.deallocate()
    }

    static func from(_ pointer: UnsafeMutableRawPointer?) -> EventLoop {
        Unmanaged<EventLoop>.fromOpaque(pointer!).takeUnretainedValue()
    }

    /// Whether the caller is on the loop's thread.
    public var inLoopThread: Bool {
        loopThread.load(ordering: .acquiring) == Self.currentThread
    }

    private static var currentThread: UInt { UInt(uv_thread_self()) }

    // MARK: Running

    /// Runs the loop on the calling thread until `stop` is called. The
    /// wake-up handle stays active, so the loop waits for work rather than
    /// returning when it has none.
    public func run() {
        loopThread.store(Self.currentThread, ordering: .releasing)
        uv_run(uv, UV_RUN_DEFAULT)
        uv_close(UnsafeMutableRawPointer(wakeUp).assumingMemoryBound(to: uv_handle_t.self), nil)
        uv_close(UnsafeMutableRawPointer(idle).assumingMemoryBound(to: uv_handle_t.self), nil)
        // Let libuv finish closing them.
        uv_run(uv, UV_RUN_DEFAULT)
        loopThread.store(0, ordering: .releasing)
    }

    /// Makes `run` return once the jobs queued before it have run. Any thread may call it.
    public func stop() {
        enqueue { [self] in
            stopping.store(true, ordering: .releasing)
            uv_stop(uv)
        }
    }

    /// Runs `body` on the loop thread (from any thread), as a plain job.
    public func enqueue(_ body: @escaping @Sendable () -> Void) {
        let task = Task(executorPreference: self) { body() }
        _ = task
    }

    // MARK: Executors

    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        if inLoopThread {
            localJobs.push(unowned)
            if !idleRunning {
                idleRunning = true
                uv_idle_start(idle) { handle in
                    EventLoop.from(handle!.pointee.data).runLocalJobs()
                }
            }
        } else {
            remoteJobs.withLock { $0.push(unowned) }
            uv_async_send(wakeUp)
        }
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    public func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }

    public func isSameExclusiveExecutionContext(other: EventLoop) -> Bool { self === other }

    public func checkIsolated() {
        precondition(inLoopThread, "not on the event loop's thread")
    }

    private func runLocalJobs() {
        // Jobs may enqueue more jobs; run until the queue is empty.
        while let job = localJobs.pop() {
            job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
        }
        idleRunning = false
        uv_idle_stop(idle)
    }

    private func runRemoteJobs() {
        var jobs = remoteJobs.withLock { queue in
            defer { queue = JobQueue() }
            return queue
        }
        while let job = jobs.pop() {
            job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
        }
        runLocalJobs()
    }
}

/// A FIFO of jobs in a ring buffer: push and pop are O(1), unlike
/// `Array.removeFirst`, which makes a queue quadratic.
struct JobQueue {
    private var storage: [UnownedJob?] = Array(repeating: nil, count: 64)
    private var head = 0
    private var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func push(_ job: UnownedJob) {
        if count == storage.count { grow() }
        storage[(head + count) & (storage.count - 1)] = job
        count += 1
    }

    mutating func pop() -> UnownedJob? {
        guard count > 0 else { return nil }
        let job = storage[head]
        storage[head] = nil
        head = (head + 1) & (storage.count - 1)
        count -= 1
        return job
    }

    private mutating func grow() {
        var bigger = [UnownedJob?](repeating: nil, count: storage.count * 2)
        for index in 0..<count {
            bigger[index] = storage[(head + index) & (storage.count - 1)]
        }
        storage = bigger
        head = 0
    }
}
