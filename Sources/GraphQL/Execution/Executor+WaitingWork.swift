import Synchronization

/// Scheduling: the rounds of waiting work, run together and written back
/// in the order their fields were met, under the time budget.
extension Executor {
    // MARK: Rounds of waiting work

    /// How long the values of a round are written before the thread is yielded.
    static let yieldInterval = Duration.milliseconds(2)

    var isPastDeadline: Bool {
        guard let deadline else { return false }
        return ContinuousClock.now >= deadline
    }

    /// The error of a field the time budget left unfinished.
    var timeoutError: GraphQLError { ExecutionLimits.timedOut(timeBudget ?? .zero) }

    /// Stops the execution with `error` as the response's only error.
    func stop(_ error: GraphQLError) {
        guard !isStopped else { return }
        isStopped = true
        stopError = error
    }

    /// The fields still waiting when the time budget ran out: each null,
    /// with an error saying so, and what was completed stays.
    func abandonPending() {
        leftWorkBehind = true
        let abandoned = pending
        pending = []
        let error = timeoutError
        for field in abandoned where !isStopped && !isAbandoned(field.hole) {
            fill(field.hole, with: .failure(error))
        }
    }

    /// A root field that is not run: null, with the time-budget error.
    func skipField(_ planned: PlannedField, first: inout Bool) -> Bool {
        if planned.resolution == .omitted { return true }
        leftWorkBehind = true
        if !first { writer.byte(0x2C) }
        first = false
        writer.append(planned.jsonKey)
        frames[frames.count - 1].field = Unmanaged.passUnretained(planned)
        let valueStart = writer.count
        fail(timeoutError, planned.nodes)
        return finishFailedField(planned, valueStart)
    }

    /// Runs a round of waiting work: a task for each field's own work, and
    /// one for each batch that deferred values share (not one per value).
    /// With a deadline the round runs as a task of its own, raced against
    /// it, so that a load that does not answer (a database that is away)
    /// cannot hold the response past its budget: what finished by then is
    /// kept, the rest is cancelled and its results dropped.
    func runRound(_ waits: [PendingField.Waiting]) async -> (
        outcomes: [Result<Resolved, any Error>?], finishedBatches: Set<ObjectIdentifier>
    ) {
        let round = Round(count: waits.count)
        guard let deadline else {
            await Self.run(waits, into: round)
            return round.end()
        }
        let body: @Sendable @concurrent () async -> Void = { await Self.run(waits, into: round) }
        let work = workExecutor.map { Task(executorPreference: $0, operation: body) } ?? Task(operation: body)
        let cancelTimer: @Sendable () -> Void
        if let scheduler = workExecutor as? any DeadlineScheduling {
            cancelTimer = scheduler.schedule(at: deadline) { round.wake() }
        } else {
            let timer = Task {
                try? await Task.sleep(until: deadline, clock: .continuous)
                round.wake()
            }
            cancelTimer = { timer.cancel() }
        }
        await withTaskCancellationHandler {
            await round.finished()
        } onCancel: {
            round.wake()
        }
        cancelTimer()
        work.cancel()
        return round.end()
    }

    static func run(_ waits: [PendingField.Waiting], into round: Round) async {
        await withTaskGroup(of: Void.self) { group in
            var batches: Set<ObjectIdentifier> = []
            var lastBatch: ObjectIdentifier?
            for index in waits.indices {
                switch waits[index] {
                case .work(let work):
                    group.addTask {
                        do { round.record(index, .success(try await work())) } catch { round.record(index, .failure(error)) }
                    }
                case .deferred(let value):
                    let runner = value.batch
                    let identity = ObjectIdentifier(runner)
                    // Loads of one loader come in runs; the set is for the rest.
                    guard identity != lastBatch else { continue }
                    lastBatch = identity
                    if batches.insert(identity).inserted {
                        group.addTask {
                            await runner.run()
                            round.recordBatch(identity)
                        }
                    }
                }
            }
        }
        round.wake()
    }

    /// Writes a hole's value into a segment of its own.
    func fill(_ hole: Hole, with outcome: Result<Resolved, any Error>) {
        // The segment's fresh buffer is written through the executor's writer
        // and handed back at the end: no copy of its bytes.
        segment = ResponseSegment(capacity: 128)
        swap(&writer, &segment.writer)
        self.hole = hole
        // Emptied, not replaced: the holes of a round reuse one buffer of
        // frames instead of each growing its own from nothing.
        frames.removeAll(keepingCapacity: true)
        if let incremental, let output = hole.output {
            enter(output)
            incremental.deferMap = hole.deferMap
        }
        let completion: Completion
        switch outcome {
        case .success(let resolved):
            completion = complete(resolved, depth: hole.depth, hole.field)
        case .failure(let error):
            fail(error, hole.field.nodes)
            completion = .failed
        }
        if completion == .failed {
            if hole.isNonNull {
                propagateNull(into: hole.parent)
            } else {
                truncate(to: 0)
                writer.null()
            }
        }
        setAsideBytes += writer.count
        swap(&writer, &segment.writer)
        hole.segment = segment
    }

    /// Whether a hole's value is no longer wanted: cut away, or below a value
    /// that was nulled since.
    func isAbandoned(_ hole: Hole) -> Bool {
        if hole.isAbandoned || dataIsNull { return true }
        var region: Region? = hole.parent
        while let current = region {
            if current.isNull { return true }
            region = current.parent
        }
        return false
    }

    /// Drops what was written from `offset` on, abandoning the holes there.
    func truncate(to offset: Int) {
        writer.truncate(to: offset)
        segment.abandonHoles(from: offset)
    }
}

/// What a round of waiting work has finished so far, recorded by its tasks
/// as they finish and read once, when the round ends or its deadline comes.
final class Round: Sendable {
    struct State {
        var outcomes: [Result<Resolved, any Error>?]
        var finishedBatches: Set<ObjectIdentifier> = []
        var isOver = false
        var woken = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    let state: Mutex<State>

    init(count: Int) {
        state = Mutex(State(outcomes: Array(repeating: nil, count: count)))
    }

    func record(_ index: Int, _ outcome: Result<Resolved, any Error>) {
        state.withLock { if !$0.isOver { $0.outcomes[index] = outcome } }
    }

    func recordBatch(_ identity: ObjectIdentifier) {
        state.withLock { if !$0.isOver { $0.finishedBatches.insert(identity) } }
    }

    /// The round is done, or its time is up: lets `finished` return.
    func wake() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.woken = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    func finished() async {
        await withCheckedContinuation { continuation in
            let woken = state.withLock { state -> Bool in
                if state.woken { return true }
                state.waiter = continuation
                return false
            }
            if woken { continuation.resume() }
        }
    }

    /// What finished; anything that finishes later is dropped.
    func end() -> (outcomes: [Result<Resolved, any Error>?], finishedBatches: Set<ObjectIdentifier>) {
        state.withLock { state in
            state.isOver = true
            return (state.outcomes, state.finishedBatches)
        }
    }
}
