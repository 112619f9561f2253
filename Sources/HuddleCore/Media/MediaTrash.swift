import Foundation
import HuddlePostgres

/// Deletes from the bucket the objects of pictures removed
/// (`media_object_trash`, filled by a trigger on every removal): the
/// scheduler's `media.trash` job, a batch at a time until none is left. An
/// object that cannot be deleted now stays for the next run.
package enum MediaTrash {
    package static let jobKind = "media.trash"
    /// The job's subject when a removal wakes it is 0 (the trigger's); the
    /// look at objects listed ahead of their recording is a job of its
    /// own, so that its hour's wait never holds back a removal's.
    static let laterLook = 1
    static let batch = 25

    package static func work(_ bucket: S3Bucket) -> ScheduledWork {
        ScheduledWork(jobKind) { _, connection in
            // Objects listed ahead (an upload being recorded) are not due yet.
            let objects = try await connection.query(
                "SELECT object FROM media_object_trash WHERE removed_at <= now() ORDER BY removed_at LIMIT $1 FOR UPDATE SKIP LOCKED",
                [batch]
            ).map { try $0.decode(String.self, at: 0) }
            guard !objects.isEmpty else { return try await nextLook(on: connection).map { .again(at: $0) } ?? .done }
            var deleted: [String] = []
            var failed: [String] = []
            var failure: (any Error)?
            for object in objects {
                do {
                    try await bucket.delete(object)
                    deleted.append(object)
                } catch {
                    failed.append(object)
                    failure = error
                }
            }
            _ = try await connection.query("DELETE FROM media_object_trash WHERE object = ANY($1::text[])", [deleted])
            // One that keeps failing goes to the back, behind the others.
            _ = try await connection.query("UPDATE media_object_trash SET removed_at = now() WHERE object = ANY($1::text[])", [failed])
            if let failure, deleted.isEmpty { throw failure }
            // Within seconds at the latest, even when none is left: a removal
            // that committed while this ran found the job still there and
            // did not schedule another.
            let soon = Date().addingTimeInterval(5)
            return .again(at: min(try await nextLook(on: connection) ?? soon, soon))
        }
    }

    /// When the next listed object is due; nil when none is listed.
    private static func nextLook(on connection: PostgresConnection) async throws -> Date? {
        try await connection.query("SELECT min(removed_at) FROM media_object_trash")[0].decode(Date?.self, at: 0)
    }
}
