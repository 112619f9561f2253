import HuddlePostgres
import Synchronization

/// What each session's reads must see, for reads on standbys (issue 40):
/// the primary's WAL position after the last mutation made with each
/// token, learned in this process when the mutation ends and from the
/// other processes by NOTIFY. A read with a token goes to a standby only
/// once the standby has replayed that position, so a user always reads
/// their own writes.
///
/// Positions are kept for at most `capacity` tokens. A token let go, one
/// never seen, and every token when notifications may have been missed,
/// must see the floor: the highest position let go, or the primary's
/// position when the process started or the listener reconnected. Until
/// that is known, no standby is good enough and reads go to the primary.
package final class WritePositions: Sendable {
    /// Where a mutation's end is told: the token's hash and the position.
    package static let channel = "huddle_write_position"

    private let capacity: Int
    private let watch: ChannelWatch?
    /// The primary's position now, read when the floor must be.
    private let primaryPosition: @Sendable () async -> WALPosition?
    private let state = Mutex(State())

    private struct State {
        var byToken: [String: WALPosition] = [:]
        /// Unknown (nothing is good enough) until first read.
        var floor = WALPosition(.max)
        /// The highest position let go, which the floor never falls below.
        var highestLetGo = WALPosition(0)
    }

    /// Positions of at most `capacity` tokens, told of other processes'
    /// through `listener` (nil: this process's only).
    package init(
        capacity: Int = 100_000, listener: PostgresListener?, primaryPosition: @escaping @Sendable () async -> WALPosition?
    ) {
        self.capacity = capacity
        self.primaryPosition = primaryPosition
        watch = listener.map { ChannelWatch(Self.channel, listener: $0) }
    }

    /// Follows the other processes' writes, then reads the floor.
    package func start() async throws {
        try await watch?.start(
            onNotice: { [self] payload in
                let parts = payload.split(separator: " ")
                guard parts.count == 2, let position = WALPosition(parts[1]) else { return }
                record(position, forTokenHash: String(parts[0]))
            },
            onReconnect: { [self] in
                // Writes may have been missed: nothing is known until the floor is read again.
                state.withLock { $0.floor = WALPosition(.max) }
                Task { await readFloor() }
            })
        await readFloor()
    }

    private func readFloor() async {
        var position = await primaryPosition()
        while position == nil {
            try? await Task.sleep(for: .seconds(1))
            if Task.isCancelled { return }
            position = await primaryPosition()
        }
        state.withLock { $0.floor = max(position!, $0.highestLetGo) }
    }

    /// What a read with the token hashed `tokenHash` (nil: none) must see.
    package func required(forTokenHash tokenHash: String?) -> WALPosition {
        state.withLock { state in
            guard let tokenHash, let position = state.byToken[tokenHash] else { return state.floor }
            return max(position, state.floor)
        }
    }

    /// Notes that a token's write ended at `position`.
    package func record(_ position: WALPosition, forTokenHash tokenHash: String) {
        state.withLock { state in
            state.byToken[tokenHash] = max(position, state.byToken[tokenHash] ?? position)
            if state.byToken.count > capacity, let evicted = state.byToken.first {
                // Anyone's: what its token must see becomes what every token must.
                state.byToken[evicted.key] = nil
                state.highestLetGo = max(state.highestLetGo, evicted.value)
                if state.floor.value != .max { state.floor = max(state.floor, evicted.value) }
            }
        }
    }

    /// Tokens whose positions are kept now.
    package var count: Int { state.withLock { $0.byToken.count } }
}
