import HuddleCore
import HuddleMedia
import HuddleServer
import Testing

/// The process's pictures in memory: bounded in bytes, the least recently
/// served going first, a rendition too large for it never kept.
struct MediaCacheTests {
    static func stored(_ count: Int) -> MediaLibrary.Stored {
        MediaLibrary.Stored(bytes: [UInt8](repeating: 7, count: count), etag: String(repeating: "a", count: 32), encoding: .jpeg)
    }

    @Test func keepsTheMostRecentlyServedWithinItsBytes() {
        let cache = MediaCache(maxBytes: 800)
        for key in ["a", "b", "c", "d"] { cache.keep(Self.stored(100), for: key) }
        #expect(cache.value(for: "a") != nil)  // now the most recent
        // At the limit: all kept.
        for key in ["e", "f", "g", "h"] { cache.keep(Self.stored(100), for: key) }
        #expect(["a", "b", "c", "d", "e", "f", "g", "h"].allSatisfy { cache.value(for: $0) != nil })
        // Just over: the least recently served (a, b, c, in the order just read) go, down to three quarters.
        cache.keep(Self.stored(100), for: "i")
        let kept = ["a", "b", "c", "d", "e", "f", "g", "h", "i"].filter { cache.value(for: $0) != nil }
        #expect(kept == ["d", "e", "f", "g", "h", "i"], "\(kept)")
        // Larger than an eighth of it: served, never kept.
        cache.keep(Self.stored(101), for: "large")
        #expect(cache.value(for: "large") == nil)
    }

    @Test func aRemovedPictureIsForgottenInEverySize() {
        let cache = MediaCache(maxBytes: 800)
        for key in ["picture/feed.webp", "picture/full.jpeg", "pictures/feed.webp", "other/feed.webp"] {
            cache.keep(Self.stored(100), for: key)
        }
        cache.forget("picture")
        #expect(cache.value(for: "picture/feed.webp") == nil && cache.value(for: "picture/full.jpeg") == nil)
        #expect(cache.value(for: "pictures/feed.webp") != nil && cache.value(for: "other/feed.webp") != nil)
        // Its bytes are free again: five more fit without evicting.
        for key in ["a", "b", "c", "d", "e"] { cache.keep(Self.stored(100), for: key) }
        #expect(cache.value(for: "other/feed.webp") != nil)
        cache.forgetAll()
        #expect(cache.value(for: "other/feed.webp") == nil)
    }
}
