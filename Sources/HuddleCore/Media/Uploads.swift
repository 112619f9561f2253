import Foundation
import GraphQL
import HuddleMedia
import HuddlePostgres
import HuddleRuntime

/// Files users send: spooled to an unnamed temporary file as they arrive
/// (never held in memory), remade by `ImageProcessor` on the thread pool,
/// and kept as a staged picture (purpose `upload`) that a mutation then
/// claims for what it is for. An upload is named to the API by its global
/// id (`Upload:…`), which is what an `Upload` variable holds.
package enum Uploads {
    /// Why a file was not taken.
    package enum Refusal: Error, Sendable {
        case tooLarge(limit: Int)
        case notAPicture(String)
        case rateLimited(perHour: Int)
        /// The server could not remake it now (not the file's fault).
        case unavailable(String)

        package var status: Int {
            switch self {
            case .tooLarge: 413
            case .notAPicture: 400
            case .rateLimited: 429
            case .unavailable: 503
            }
        }

        package var code: String {
            switch self {
            case .tooLarge: "UPLOAD_TOO_LARGE"
            case .notAPicture: "BAD_USER_INPUT"
            case .rateLimited: "RATE_LIMITED"
            case .unavailable: "SERVICE_UNAVAILABLE"
            }
        }

        package var message: String {
            switch self {
            case .tooLarge(let limit): "The file is larger than \(limit) bytes."
            case .notAPicture(let reason): "The file is not a picture Huddle takes: \(reason)."
            case .rateLimited(let perHour): "At most \(perHour) files may be uploaded in an hour; try again later."
            case .unavailable(let reason): "The picture could not be remade now (\(reason)); try again."
            }
        }
    }

    /// How long a staged upload waits for a mutation to claim it.
    package static let stagedFor = "1 hour"

    /// Counts `files` against `user`'s hour, or refuses them all when that
    /// would pass `uploads-per-hour`; one statement, so requests at once
    /// cannot both take the last places.
    package static func reserve(_ files: Int, for user: Int64, settings: AppSettings, on database: PostgresPool) async throws {
        let perHour = settings[Shared.uploadsPerHour]
        await sweep(on: database)
        let rows = try await database.query(
            """
            INSERT INTO upload_counts AS c (user_id, window_started_at, files) SELECT $1, now(), $2::int WHERE $2::int <= $3::int
            ON CONFLICT (user_id) DO UPDATE SET
              window_started_at = CASE WHEN c.window_started_at <= now() - interval '1 hour' THEN now() ELSE c.window_started_at END,
              files = CASE WHEN c.window_started_at <= now() - interval '1 hour' THEN $2::int ELSE c.files + $2::int END
            WHERE CASE WHEN c.window_started_at <= now() - interval '1 hour' THEN $2::int ELSE c.files + $2::int END <= $3::int
            RETURNING 1
            """, [user, files, perHour])
        if rows.isEmpty { throw Refusal.rateLimited(perHour: perHour) }
    }

    /// The scheduler's sweep: due an hour after an upload is staged, and
    /// again while staged uploads are left.
    package static let sweepKind = "uploads.sweep"
    package static let sweepWork = ScheduledWork(sweepKind) { _, connection in
        await sweep(on: connection)
        let left = try await connection.query("SELECT EXISTS (SELECT 1 FROM media WHERE purpose = 'upload')")[0].decode(Bool.self, at: 0)
        return left ? .again(at: Date().addingTimeInterval(15 * 60)) : .done
    }

    /// Removes uploads nobody claimed in time, and spent or expired URLs,
    /// a hundred of each at a time: run as uploads arrive and by the
    /// scheduler. A picture claimed meanwhile is left alone (the purpose
    /// and age are checked again on the row deleted); a failure is left
    /// for the next sweep.
    package static func sweep(on database: some PostgresQuerying) async {
        _ = try? await database.query(
            """
            WITH stale_slots AS (
              DELETE FROM upload_slots WHERE id IN (
                SELECT id FROM upload_slots WHERE expires_at < now() - $1::interval ORDER BY expires_at LIMIT 100))
            DELETE FROM media WHERE purpose = 'upload' AND created_at < now() - $1::interval AND id IN (
              SELECT id FROM media WHERE purpose = 'upload' AND created_at < now() - $1::interval ORDER BY created_at LIMIT 100)
            """, [stagedFor])
    }

    /// Reads one file through `next` (its bytes as they arrive, nil at the
    /// end) into an unnamed temporary file, remakes it, and keeps it staged
    /// for `owner`; its global id.
    package static func stage(
        owner: Int64, maxBytes: Int, processor: ImageProcessor, database: PostgresPool, bucket: S3Bucket? = nil,
        next: () async throws -> [UInt8]?
    ) async throws -> String {
        let spool = try Spool()
        // Written in pieces of about 64 KiB, however the bytes arrived.
        var pending: [UInt8] = []
        var length = 0
        while let bytes = try await next() {
            length += bytes.count
            guard length <= maxBytes else { throw Refusal.tooLarge(limit: maxBytes) }
            pending += bytes
            if pending.count >= 64 * 1024 {
                try spool.append(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
        try spool.append(pending)
        let descriptor = spool.descriptor, spooled = length
        let made = await database.loop.runInThreadPool {
            Result { () throws(ImageProcessor.Refusal) in try processor.process(fileDescriptor: descriptor, length: spooled) }
        }
        withExtendedLifetime(spool) {}
        let renditions: [ImageProcessor.Rendition]
        switch made {
        case .success(let made): renditions = made
        case .failure(.unavailable(let reason)): throw Refusal.unavailable(reason)
        case .failure(let refusal): throw Refusal.notAPicture(refusal.description)
        }
        // A bucket's objects are put before the transaction, which then
        // holds no lock while they travel.
        let objectsKey = try await bucket.asyncMap { try await MediaLibrary.putObjects(renditions, in: $0, listingOn: database) }
        let record: MediaLibrary.Record
        do {
            record = try await database.withTransaction { connection in
                let record = try await MediaLibrary.store(
                    renditions, owner: owner, purpose: "upload", objectsKey: objectsKey, on: connection)
                // The sweep is due once this one could be unclaimed too long.
                _ = try await connection.query(
                    """
                    INSERT INTO scheduled_jobs (kind, subject_id, due_at) VALUES ($1, 0, now() + $2::interval + interval '1 minute')
                    ON CONFLICT (kind, subject_id) DO NOTHING
                    """, [sweepKind, stagedFor])
                return record
            }
        } catch {
            // Objects nobody recorded would never be found to delete.
            if let objectsKey, let bucket { await MediaLibrary.deleteObjects(of: renditions, key: objectsKey, in: bucket) }
            throw error
        }
        return GlobalID(type: "Upload", id: record.id).encoded
    }

    /// Removes staged uploads (a request that failed after taking them).
    package static func discard(_ ids: [String], owner: Int64, on database: PostgresPool) async {
        let numbers = ids.compactMap { GlobalID.decode($0).flatMap { $0.type == "Upload" ? $0.id : nil } }
        guard !numbers.isEmpty else { return }
        _ = try? await database.query(
            "DELETE FROM media WHERE id = ANY($1::bigint[]) AND owner_id = $2 AND purpose = 'upload'", [numbers, owner])
    }

    /// What a mutation says of an `Upload` it cannot use.
    package static let notClaimable =
        "That upload cannot be used: it is not yours, was used already, is over an hour old, or its URL has not been sent the file."

    /// Takes the staged upload `id` of `user` for `purpose`, in the caller's
    /// transaction; nil when it is not theirs, not staged any more, or not
    /// an upload's id. `id` names the upload (`Upload:…`, a multipart
    /// request's file) or the slot its bytes were PUT to (`UploadSlot:…`).
    /// With `keepingOwner` false the picture is no longer the user's (a
    /// pet's photo, which stays when its sender's account goes).
    package static func claim(
        _ id: String, by user: Int64, for purpose: String, keepingOwner: Bool = true, on connection: some PostgresQuerying
    ) async throws -> MediaLibrary.Record? {
        guard let global = GlobalID.decode(id), global.type == "Upload" || global.type == "UploadSlot" else { return nil }
        let media =
            global.type == "Upload" ? "$1" : "(SELECT s.media_id FROM upload_slots s WHERE s.id = $1 AND s.user_id = $2)"
        let rows = try await connection.query(
            """
            UPDATE media SET purpose = $3, owner_id = CASE WHEN $5 THEN owner_id END
            WHERE id = \(media) AND owner_id = $2 AND purpose = 'upload' AND created_at > now() - $4::interval
            RETURNING id, key
            """, [global.id, user, purpose, stagedFor, keepingOwner])
        guard let row = rows.first else { return nil }
        return MediaLibrary.Record(id: try row.decode(Int64.self, at: 0), key: try row.decode(String.self, at: 1))
    }

    /// A file being received: created and unlinked at once, so nothing is
    /// left on disk whatever becomes of the process.
    private final class Spool: Sendable {
        let descriptor: Int32

        init() throws {
            var template = Array((NSTemporaryDirectory() + "/huddle-upload-XXXXXX").utf8CString)
            let made = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard made >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            unlink(template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
            descriptor = made
        }

        deinit { close(descriptor) }

        func append(_ bytes: [UInt8]) throws {
            guard !bytes.isEmpty else { return }
            var offset = 0
            while offset < bytes.count {
                let count = bytes[offset...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                offset += count
            }
        }
    }
}
