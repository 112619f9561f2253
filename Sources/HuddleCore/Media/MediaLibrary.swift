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
    /// caller's transaction; the picture's new key. With `objectsKey`, the
    /// bytes are the bucket's already (`putObjects`) under that key, and
    /// only the renditions' sizes and ETags are kept here.
    package static func store(
        _ renditions: [ImageProcessor.Rendition], owner: Int64?, purpose: String, objectsKey: String? = nil,
        on connection: some PostgresQuerying
    ) async throws -> Record {
        let full = renditions.max { $0.width * $0.height < $1.width * $1.height }
        let key = objectsKey ?? RandomBytes.token(16)
        let id = try await connection.query(
            "INSERT INTO media (key, owner_id, purpose, width, height, stored_in) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
            [key, owner, purpose, full?.width ?? 1, full?.height ?? 1, objectsKey == nil ? "postgres" : "s3"])[0].decode(Int64.self, at: 0)
        _ = try await connection.query(
            """
            INSERT INTO media_renditions (media_id, size, encoding, width, height, etag, bytes)
            SELECT $1, s, e, w, h, t, CASE WHEN $8 THEN NULL ELSE b END
            FROM unnest($2::text[], $3::text[], $4::int[], $5::int[], $6::text[], $7::bytea[]) AS u(s, e, w, h, t, b)
            """,
            [
                id, renditions.map(\.size), renditions.map(\.encoding.rawValue), renditions.map(\.width), renditions.map(\.height),
                renditions.map { String(Digest.sha256Hex($0.bytes).prefix(32)) },
                renditions.map { PostgresBytea(objectsKey == nil ? $0.bytes : []) }, objectsKey != nil,
            ])
        if let objectsKey {
            // Recorded: the objects are no longer the trash's.
            _ = try await connection.query(
                "DELETE FROM media_object_trash WHERE object = ANY($1::text[])", [objectNames(of: renditions, key: objectsKey)])
        }
        return Record(id: id, key: key)
    }

    /// Puts each rendition in `bucket` as `KEY/SIZE.EXT` under a new key,
    /// outside any transaction; the key, for `store(objectsKey:)`. The
    /// objects are listed in the trash, due an hour on, before any is put:
    /// a process that dies before recording the picture leaves them to be
    /// deleted then, and `store` takes them off the list. After a failure
    /// here, what was put is deleted at once, as far as the bucket lets it.
    package static func putObjects(
        _ renditions: [ImageProcessor.Rendition], in bucket: S3Bucket, listingOn database: some PostgresQuerying
    ) async throws -> String {
        let key = RandomBytes.token(16)
        _ = try await database.query(
            """
            WITH listed AS (
              INSERT INTO media_object_trash (object, removed_at) SELECT unnest($1::text[]), now() + interval '1 hour'
              ON CONFLICT DO NOTHING)
            INSERT INTO scheduled_jobs (kind, subject_id, due_at) VALUES ($2, $3, now() + interval '1 hour')
            ON CONFLICT (kind, subject_id) DO NOTHING
            """, [objectNames(of: renditions, key: key), MediaTrash.jobKind, MediaTrash.laterLook])
        do {
            for rendition in renditions {
                try await bucket.put(
                    objectName(key: key, size: rendition.size, encoding: rendition.encoding), rendition.bytes,
                    contentType: rendition.encoding.contentType)
            }
        } catch {
            await deleteObjects(of: renditions, key: key, in: bucket)
            throw error
        }
        return key
    }

    static func objectNames(of renditions: [ImageProcessor.Rendition], key: String) -> [String] {
        renditions.map { objectName(key: key, size: $0.size, encoding: $0.encoding) }
    }

    /// Deletes a picture's objects, as far as the bucket lets it (a picture
    /// never recorded has nothing in the trash to retry).
    package static func deleteObjects(of renditions: [ImageProcessor.Rendition], key: String, in bucket: S3Bucket) async {
        for rendition in renditions {
            try? await bucket.delete(objectName(key: key, size: rendition.size, encoding: rendition.encoding))
        }
    }

    /// The bucket's name for a rendition.
    package static func objectName(key: String, size: String, encoding: ImageProcessor.Encoding) -> String {
        "\(key)/\(size).\(encoding.fileExtension)"
    }

    /// The rendition of `key` in `size` and `encoding`, if there is one:
    /// its bytes from the database, or from `bucket` for a picture kept there.
    package static func rendition(
        key: String, size: String, encoding: ImageProcessor.Encoding, on database: some PostgresQuerying, bucket: S3Bucket? = nil
    ) async throws -> Stored? {
        let rows = try await database.query(
            """
            SELECT r.bytes, r.etag, m.private FROM media m JOIN media_renditions r ON r.media_id = m.id
            WHERE m.key = $1 AND r.size = $2 AND r.encoding = $3
            """, [key, size, encoding.rawValue])
        guard let row = rows.first else { return nil }
        var bytes = try row.decode([UInt8]?.self, at: 0)
        if bytes == nil {
            guard let bucket else { throw S3Bucket.Failure(description: "picture \(key) is in a bucket, and no media store is named") }
            bytes = try await bucket.get(objectName(key: key, size: size, encoding: encoding))
        }
        guard let bytes else { return nil }
        return Stored(
            bytes: bytes, etag: try row.decode(String.self, at: 1), encoding: encoding, isPrivate: try row.decode(Bool.self, at: 2))
    }

    /// The path of a picture's rendition; without `encoding`, the one the client's Accept chooses.
    package static func path(key: String, size: String, encoding: ImageProcessor.Encoding? = nil) -> String {
        "/media/\(key)/\(size)" + (encoding.map { "." + $0.fileExtension } ?? "")
    }
}
