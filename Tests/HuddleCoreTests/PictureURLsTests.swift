import Foundation
import HuddleCore
import Testing

/// Private pictures' signed URLs: accepted until they expire, for the very
/// path signed, by the key that signed them.
struct PictureURLsTests {
    let urls = PictureURLs(key: [UInt8](repeating: 7, count: 32), lifetime: 3600)
    let now = Date(timeIntervalSince1970: 2_000_000_000)

    func split(_ url: String) -> (path: String, query: Substring) {
        let path = String(url.prefix { $0 != "?" })
        return (path, url.drop { $0 != "?" }.dropFirst())
    }

    @Test func aSignedURLWorksUntilItExpiresAndNoLonger() throws {
        let url = try #require(
            urls.path(key: "k".padding(toLength: 22, withPad: "k", startingAt: 0), size: "FULL", format: nil, isPrivate: true, now: now))
        let (path, query) = split(url)
        #expect(path.hasSuffix("/full"))
        #expect(urls.admits(path: path, query: query, now: now))
        // It lives at least the lifetime, at most a quarter more.
        #expect(urls.admits(path: path, query: query, now: now.addingTimeInterval(3599)))
        #expect(!urls.admits(path: path, query: query, now: now.addingTimeInterval(3600 + 900)))
        // Another path, another key, a changed expiry: refused.
        #expect(!urls.admits(path: path + ".jpg", query: query, now: now))
        #expect(!PictureURLs(key: [UInt8](repeating: 8, count: 32)).admits(path: path, query: query, now: now))
        let later = query.replacingOccurrences(of: "expires=", with: "expires=9")
        #expect(!urls.admits(path: path, query: Substring(later), now: now))
        // Public pictures carry no query; without a key, private ones have no URL.
        #expect(urls.path(key: "abc", size: nil, format: "JPEG", isPrivate: false) == "/media/abc/feed.jpg")
        #expect(PictureURLs().path(key: "abc", size: nil, format: nil, isPrivate: true) == nil)
    }

    @Test func oneViewersURLsStayTheSameForAWhile() {
        let first = urls.path(key: "abc", size: nil, format: nil, isPrivate: true, now: now)
        let soon = urls.path(key: "abc", size: nil, format: nil, isPrivate: true, now: now.addingTimeInterval(60))
        #expect(first == soon)
    }
}
