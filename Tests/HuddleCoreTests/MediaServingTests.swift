import Foundation
import HuddleCore
import HuddleMedia
import HuddlePostgres
import HuddleRuntime
import PostgresTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Pictures kept in PostgreSQL and served at /media/, checked with curl:
/// the encoding by extension or by Accept, the caching headers, 304 for a
/// known ETag, byte ranges, and clear answers for what is not there.
@Suite(.enabled(if: TestDatabase.available)) struct MediaServingTests {
    /// A photo made by Pillow, remade by libvips and stored; its key and renditions.
    static func storedPhoto(on server: TestServer) async throws -> (key: String, renditions: [ImageProcessor.Rendition]) {
        let folder = try ScratchDirectory("huddle-media")
        let made = try await ClientProcess.python("images.py", ["make", folder.url.path]).finished()
        #expect(made.status == 0, "\(made.errors)")
        let photo = Array(try Data(contentsOf: URL(fileURLWithPath: folder.path("gps.jpg"))))
        let renditions = try ImageProcessor().process(photo)
        let url = server.databaseURL
        let key = try await EventLoop.withOwnThread { loop in
            let pool = PostgresPool(TestDatabase.configuration(url: url), on: loop)
            let record = try await MediaLibrary.store(renditions, owner: nil, purpose: "avatar", on: pool)
            await pool.close()
            return record.key
        }
        return (key, renditions)
    }

    @Test func picturesAreServedCachedForEverWithETagsAndRanges() async throws {
        try await TestServer.with { server in
            let (key, renditions) = try await Self.storedPhoto(on: server)
            let base = "http://127.0.0.1:\(server.port)"
            let feed = try #require(renditions.first { $0.size == "feed" && $0.encoding == .webp })
            let whole = try curlFetch(base + MediaLibrary.path(key: key, size: "feed", encoding: .webp))
            #expect(whole.status == 200 && whole.body == feed.bytes)
            #expect(whole.headers["content-type"] == "image/webp")
            #expect(whole.headers["cache-control"] == "public, max-age=31536000, immutable")
            #expect(whole.headers["x-content-type-options"] == "nosniff")
            let etag = try #require(whole.headers["etag"])
            #expect(etag == "\"\(Digest.sha256Hex(feed.bytes).prefix(32))\"")

            let again = try curlFetch(base + "/media/\(key)/feed.webp", ["-H", "If-None-Match: W/\(etag), \"other\""])
            #expect(again.status == 304 && again.body.isEmpty && again.headers["etag"] == etag)
            #expect(again.headers["content-length"] == nil && again.headers["content-type"] == nil, "\(again.headers)")

            let first = try curlFetch(base + "/media/\(key)/feed.webp", ["-H", "Range: bytes=0-99"])
            #expect(first.status == 206 && first.body == Array(feed.bytes[0...99]))
            #expect(first.headers["content-range"] == "bytes 0-99/\(feed.bytes.count)")
            let last = try curlFetch(base + "/media/\(key)/feed.webp", ["-H", "Range: bytes=-10"])
            #expect(last.status == 206 && last.body == Array(feed.bytes.suffix(10)))
            let past = try curlFetch(base + "/media/\(key)/feed.webp", ["-H", "Range: bytes=\(feed.bytes.count)-"])
            #expect(past.status == 416 && past.headers["content-range"] == "bytes */\(feed.bytes.count)")
            #expect(past.headers["content-type"] == nil)

            // Without an extension, Accept chooses; caches keep the two apart.
            let chosen = try curlFetch(base + "/media/\(key)/thumbnail", ["-H", "Accept: image/avif,image/webp,*/*"])
            #expect(chosen.headers["content-type"] == "image/webp" && chosen.headers["vary"] == "Accept")
            let plain = try curlFetch(base + "/media/\(key)/thumbnail", ["-H", "Accept: */*"])
            #expect(plain.headers["content-type"] == "image/jpeg" && plain.body.starts(with: [0xFF, 0xD8, 0xFF]))
            let refused = try curlFetch(base + "/media/\(key)/thumbnail", ["-H", "Accept: image/webp;q=0, image/jpeg"])
            #expect(refused.headers["content-type"] == "image/jpeg")

            let head = try curlFetch(base + "/media/\(key)/full.jpg", ["-I"])
            #expect(
                head.status == 200
                    && head.headers["content-length"] == String(renditions.first { $0.size == "full" && $0.encoding == .jpeg }!.bytes.count)
            )

            for missing in [
                "/media/\(key)/huge.webp", "/media/\(key)/feed.gif", "/media/AAAAAAAAAAAAAAAAAAAAAA/feed.webp", "/media/short/feed.webp",
                "/media/\(key)",
            ] {
                #expect(try curlFetch(base + missing).status == 404, "\(missing)")
            }
            #expect(try curlFetch(base + "/media/\(key)/feed.webp", ["-X", "POST"]).status == 405)
        }
    }
}
