import Foundation
import HuddleMedia
import HuddlePostgres
import HuddleRuntime

/// Where pictures are kept (in PostgreSQL: `media`, `media_renditions`) and
/// how their URLs are written: `/media/<key>/<size>.<webp|jpg>`, or
/// `/media/<key>/<size>` to let the client's Accept choose.
package enum MediaLibrary {
    /// A stored picture.
    package struct Record: Sendable {
        package var id: Int64
        package var key: String
    }

    /// One rendition as served.
    package struct Stored: Sendable {
        package var bytes: [UInt8]
        package var etag: String
        package var encoding: ImageProcessor.Encoding
        /// A private project's: served only by a signed URL.
        package var isPrivate: Bool

        package init(bytes: [UInt8], etag: String, encoding: ImageProcessor.Encoding, isPrivate: Bool = false) {
            self.bytes = bytes
            self.etag = etag
            self.encoding = encoding
            self.isPrivate = isPrivate
        }
    }

    /// Keeps `renditions` of one picture for `owner`, for `purpose`, in the
    /// caller's transaction; the picture's new key.
    package static func store(
        _ renditions: [ImageProcessor.Rendition], owner: Int64?, purpose: String, on connection: some PostgresQuerying
    ) async throws -> Record {
        let full = renditions.max { $0.width * $0.height < $1.width * $1.height }
        let key = RandomBytes.token(16)
        let id = try await connection.query(
            "INSERT INTO media (key, owner_id, purpose, width, height) VALUES ($1, $2, $3, $4, $5) RETURNING id",
            [key, owner, purpose, full?.width ?? 1, full?.height ?? 1])[0].decode(Int64.self, at: 0)
        _ = try await connection.query(
            """
            INSERT INTO media_renditions (media_id, size, encoding, width, height, etag, bytes)
            SELECT $1, * FROM unnest($2::text[], $3::text[], $4::int[], $5::int[], $6::text[], $7::bytea[])
            """,
            [
                id, renditions.map(\.size), renditions.map(\.encoding.rawValue), renditions.map(\.width), renditions.map(\.height),
                renditions.map { String(Digest.sha256Hex($0.bytes).prefix(32)) }, renditions.map { PostgresBytea($0.bytes) },
            ])
        return Record(id: id, key: key)
    }

    /// The rendition of `key` in `size` and `encoding`, if there is one.
    package static func rendition(key: String, size: String, encoding: ImageProcessor.Encoding, on database: some PostgresQuerying)
        async throws -> Stored?
    {
        let rows = try await database.query(
            """
            SELECT r.bytes, r.etag, m.private FROM media m JOIN media_renditions r ON r.media_id = m.id
            WHERE m.key = $1 AND r.size = $2 AND r.encoding = $3
            """, [key, size, encoding.rawValue])
        guard let row = rows.first else { return nil }
        return Stored(
            bytes: try row.decode([UInt8].self, at: 0), etag: try row.decode(String.self, at: 1), encoding: encoding,
            isPrivate: try row.decode(Bool.self, at: 2))
    }

    /// The path of a picture's rendition; without `encoding`, the one the client's Accept chooses.
    package static func path(key: String, size: String, encoding: ImageProcessor.Encoding? = nil) -> String {
        "/media/\(key)/\(size)" + (encoding.map { "." + $0.fileExtension } ?? "")
    }
}
