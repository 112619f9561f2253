import Foundation
import GraphQL
import HuddleMedia
import HuddlePostgres
import HuddleRuntime

/// The shared core's pictures: a user's avatar, set from an upload and
/// shown by size, and the one-time URLs large files may be sent to.
package enum PictureResolvers {
    /// The `Upload` scalar: an upload's id, as text.
    package static let uploadCoercion = ScalarCoercion(
        serialize: { value in
            guard case .string = value else { return .failure(.init("Upload cannot represent a non string value")) }
            return .success(value)
        },
        parseValue: { value in
            guard case .string = value else {
                return .failure(
                    .init("Upload must be a file part of a multipart request, or the id createUpload gave once its URL took the bytes"))
            }
            return .success(value)
        })

    /// The path of a public picture's `size` in `format` (nil: the Accept header chooses).
    package static func path(key: String, size: String?, format: String?) -> String {
        PictureURLs().path(key: key, size: size, format: format, isPrivate: false) ?? ""
    }

    package static func bind(_ binder: inout SchemaBinder) {
        binder.field("User", "avatar") { (user: UserRecord, input: ResolverInput) in
            try user.avatarKey.map {
                .scalar(.string(path(key: $0, size: input.argument("size")?.enumValue, format: input.argument("format")?.enumValue)))
            }
                ?? .null
        }
        binder.rootAsync("Mutation", "setAvatar") { input in
            let user = try input.request.signedIn()
            let upload = input.string("file") ?? ""
            let row = try await input.request.database.withTransaction { connection in
                guard let picture = try await Uploads.claim(upload, by: user, for: "avatar", on: connection) else {
                    throw APIError.badInput(Uploads.notClaimable)
                }
                return try await replaceAvatar(of: user, with: picture.id, on: connection)
            }
            return .object(try UserRecord(row: row, shownToOwner: true))
        }
        binder.rootAsync("Mutation", "removeAvatar") { input in
            let user = try input.request.signedIn()
            let row = try await input.request.database.withTransaction { connection in
                try await replaceAvatar(of: user, with: nil, on: connection)
            }
            return .object(try UserRecord(row: row, shownToOwner: true))
        }
        binder.rootAsync("Mutation", "createUpload") { input in
            let user = try input.request.signedIn()
            // The file counts against the hour's uploads when its URL is made,
            // so URLs cannot be made without bound.
            do {
                try await Uploads.reserve(1, for: user, settings: input.request.settings, on: input.request.database)
            } catch let refusal as Uploads.Refusal {
                throw APIError.rateLimited(refusal.message)
            }
            let token = RandomBytes.token(32)
            let row = try await input.request.database.query(
                """
                INSERT INTO upload_slots (user_id, token_hash, expires_at) VALUES ($1, $2, now() + $3 * interval '1 minute')
                RETURNING id, expires_at
                """, [user, Digest.sha256Hex(Array(token.utf8)), input.request.settings[Shared.uploadLinkMinutes]])[0]
            return .object(
                UploadSlotRecord(
                    id: try row.decode(Int64.self, at: 0), url: "/uploads?token=\(token)", expiresAt: try row.decode(Date.self, at: 1)))
        }
        binder.field("UploadSlot", "id") { (slot: UploadSlotRecord) in GlobalID.value("UploadSlot", slot.id) }
        binder.field("UploadSlot", "url") { (slot: UploadSlotRecord) in .scalar(.string(slot.url)) }
        binder.field("UploadSlot", "expiresAt") { (slot: UploadSlotRecord) in Instant.value(slot.expiresAt) }
    }

    /// Gives `user` the picture `media` (nil: none), removing the one they
    /// had; their row as `UserRecord` reads it.
    private static func replaceAvatar(of user: Int64, with media: Int64?, on connection: PostgresConnection) async throws -> PostgresRow {
        let old = try await connection.query("SELECT avatar_id FROM users WHERE id = $1 FOR UPDATE", [user]).first?.decode(
            Int64?.self, at: 0)
        _ = try await connection.query("UPDATE users SET avatar_id = $2 WHERE id = $1", [user, media])
        if let old, old != media { _ = try await connection.query("DELETE FROM media WHERE id = $1", [old]) }
        return try await connection.query("SELECT \(UserRecord.columns) FROM users u WHERE u.id = $1", [user])[0]
    }

    struct UploadSlotRecord: Sendable {
        var id: Int64
        var url: String
        var expiresAt: Date
    }
}
