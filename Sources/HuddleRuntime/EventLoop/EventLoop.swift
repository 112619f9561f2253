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
/// Work that may run long gets a lane of its own (`makeLane()`, one per
/// connection): the loop runs what its own queue held, then gives each
/// lane a turn of at most `slice`, and polls for I/O after every round. So a
/// request that keeps the loop busy (a hundred pages of friends decoded one
/// after another) delays a new one by a slice per busy lane, not by all of
/// its queued work.
///
/// Tasks run here by executor preference (`Task(executorPreference: loop)`)
/// or on an actor whose executor is `loop.serialExecutor`; either way their
/// code runs on the loop thread, where it may touch the loop's handles
/// directly. The two roles are two objects because the runtime hands both
/// kinds of job to the same `enqueue`: a task-executor job must run
/// without actor isolation, or every nonisolated async call it makes would
/// hop (re-enqueue itself) to leave an isolation it never needed.
public final class EventLoop: TaskExecutor, @unchecked Sendable {
    /// The libuv loop; touched only on the loop thread.
    public let uv: UnsafeMutablePointer<uv_loop_t>
    private let wakeUp: UnsafeMutablePointer<uv_async_t>
    private let idle: UnsafeMutablePointer<uv_idle_t>
    /// Runs what waits for the end of the loop's turn (`atEndOfTurn`),
    /// just before the loop polls for I/O.
    private let turnEnd: UnsafeMutablePointer<uv_prepare_t>
    private var turnEndObservers: [any TurnEndObserver] = []
    /// `repeating`'s wheels, one per interval.
    var timingWheels: [Duration: TimingWheel] = [:]
    /// `attachment`'s objects, one per type.
    private var attachments: [ObjectIdentifier: AnyObject] = [:]
    private var localJobs = RingBuffer<LoopJob>()
    /// Lanes with jobs, in the order they get their next turn.
    private var readyLanes = RingBuffer<LoopLane>()
    private let remoteJobs = Mutex(RingBuffer<(job: LoopJob, lane: LoopLane?)>())
    private var idleRunning = false
    /// The thread running the loop, set when `run` starts.
    private let loopThread = Atomic<UInt>(0)
    /// Set once `stop` has run: no keep-alive starts after it.
    let stopping = Atomic<Bool>(false)
    /// How long `run`, once stopped, waits for the loop's other handles to close.
    public let drainLimit: Duration
    private var drainOverran = false
    private let logger: Logger

    /// `logger` gets what the loop itself has to say: handles still open
    /// when it stops.
    public init(drainLimit: Duration = .seconds(10), logger: Logger = Logger()) {
        self.drainLimit = drainLimit
        self.logger = logger
        uv = .allocate(capacity: 1)
        uv_loop_init(uv)
        wakeUp = .allocate(capacity: 1)
        idle = .allocate(capacity: 1)
        turnEnd = .allocate(capacity: 1)
        uv_async_init(uv, wakeUp) { handle in
            EventLoop.from(handle!.pointee.data).runRemoteJobs()
        }
        uv_idle_init(uv, idle)
        uv_prepare_init(uv, turnEnd)
        let context = Unmanaged.passUnretained(self).toOpaque()
        wakeUp.pointee.data = context
        idle.pointee.data = context
        turnEnd.pointee.data = context
        serialExecutor = EventLoopSerialExecutor(loop: self)
    }

    deinit {
        uv_loop_close(uv)
        uv.deallocate()
        wakeUp.deallocate()
        idle.deallocate()
        turnEnd.deallocate()
    }

    static func from(_ pointer: UnsafeMutableRawPointer?) -> EventLoop {
        Unmanaged<EventLoop>.fromOpaque(pointer!).takeUnretainedValue()
    }

    /// Whether the caller is on the loop's thread.
    public var inLoopThread: Bool {
        loopThread.load(ordering: .acquiring) == Self.currentThread
    }

    private static var currentThread: UInt { UInt(uv_thread_self()) }

    /// Stops a debug build when the caller is not on the loop's thread.
    /// The classes confined to a loop (a connection, a pool, a session)
    /// call it wherever they are entered, so that the confinement their
    /// `@unchecked Sendable` rests on is checked by every debug run and
    /// every test, not only promised; a release build leaves it out.
    @inlinable
    public func assertInLoopThread(file: StaticString = #fileID, line: UInt = #line) {
        assert(inLoopThread, "touched off its event loop's thread", file: file, line: line)
    }

    // MARK: Running

    /// Runs the loop on the calling thread until `stop` is called. The
    /// wake-up handle stays active, so the loop waits for work rather than
    /// returning when it has none.
    public func run() {
        loopThread.store(Self.currentThread, ordering: .releasing)
        uv_run(uv, UV_RUN_DEFAULT)
        finishRunning()
        loopThread.store(0, ordering: .releasing)
    }

