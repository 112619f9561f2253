import Foundation
import HuddlePostgres

/// Deletes from the bucket the objects of pictures removed
/// (`media_object_trash`, filled by a trigger on every removal): the
/// scheduler's `media.trash` job, a batch at a time until none is left. An
/// object that cannot be deleted now stays for the next run.
package enum MediaTrash {
    package static let jobKind = "media.trash"
    static let batch = 25

    package static func work(_ bucket: S3Bucket) -> ScheduledWork {
        ScheduledWork(jobKind) { _, connection in
            let objects = try await connection.query(
                "SELECT object FROM media_object_trash ORDER BY removed_at LIMIT $1 FOR UPDATE SKIP LOCKED", [batch]
            ).map { try $0.decode(String.self, at: 0) }
            guard !objects.isEmpty else { return .done }
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
            let left = try await connection.query("SELECT EXISTS (SELECT 1 FROM media_object_trash)")[0].decode(Bool.self, at: 0)
            // One more look shortly even when none is left: a removal that
            // committed while this ran found the job still there and did not
            // schedule another.
            return .again(at: Date().addingTimeInterval(left ? 0 : 5))
        }
    }
}
