import HuddlePostgres
import HuddleRuntime
import Synchronization

/// What each user's reads must see, for reads on standbys (issue 40): the
/// primary's WAL position after the last write made for them, learned in
/// this process when their mutation ends (or a link in their mail is
/// followed) and from the other processes by NOTIFY. A query of theirs
/// goes to a standby only once the standby has replayed that position,
/// so a user always reads their own writes, from any device.
///
/// Positions are kept for at most `capacity` users. A user let go, one
/// never seen, and every user when notifications may have been missed,
/// must see the floor: the highest position let go, or the primary's
/// position when the process started or the listener reconnected (or
/// dropped notifications). Until that is known, nothing is good enough and
/// reads go to the primary. A user whose write could not be measured (its
/// statement failed, or the operation was cut short while its resolvers
/// still ran) reads from the primary for `unsureFor`.
package final class WritePositions: Sendable {
    /// Where a write's end is told: the user's id and the position.
    package static let channel = "huddle_write_position"
    /// Past the statement timeout, by when a write cut short has ended either way.
    package static let unsureFor = Duration.seconds(60)

    private let capacity: Int
    private let listener: PostgresListener?
    private let watch: ChannelWatch?
    /// The primary's position now, read when the floor must be.
    private let primaryPosition: @Sendable () async -> WALPosition?
    private let state = Mutex(State())
    private let clock = ContinuousClock()

    private struct State {
        var byUser: [Int64: WALPosition] = [:]
        var unsureUntil: [Int64: ContinuousClock.Instant] = [:]
        /// Unknown (nothing is good enough) until read.
        var floor = WALPosition.unknown
        /// The highest position let go, which the floor never falls below.
        var highestLetGo = WALPosition(0)
        /// Counts the floor's resets: a reading started before the last one is stale.
        var floorGeneration = 0
        var floorReading: Task<Void, Never>?
        /// Until when every read goes to the primary (unsure marks past the capacity).
        var everyoneUnsureUntil: ContinuousClock.Instant?
        /// The listener's dropped notifications when last looked at.
        var droppedSeen = 0
        var stopped = false
    }

    /// Positions of at most `capacity` users, told of other processes'
    /// through `listener` (nil: this process's only).
    package init(
        capacity: Int = 100_000, listener: PostgresListener?, primaryPosition: @escaping @Sendable () async -> WALPosition?
    ) {
        self.capacity = capacity
        self.listener = listener
        self.primaryPosition = primaryPosition
        watch = listener.map { ChannelWatch(Self.channel, listener: $0) }
    }

    /// Follows the other processes' writes, then reads the floor.
    package func start() async throws {
        try await watch?.start(
            onNotice: { [self] payload in
                // "USER POSITION", and " unsure" when the write may still go on.
                let parts = payload.split(separator: " ")
                if (2...3).contains(parts.count), let user = Int64(parts[0]), let position = WALPosition(parts[1]) {
                    record(position, forUser: user)
                    if parts.count == 3 && parts[2] == "unsure" { markUnsure([user]) }
                }
                notices.add(1, ordering: .relaxed)
                // Notifications a slow listener dropped may have been of writes.
                if let dropped = listener?.droppedEvents.load(ordering: .relaxed),
                    state.withLock({ state in
                        defer { state.droppedSeen = dropped }
                        return dropped > state.droppedSeen
                    })
                {
                    resetFloor()
                }
            },
            onReconnect: { [self] in resetFloor() })
        state.withLock { $0.droppedSeen = listener?.droppedEvents.load(ordering: .relaxed) ?? 0 }
        resetFloor()
    }

    /// Stops reading the floor; nothing more is learned.
    package func stop() {
        let reading = state.withLock { state in
            state.stopped = true
            return state.floorReading
        }
        reading?.cancel()
    }

    /// Writes may have been missed: nothing is good enough until the
    /// primary's position is read again.
    private func resetFloor() {
        state.withLock { state in
            guard !state.stopped else { return }
            state.floor = .unknown
            state.floorGeneration += 1
            state.floorReading?.cancel()
            let generation = state.floorGeneration
            // Made under the lock: a stop or another reset cancels it, never misses it.
            state.floorReading = Task { [self] in
                var position = await primaryPosition()
                while position == nil {
                    try? await Task.sleep(for: .seconds(1))
                    if Task.isCancelled { return }
                    position = await primaryPosition()
                }
                self.state.withLock { state in
                    guard state.floorGeneration == generation else { return }
                    state.floor = max(position!, state.highestLetGo)
                }
            }
        }
    }

    /// A new primary (a failover): positions of the old one's timeline say
    /// nothing of the new one's. Everything is forgotten and the floor read again.
    package func forgetAll() {
        state.withLock { state in
            state.byUser = [:]
            state.highestLetGo = WALPosition(0)
        }
        resetFloor()
    }

    /// What a read by `user` (nil: anonymous) must see; `.unknown` when
    /// nothing but the primary will do.
    package func required(forUser user: Int64?) -> WALPosition {
        state.withLock { state in
            if let until = state.everyoneUnsureUntil {
                if clock.now < until { return .unknown }
                state.everyoneUnsureUntil = nil
            }
            guard let user else { return state.floor }
            if let until = state.unsureUntil[user] {
                if clock.now < until { return .unknown }
                state.unsureUntil[user] = nil
            }
            return max(state.byUser[user] ?? state.floor, state.floor)
        }
    }

    /// Notes that a write for `user` ended at `position`.
    package func record(_ position: WALPosition, forUser user: Int64) {
        state.withLock { state in
            state.byUser[user] = max(position, state.byUser[user] ?? position)
            if state.byUser.count > capacity, let evicted = state.byUser.first {
                // Anyone's: what they must see becomes what everyone must.
                state.byUser[evicted.key] = nil
                state.highestLetGo = max(state.highestLetGo, evicted.value)
                if state.floor != .unknown { state.floor = max(state.floor, evicted.value) }
            }
        }
    }

    /// Notes that a write for each of `users` may still end, when, is not
    /// known: their reads go to the primary for `unsureFor`.
    package func markUnsure(_ users: [Int64]) {
        let now = clock.now
        let until = now + Self.unsureFor
        state.withLock { state in
            if state.unsureUntil.count + users.count > capacity { state.unsureUntil = state.unsureUntil.filter { $0.value > now } }
            if state.unsureUntil.count + users.count > capacity {
                // No room to say whose: everyone's reads go to the primary for as long.
                state.everyoneUnsureUntil = until
                return
            }
            for user in users { state.unsureUntil[user] = until }
        }
    }

    /// Reads the primary's insert position (at or past the end of every
    /// commit made) once writes for `users` have ended, records it for
    /// each, and tells the other processes, in one statement on `database`
    /// (the primary's pool). Writers whose writes end in the same turn of
    /// the pool's loop share the statement: it is sent after all of their
    /// commits, so its position is past each.
    /// With `unsure`, the writes may still go on (a mutation cut short):
    /// every process sends their reads to the primary for `unsureFor`.
    package func measure(for users: [Int64], unsure: Bool = false, on database: PostgresPool) async throws -> WALPosition {
        let key = ObjectIdentifier(database)
        if unsure { markUnsure(users) }
        return try await withCheckedThrowingContinuation { continuation in
            let starts = pending.withLock { pending -> Bool in
                if let batch = pending[key] {
                    batch.users += users
                    if unsure { batch.unsure += users }
                    batch.waiters.append(continuation)
                    return false
                }
                pending[key] = PendingMeasure(users: users, unsure: unsure ? users : [], waiter: continuation)
                return true
            }
            guard starts else { return }
            Task(executorPreference: database.loop) { [self] in
                // The other writers of this turn join first.
                await Task.yield()
                let batch = pending.withLock { $0.removeValue(forKey: key)! }
                do {
                    let position = try await measureNow(for: batch.users, unsure: batch.unsure, on: database)
                    for waiter in batch.waiters { waiter.resume(returning: position) }
                } catch {
                    for waiter in batch.waiters { waiter.resume(throwing: error) }
                }
            }
        }
    }

    private func measureNow(for users: [Int64], unsure: [Int64], on database: PostgresPool) async throws -> WALPosition {
        let rows = try await database.query(
            """
            SELECT p::text, (SELECT count(pg_notify($1, u::text || ' ' || p::text || CASE WHEN u = ANY($3) THEN ' unsure' ELSE '' END))
                             FROM unnest($2::int8[]) u)
            FROM (SELECT \(WALPosition.insertPositionSQL) AS p) position
            """, [Self.channel, Array(Set(users)), Array(Set(unsure))])
        guard let text = try rows.first?.decode(String.self, at: 0), let position = WALPosition(text) else {
            throw PostgresError(.decoding, "pg_current_wal_insert_lsn() gave no position")
        }
        for user in users { record(position, forUser: user) }
        return position
    }

    /// Measurements asked for on each pool whose statement is not sent yet.
    private let pending = Mutex<[ObjectIdentifier: PendingMeasure]>([:])

    /// Writers waiting for one measurement; touched under `pending`'s lock only.
    private final class PendingMeasure: @unchecked Sendable {
        var users: [Int64]
        var unsure: [Int64]
        var waiters: [CheckedContinuation<WALPosition, any Error>]

        init(users: [Int64], unsure: [Int64], waiter: CheckedContinuation<WALPosition, any Error>) {
            self.users = users
            self.unsure = unsure
            waiters = [waiter]
        }
    }

    /// Writes told by NOTIFY (this process's own among them), since the start.
    private let notices = Atomic<Int>(0)
    package var noticesHeard: Int { notices.load(ordering: .relaxed) }

    /// Users whose positions are kept now.
    package var count: Int { state.withLock { $0.byUser.count } }
}

extension WALPosition {
    /// Past every position: no standby has replayed it.
    package static let unknown = WALPosition(.max)
}