    /// After `stop`: the jobs already queued, and those they queue, still
    /// run, and the handles being closed finish closing, until nothing but
    /// the loop's own handles is left; then those are closed. Dropping the
    /// queued jobs instead stranded whatever they were to close: a
    /// PostgreSQL connection that finished opening just after its pool
    /// closed kept its socket watched, and the loop ran for ever. Should
    /// something still keep the loop alive after `drainLimit`, it is
    /// logged and left open, so that `run` returns all the same.
    private func finishRunning() {
        for wheel in timingWheels.values { wheel.close() }
        timingWheels = [:]
        uv_unref(handle(wakeUp))
        // From now, not from the start of the turn that ran the stop.
        uv_update_time(uv)
        let limit = UnsafeMutablePointer<uv_timer_t>.allocate(capacity: 1)
        uv_timer_init(uv, limit)
        limit.pointee.data = Unmanaged.passUnretained(self).toOpaque()
        uv_timer_start(
            limit,
            { timer in
                let loop = EventLoop.from(timer!.pointee.data)
                loop.drainOverran = true
                uv_stop(loop.uv)
            }, UInt64(max(1, drainLimit.milliseconds)), 0)
        // The limit must not keep the loop alive itself.
        uv_unref(handle(limit))
        uv_run(uv, UV_RUN_DEFAULT)
        if drainOverran {
            // Requests are work on libuv's thread pool (a host name being
            // resolved, say), which no handle shows.
            logger.log(
                .error, "the event loop stopped with handles still open; they are left open",
                ["handles": .string(openHandles().joined(separator: ", ")), "requests": .int(Int(uv.pointee.active_reqs.count))])
        }
        uv_close(handle(limit)) { handle in
            handle!.withMemoryRebound(to: uv_timer_t.self, capacity: 1) { $0.deallocate() }
        }
        uv_close(handle(wakeUp), nil)
        uv_close(handle(idle), nil)
        uv_close(handle(turnEnd), nil)
        // One turn runs the close callbacks (it does not wait for I/O while
        // handles are closing); more would wait on whatever overran.
        uv_run(uv, UV_RUN_NOWAIT)
    }

