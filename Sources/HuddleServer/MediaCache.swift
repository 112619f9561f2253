import HuddleCore
import HuddlePostgres
import Synchronization

/// The renditions a process served lately, in memory: a picture's key never
/// names other bytes, so nothing here is ever stale but a picture removed,
/// which the database announces (`media_removed`) and `forget` drops.
/// Shared by the workers; bounded in bytes, the least recently served going
/// first.
package final class MediaCache: Sendable {
    private struct Entry {
        var stored: MediaLibrary.Stored
        var lastUsed: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    package let maxBytes: Int
    private let state = Mutex(State())
    /// The database's notices of pictures removed; nil in a cache nobody
    /// removes from (the tests').
    private let removals: ChannelWatch?

    package init(maxBytes: Int, removals: ChannelWatch? = nil) {
        self.maxBytes = maxBytes
        self.removals = removals
    }

    /// Follows removals: each is forgotten, and everything when notices
    /// may have been missed (the listener reconnected).
    package func start() async throws {
        try await removals?.start(onNotice: { [self] key in forget(key) }, onReconnect: { [self] in forgetAll() })
    }

    /// Taken before a rendition is read, so that `keep` can tell whether a
    /// removal was heard meanwhile.
    package func stamp() -> ChannelWatch.Stamp? { removals?.stamp() }

    package func value(for key: String) -> MediaLibrary.Stored? {
        state.withLock { state in
            guard var entry = state.entries[key] else { return nil }
            state.clock += 1
            entry.lastUsed = state.clock
            state.entries[key] = entry
            return entry.stored
        }
    }

    /// The channel on which the database names each picture removed.
    package static let removalChannel = "huddle_media_removed"

    /// Drops every rendition of the picture `mediaKey` (entries are keyed
    /// `KEY/size.encoding`).
    package func forget(_ mediaKey: String) {
        let prefix = mediaKey + "/"
        state.withLock { state in
            for (key, entry) in state.entries where key.hasPrefix(prefix) {
                state.entries[key] = nil
                state.bytes -= entry.stored.bytes.count
            }
        }
    }

    /// Drops everything (removals may have been missed).
    package func forgetAll() {
        state.withLock { state in
            state.entries = [:]
            state.bytes = 0
        }
    }

    /// Keeps a rendition read since `stamp`, unless a picture was removed
    /// meanwhile (it might be this one: it is read again next time).
    package func keep(_ stored: MediaLibrary.Stored, for key: String, readSince stamp: ChannelWatch.Stamp? = nil) {
        // One rendition larger than an eighth of the cache is served from the database each time.
        guard stored.bytes.count <= maxBytes / 8 else { return }
        state.withLock { state in
            if let removals {
                guard let stamp, removals.mayKeep(stamp) else { return }
            }
            state.clock += 1
            if let old = state.entries.updateValue(Entry(stored: stored, lastUsed: state.clock), forKey: key) {
                state.bytes -= old.stored.bytes.count
            }
            state.bytes += stored.bytes.count
            guard state.bytes > maxBytes else { return }
            // Evicts down to three quarters, so that a full cache scans once per many insertions.
            let byAge = state.entries.sorted { $0.value.lastUsed < $1.value.lastUsed }
            for (key, entry) in byAge where state.bytes > maxBytes * 3 / 4 {
                state.entries[key] = nil
                state.bytes -= entry.stored.bytes.count
            }
        }
    }
}
