import HuddlePostgres
import HuddleRuntime
import Synchronization

/// The users of bearer tokens this process checked lately, so that a
/// client's requests do not each cost a statement to say who is asking.
///
/// A token leaves the cache the moment it stops being valid anywhere:
/// deleting its row (logging out, or an operator's SQL) sends a NOTIFY on
/// `channel` from the database itself (`shared/migrations/0005_token_revocation.sql`), which every
/// process follows; the process that logged out forgets at once, before
/// the NOTIFY comes back. What the cache learned is trusted only while the
/// LISTEN connection that was listening then still is: while it is down,
/// and after it reconnects (notifications may have been missed), the
/// database is asked again. An entry lives at most `lifetime` and never
/// past the token's expiry; with a lifetime of zero nothing is kept.
///
/// What is signed in for longer than a request (a WebSocket) watches its
/// token here: it hears when the token is revoked, and when a revocation
/// may have been missed (the LISTEN connection broke), so that it can ask
/// the database again.
package final class TokenCache: Sendable {
    /// Where the database announces revoked tokens; the payload is the
    /// token's SHA-256 in hex.
    package static let channel = "huddle_token_revoked"

    private struct Entry {
        var userID: Int64
        /// Whichever comes first: the entry's lifetime or the token's expiry.
        var validUntil: ContinuousClock.Instant
        var stamp: ChannelWatch.Stamp
    }

    private let lifetime: Duration
    private let capacity: Int
    private let watch: ChannelWatch
    private let entries = Mutex<[String: Entry]>([:])
    private let watchers = Mutex<(byToken: [String: [UInt64: @Sendable (TokenNotice) -> Void]], next: UInt64)>(([:], 0))

    /// What a watcher of a token hears.
    package enum TokenNotice: Sendable {
        /// The token is no longer valid.
        case revoked
        /// A revocation may have been missed: ask the database.
        case unsure
    }

    /// A cache keeping a token's user for at most `lifetime`, of at most
    /// `capacity` tokens, told of revocations by `listener`.
    package init(lifetime: Duration, capacity: Int = 100_000, listener: PostgresListener) {
        self.lifetime = lifetime
        self.capacity = capacity
        watch = ChannelWatch(Self.channel, listener: listener)
    }

    /// Follows revocations until the listener closes; the cache keeps
    /// nothing before.
    package func start() async throws {
        try await watch.start(
            onNotice: { [self] tokenHash in
                forget(tokenHash)
                heardBack(tokenHash)
            },
            onReconnect: { [self] in
                for action in watchers.withLock({ $0.byToken.values.flatMap(\.values) }) { action(.unsure) }
            })
    }

    /// Calls `action` (on any thread) when the token hashed `tokenHash` is
    /// revoked, once, or when a revocation may have been missed, until the
    /// returned watch is cancelled.
    package func watch(_ tokenHash: String, _ action: @escaping @Sendable (TokenNotice) -> Void) -> TokenWatch {
        let number = watchers.withLock { watchers in
            defer { watchers.next += 1 }
            watchers.byToken[tokenHash, default: [:]][watchers.next] = action
            return watchers.next
        }
        return TokenWatch { [self] in
            watchers.withLock { watchers in
                watchers.byToken[tokenHash]?[number] = nil
                if watchers.byToken[tokenHash]?.isEmpty == true { watchers.byToken[tokenHash] = nil }
            }
        }
    }

    /// Revocations waiting to be heard back, by token hash: whether the
    /// notice came, and the revoker waiting for it.
    private let echoes = Mutex<[String: (heard: Bool, revoker: CheckedContinuation<Void, Never>?)]>([:])

    /// Runs `revoke` (the statement that deletes or changes the token's
    /// row, whose trigger sends the notice), forgets the token here, and
    /// returns once this process has heard the notice come back, or after
    /// `patience` (a LISTEN connection down must not hold a client up).
    ///
    /// Every process's LISTEN connection gets the notice at the same
    /// commit, so once this one has heard it the others have it too, or
    /// are reading it: a client that revokes a token here and then asks
    /// another process is refused there, save for that process's own
    /// moment of reading its socket. Before, the window was this answer's
    /// way back to the client besides.
    package func revoking(_ tokenHash: String, patience: Duration = .seconds(1), _ revoke: () async throws -> Void) async throws {
        // Expected before the statement commits, so the notice cannot come first.
        echoes.withLock { $0[tokenHash] = (false, nil) }
        do {
            try await revoke()
        } catch {
            echoes.withLock { $0[tokenHash] = nil }
            throw error
        }
        forget(tokenHash)
        let timeout = Task { [self] in
            try? await Task.sleep(for: patience)
            if !Task.isCancelled { heardBack(tokenHash) }
        }
        await withCheckedContinuation { continuation in
            let heard = echoes.withLock { echoes in
                guard let echo = echoes[tokenHash], !echo.heard else {
                    echoes[tokenHash] = nil
                    return true
                }
                echoes[tokenHash] = (false, continuation)
                return false
            }
            if heard { continuation.resume() }
        }
        timeout.cancel()
    }

    /// A revocation's notice came back (or the revoker stopped waiting).
    private func heardBack(_ tokenHash: String) {
        let revoker = echoes.withLock { echoes -> CheckedContinuation<Void, Never>? in
            guard let echo = echoes[tokenHash] else { return nil }
            if let revoker = echo.revoker {
                echoes[tokenHash] = nil
                return revoker
            }
            echoes[tokenHash] = (true, nil)
            return nil
        }
        revoker?.resume()
    }

    /// The user of the token hashed `tokenHash`, when this process checked
    /// it lately and it is still valid.
    package func userID(forTokenHash tokenHash: String) -> Int64? {
        let now = ContinuousClock.now
        return entries.withLock { entries in
            guard let entry = entries[tokenHash] else { return nil }
            guard entry.validUntil > now, watch.isCurrent(entry.stamp) else {
                entries[tokenHash] = nil
                return nil
            }
            return entry.userID
        }
    }

    /// Taken before asking the database about a token, and handed back to
    /// `remember`; nil when the answer is not to be kept.
    package func stamp() -> ChannelWatch.Stamp? { watch.stamp() }

    /// Keeps what the database just said of a token: its user, and how
    /// long until it expires; unless a token was revoked since `stamp`.
    package func remember(tokenHash: String, userID: Int64, expiresIn: Duration, stamp: ChannelWatch.Stamp) {
        guard lifetime > .zero else { return }
        let now = ContinuousClock.now
        entries.withLock { entries in
            guard watch.mayKeep(stamp) else { return }
            if entries.count >= capacity {
                entries = entries.filter { $0.value.validUntil > now && watch.isCurrent($0.value.stamp) }
                // Every entry still live: start over rather than look for the oldest.
                if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            }
            entries[tokenHash] = Entry(userID: userID, validUntil: now + min(lifetime, expiresIn), stamp: stamp)
        }
    }

    /// Forgets a token (revoked here, or by another process), and tells
    /// whatever watched it.
    package func forget(_ tokenHash: String) {
        entries.withLock { entries in
            watch.noteChange()
            entries[tokenHash] = nil
        }
        let actions = watchers.withLock { $0.byToken.removeValue(forKey: tokenHash).map { Array($0.values) } ?? [] }
        for action in actions { action(.revoked) }
    }
}

/// A watch of a token, ended by `cancel` (at the latest when released).
package final class TokenWatch: Sendable {
    private let end: Mutex<(@Sendable () -> Void)?>

    init(_ end: @escaping @Sendable () -> Void) { self.end = Mutex(end) }

    package func cancel() { end.withLock { $0.take() }?() }

    deinit { cancel() }
}