    private func handle<Handle>(_ pointer: UnsafeMutablePointer<Handle>) -> UnsafeMutablePointer<uv_handle_t> {
        UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: uv_handle_t.self)
    }

    /// The kinds of the handles that keep the loop alive, for the log.
    private func openHandles() -> [String] {
        var kinds: [String] = []
        withUnsafeMutablePointer(to: &kinds) { pointer in
            uv_walk(
                uv,
                { handle, argument in
                    guard let handle, uv_is_active(handle) != 0, uv_has_ref(handle) != 0, uv_is_closing(handle) == 0 else { return }
                    let kinds = argument!.assumingMemoryBound(to: [String].self)
                    kinds.pointee.append(String(cString: uv_handle_type_name(uv_handle_get_type(handle))))
                }, pointer)
        }
        return kinds
    }

    /// Makes `run` return once the jobs queued before it have run. Any
    /// thread may call it, more than once: only the first counts, as a
    /// second (another signal) would cut the loop's finishing short of
    /// its limit.
    public func stop() {
        enqueue { [self] in
            guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
            uv_stop(uv)
        }
    }

    /// Runs `body` on the loop thread (from any thread), as a plain job:
    /// detached, so that it does not carry the enqueuer's task-local
    /// values (one subscriber's request id into another's delivery).
    public func enqueue(_ body: @escaping @Sendable () -> Void) {
        let task = Task.detached(executorPreference: self) { body() }
        _ = task
    }

    /// Calls `observer.turnEnded()` once the jobs of this turn of the loop
    /// have run, before it polls for I/O: what lets a connection gather
    /// the frames many jobs write to it into one write. On the loop only.
    public func atEndOfTurn(_ observer: any TurnEndObserver) {
        assertInLoopThread()
        if turnEndObservers.isEmpty {
            uv_prepare_start(turnEnd) { handle in
                EventLoop.from(handle!.pointee.data).endTurn()
            }
        }
        turnEndObservers.append(observer)
    }

    private func endTurn() {
        let observers = turnEndObservers
        turnEndObservers = []
        uv_prepare_stop(turnEnd)
        for observer in observers { observer.turnEnded() }
    }

    /// The loop's one object of type `Attachment`, made by `make` the first
    /// time it is asked for and kept as long as the loop: state that the
    /// layers above keep per loop rather than per connection. On the loop only.
    public func attachment<Attachment: AnyObject>(_ make: () -> Attachment) -> Attachment {
        assertInLoopThread()
        let key = ObjectIdentifier(Attachment.self)
        if let existing = attachments[key] { return unsafeDowncast(existing, to: Attachment.self) }
        let made = make()
        attachments[key] = made
        return made
    }

    // MARK: Executors

    public func enqueue(_ job: consuming ExecutorJob) {
        enqueue(LoopJob(job: UnownedJob(job), isolated: false), lane: nil)
    }

    fileprivate func enqueue(_ unowned: LoopJob, lane: LoopLane?) {
        if inLoopThread {
            push(unowned, lane: lane)
        } else {
            remoteJobs.withLock { $0.push((unowned, lane)) }
            uv_async_send(wakeUp)
        }
    }

    private func push(_ job: LoopJob, lane: LoopLane?) {
        if let lane {
            lane.jobs.push(job)
            if !lane.isReady {
                lane.isReady = true
                readyLanes.push(lane)
            }
        } else {
            localJobs.push(job)
        }
        if !idleRunning {
            idleRunning = true
            uv_idle_start(idle) { handle in
                EventLoop.from(handle!.pointee.data).runLocalJobs()
            }
        }
    }

    /// A lane for one connection's tasks: run them with
    /// `Task(executorPreference: lane)`. Call it on the loop thread.
    public func makeLane() -> LoopLane {
        LoopLane(loop: self)
    }

    /// The longest a lane (or the loop's own queue) runs in one turn.
    public static let slice = Duration.milliseconds(1)

    /// The loop as the serial executor of actors that live on it.
    public private(set) var serialExecutor: EventLoopSerialExecutor!

    public func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }

    /// Stops the process unless called on the loop's thread.
    public func checkIsolated() {
        precondition(inLoopThread, "not on the event loop's thread")
    }

    /// One round of turns: the jobs of the loop's own queue that were queued
    /// before the round (in one go, so that work started together, such as
    /// statements for one connection's pipeline, goes out together), then
    /// each lane that has jobs, until it is empty or has had its slice;
    /// then the loop polls for I/O. Running every queue until empty let a
    /// busy request keep a new one's bytes unread for as long as it had
    /// work queued.
    private func runLocalJobs() {
        var count = localJobs.count
        while count > 0, let job = localJobs.popFirst() {
            runJob(job)
            count -= 1
        }
        var lanes = readyLanes.count
        while lanes > 0, let lane = readyLanes.popFirst() {
            lanes -= 1
            let turnEnds = ContinuousClock.now + Self.slice
            while let job = lane.jobs.popFirst() {
                runJob(job, in: lane)
                if ContinuousClock.now >= turnEnds { break }
            }
            if lane.jobs.isEmpty {
                lane.isReady = false
            } else {
                readyLanes.push(lane)
            }
        }
        if localJobs.isEmpty, readyLanes.isEmpty {
            idleRunning = false
            uv_idle_stop(idle)
        }
    }

    private func runRemoteJobs() {
        var jobs = remoteJobs.withLock { queue in
            defer { queue = RingBuffer<(job: LoopJob, lane: LoopLane?)>() }
            return queue
        }
        while let (job, lane) = jobs.popFirst() { push(job, lane: lane) }
    }

    @inline(__always)
    private func runJob(_ job: LoopJob, in lane: LoopLane? = nil) {
        if job.isolated {
            job.job.runSynchronously(isolatedTo: serialExecutor.asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
        } else {
            job.job.runSynchronously(on: lane?.asUnownedTaskExecutor() ?? asUnownedTaskExecutor())
        }
    }
}

/// Something the loop tells when a turn's jobs have run (`EventLoop.atEndOfTurn`).
public protocol TurnEndObserver: AnyObject {
    func turnEnded()
}

/// A job and whether it runs isolated to an actor on the loop.
struct LoopJob {
    let job: UnownedJob
    let isolated: Bool
}

/// The event loop as the serial executor of actors whose code must run on
/// the loop's thread.
public final class EventLoopSerialExecutor: SerialExecutor, @unchecked Sendable {
    public unowned let loop: EventLoop

    init(loop: EventLoop) { self.loop = loop }

    public func enqueue(_ job: consuming ExecutorJob) {
        loop.enqueue(LoopJob(job: UnownedJob(job), isolated: true), lane: nil)
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    public func isSameExclusiveExecutionContext(other: EventLoopSerialExecutor) -> Bool { self === other }

    public func checkIsolated() { loop.checkIsolated() }
}

/// A queue of the loop's for one connection's tasks, taking its turn with the
/// others (see `EventLoop`). Its jobs run on the loop's thread, like the
/// loop's own.
public final class LoopLane: TaskExecutor, @unchecked Sendable {
    public let loop: EventLoop
    /// Touched on the loop thread only.
    fileprivate var jobs = RingBuffer<LoopJob>()
    fileprivate var isReady = false

    fileprivate init(loop: EventLoop) { self.loop = loop }

    /// The lane the current task runs in, for the tasks it starts that
    /// should run there too (the rounds of a GraphQL execution).
    @TaskLocal public static var current: LoopLane?

    public func enqueue(_ job: consuming ExecutorJob) {
        loop.enqueue(LoopJob(job: UnownedJob(job), isolated: false), lane: self)
    }

    public func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }
}
