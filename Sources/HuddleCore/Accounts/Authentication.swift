import Foundation
import GraphQLTransport
import HuddlePostgres
import HuddleRuntime

/// Bearer tokens: random, handed to the client once, stored only as their
/// SHA-256, valid for `Shared.sessionDays` after their last use.
package enum Authentication {
    /// How long a token lasts unused, in seconds.
    static func lifetime(_ settings: AppSettings) -> Int { settings[Shared.sessionDays] * 86_400 }

    package static func hash(_ token: String) -> String { Digest.sha256Hex(Array(token.utf8)) }

    /// Issues a token for `userID` in the caller's transaction, recording
    /// the User-Agent of the device it signs in.
    package static func issueToken(
        for userID: Int64, userAgent: String?, address: String? = nil, settings: AppSettings, on connection: some PostgresQuerying
    ) async throws -> String {
        let token = RandomBytes.token()
        // Only when the operator has chosen to keep it.
        let kept = settings[Shared.recordDeviceAddresses] == 1 ? address.map { String($0.prefix(64)) } : nil
        _ = try await connection.query(
            """
            INSERT INTO auth_tokens (token_hash, user_id, expires_at, user_agent, ip_address)
            VALUES ($1, $2, now() + make_interval(secs => $3), $4, $5)
            """,
            [hash(token), userID, lifetime(settings), Self.userAgent(userAgent), kept]
        )
        return token
    }

    /// A User-Agent as a token keeps it: its first 512 characters, with no
    /// NUL (which PostgreSQL's text cannot hold).
    package static func userAgent(_ header: String?) -> String? {
        guard let header, !header.isEmpty else { return nil }
        let kept = header.unicodeScalars.lazy.filter { $0 != "\u{0}" }.prefix(512)
        return String(String.UnicodeScalarView(kept))
    }

    /// The signed-in user a token stands for; nil for none, an unknown,
    /// revoked or expired token. When the database cannot say, that is
    /// not "signed out": the request cannot be served now. With `cache`,
    /// a token checked lately costs no statement.
    package static func viewer(
        token: String?, database: PostgresPool, cache: TokenCache? = nil, settings: AppSettings
    ) async throws(ServiceUnavailable) -> RequestContext.Viewer? {
        guard let token, !token.isEmpty, token.utf8.count <= 200 else { return nil }
        return try await viewer(tokenHash: hash(token), database: database, cache: cache, settings: settings)
    }

    /// The signed-in user of the token hashed `tokenHash`, as `viewer(token:)` tells it.
    package static func viewer(
        tokenHash: String, database: PostgresPool, cache: TokenCache? = nil, settings: AppSettings
    ) async throws(ServiceUnavailable) -> RequestContext.Viewer? {
        if let userID = cache?.userID(forTokenHash: tokenHash) {
            return RequestContext.Viewer(userID: userID, tokenHash: tokenHash)
        }
        let stamp = cache?.stamp()
        let rows: PostgresRows
        do {
            rows = try await database.query(
                """
                SELECT user_id, extract(epoch FROM expires_at - now())::float8, last_used_at < now() - interval '5 minutes'
                FROM auth_tokens WHERE token_hash = $1 AND expires_at > now()
                """, [tokenHash]
            )
            // A use more than five minutes after the last one recorded is
            // recorded, and the token's expiry moved to a lifetime from now
            // (the sliding renewal): a second statement at most once per
            // token per five minutes, since as a writing CTE of the first
            // every cache miss paid for it (docs/performance.md).
            if let row = rows.first, (try? row.decode(Bool.self, at: 2)) == true {
                _ = try await database.query(
                    """
                    UPDATE auth_tokens SET last_used_at = now(), expires_at = greatest(expires_at, now() + make_interval(secs => $2))
                    WHERE token_hash = $1 AND last_used_at < now() - interval '5 minutes'
                    """, [tokenHash, lifetime(settings)])
            }
        } catch {
            throw ServiceUnavailable("The database is unavailable, so the request's sign-in cannot be checked; try again shortly.")
        }
        guard let row = rows.first, let userID = try? row.decode(Int64.self, at: 0) else { return nil }
        if let cache, let stamp, let seconds = try? row.decode(Double.self, at: 1) {
            cache.remember(tokenHash: tokenHash, userID: userID, expiresIn: .milliseconds(Int64(seconds * 1000)), stamp: stamp)
        }
        return RequestContext.Viewer(userID: userID, tokenHash: tokenHash)
    }

    /// The token of an `Authorization: Bearer …` header.
    /// The scheme is matched without regard to case (RFC 9110 §11.1); the
    /// token is what follows it, spaces and tabs around it left out. Read
    /// byte by byte: every request asks, and Foundation's trimming bridged
    /// through NSString cost more than the rest of a cached sign-in.
    package static func bearerToken(_ header: String?) -> String? {
        guard var header else { return nil }
        return header.withUTF8 { bytes in
            let scheme = "bearer".utf8
            guard bytes.count > scheme.count, zip(bytes, scheme).allSatisfy({ $0 | 0x20 == $1 }), bytes[scheme.count] == UInt8(ascii: " ")
            else { return nil }
            func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
            var (start, end) = (scheme.count + 1, bytes.count)
            while start < end, isBlank(bytes[start]) { start += 1 }
            while end > start, isBlank(bytes[end - 1]) { end -= 1 }
            return start < end ? String(decoding: bytes[start..<end], as: UTF8.self) : nil
        }
    }
}
