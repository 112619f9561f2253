import Foundation
import HuddleMedia
import HuddlePostgres
import HuddleRuntime

/// How a picture's path is written: a public picture's as it is (its key
/// is unguessable, its answer cacheable for ever); a private project's with
/// `expires` and `signature` (HMAC-SHA256 of the path and the expiry under
/// the deployment's key), which `/media/` checks. A signed URL lives for
/// `lifetime` seconds at least; its expiry is rounded up to a quarter of
/// that, so one viewer's page shows the same URLs for a while and a
/// browser's cache can use them.
package struct PictureURLs: Sendable {
    private let key: [UInt8]?
    package let lifetime: Int

    /// Without a key, private pictures have no URL.
    package init(key: [UInt8]? = nil, lifetime: Int = 3600) {
        self.key = key
        self.lifetime = max(lifetime, 60)
    }

    /// The path of a picture's `size` (a `PictureSize`, nil for FEED) in
    /// `format` (a `PictureFormat`, nil for the client's Accept to choose);
    /// nil for a private picture when there is no key to sign with.
    package func path(key mediaKey: String, size: String?, format: String?, isPrivate: Bool, now: Date = Date()) -> String? {
        let encoding: ImageProcessor.Encoding? =
            switch format {
            case "WEBP": .webp
            case "JPEG": .jpeg
            default: nil
            }
        let path = MediaLibrary.path(key: mediaKey, size: (size ?? "FEED").lowercased(), encoding: encoding)
        guard isPrivate else { return path }
        guard let key else { return nil }
        let step = lifetime / 4
        let expires = (Int(now.timeIntervalSince1970) + lifetime + step - 1) / step * step
        return path + "?expires=\(expires)&signature=\(Self.signature(path, expires: expires, key: key))"
    }

    /// The path of a picture selected as its key, `!`-marked when private
    /// (`CASE WHEN m.private THEN '!' ELSE '' END || m.key`).
    package func path(marked: String, size: String?, format: String?) -> String? {
        let isPrivate = marked.hasPrefix("!")
        return path(key: String(isPrivate ? marked.dropFirst() : Substring(marked)), size: size, format: format, isPrivate: isPrivate)
    }

    /// The SQL of a picture's marked key, for `media_id` in a statement's row.
    package static func markedKey(of mediaID: String) -> String {
        "(SELECT CASE WHEN m.private THEN '!' ELSE '' END || m.key FROM media m WHERE m.id = \(mediaID))"
    }

    /// Whether a private picture's `path` with this query was signed here and has not expired.
    package func admits(path: String, query: Substring, now: Date = Date()) -> Bool {
        secondsLeft(path: path, query: query, now: now) != nil
    }

    /// How long the signature of a private picture's `path` with this query
    /// still works, in seconds; nil when it was not signed here or has expired.
    package func secondsLeft(path: String, query: Substring, now: Date = Date()) -> Int? {
        let current = Int(now.timeIntervalSince1970)
        guard let key, let pairs = FormURLEncoded.pairs(query),
            let expires = pairs.first(where: { $0.name == "expires" }).flatMap({ Int($0.value) }),
            let signature = pairs.first(where: { $0.name == "signature" })?.value,
            expires > current
        else { return nil }
        let expected = Array(Self.signature(path, expires: expires, key: key).utf8)
        let given = Array(signature.utf8)
        guard expected.count == given.count else { return nil }
        // Compared in constant time: the time taken says nothing of how much matched.
        guard zip(expected, given).reduce(0, { $0 | ($1.0 ^ $1.1) }) == 0 else { return nil }
        return expires - current
    }

    static func signature(_ path: String, expires: Int, key: [UInt8]) -> String {
        Base64URL.encode(HMACSHA256.authenticate(Array("\(path)\n\(expires)".utf8), key: key))
    }

    /// The deployment's signing key: the one recorded, or a new one
    /// recorded now by the first process to ask.
    package static func recordedKey(on database: some PostgresQuerying) async throws -> [UInt8] {
        _ = try await database.query(
            "INSERT INTO media_signing_key (key) VALUES ($1) ON CONFLICT DO NOTHING", [PostgresBytea(RandomBytes.make(32))])
        return try await database.query("SELECT key FROM media_signing_key", [])[0].decode([UInt8].self, at: 0)
    }
}
