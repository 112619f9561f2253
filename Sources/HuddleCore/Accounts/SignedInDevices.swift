import Foundation
import GraphQL
import HuddlePostgres

/// A device signed in to an account: one row of `auth_tokens`.
package struct SignedInDevice: Sendable {
    var id: Int64
    var signedInAt: Date
    var lastUsedAt: Date
    var expiresAt: Date
    var userAgent: String?
    var ipAddress: String?
    var isCurrent: Bool
}

/// The signed-in user's devices: listing them, signing one out, signing
/// out all but the request's. A token deleted here stops working on every
/// process through the revocation trigger, and closes its sockets.
package enum SignedInDevices {
    static func bind(_ binder: inout SchemaBinder) {
        binder.rootAsync("Query", "signedInDevices") { input in
            let context = input.request
            guard let viewer = context.viewer else { throw APIError.unauthenticated() }
            let first = input.int("first") ?? 50
            guard (1...PageRequest.maxPageSize).contains(first) else {
                throw APIError.badInput("\"first\" must be between 1 and \(PageRequest.maxPageSize).")
            }
            let rows = try await context.database.query(
                """
                SELECT id, created_at, last_used_at, expires_at, user_agent, token_hash = $2, ip_address FROM auth_tokens
                WHERE user_id = $1 AND expires_at > now() ORDER BY last_used_at DESC, id DESC LIMIT $3
                """, [viewer.userID, viewer.tokenHash, first])
            return .list(
                try rows.map { row in
                    .object(
                        SignedInDevice(
                            id: try row.decode(at: 0), signedInAt: try row.decode(at: 1), lastUsedAt: try row.decode(at: 2),
                            expiresAt: try row.decode(at: 3), userAgent: try row.decode(at: 4), ipAddress: try row.decode(at: 6),
                            isCurrent: try row.decode(at: 5)))
                })
        }
        binder.rootAsync("Mutation", "signOutDevice") { input in
            let context = input.request
            guard let viewer = context.viewer else { throw APIError.unauthenticated() }
            let id = try GlobalID.id(of: "SignedInDevice", input.string("id") ?? "", argument: "id")
            let rows = try await context.database.query(
                "DELETE FROM auth_tokens WHERE id = $1 AND user_id = $2 RETURNING token_hash", [id, viewer.userID])
            guard let tokenHash = try rows.first?.decode(String.self, at: 0) else {
                throw APIError.notFound("You have no signed-in device with that id.")
            }
            forget([tokenHash], in: context)
            return .scalar(.boolean(true))
        }
        binder.rootAsync("Mutation", "signOutOtherDevices") { input in
            let context = input.request
            guard let viewer = context.viewer else { throw APIError.unauthenticated() }
            let revoked = try await signOutOthers(of: viewer, on: context.database)
            forget(revoked, in: context)
            return .scalar(.int(revoked.count))
        }
        binder.field("SignedInDevice", "id") { (device: SignedInDevice) in GlobalID.value("SignedInDevice", device.id) }
        binder.field("SignedInDevice", "signedInAt") { (device: SignedInDevice) in Instant.value(device.signedInAt) }
        binder.field("SignedInDevice", "lastUsedAt") { (device: SignedInDevice) in Instant.value(device.lastUsedAt) }
        binder.field("SignedInDevice", "expiresAt") { (device: SignedInDevice) in Instant.value(device.expiresAt) }
        binder.field("SignedInDevice", "userAgent") { (device: SignedInDevice) in device.userAgent.map { .scalar(.string($0)) } ?? .null }
        binder.field("SignedInDevice", "ipAddress") { (device: SignedInDevice) in device.ipAddress.map { .scalar(.string($0)) } ?? .null }
        binder.field("SignedInDevice", "current") { (device: SignedInDevice) in .scalar(.boolean(device.isCurrent)) }
    }

    /// Deletes every token of the viewer's account but the viewer's own;
    /// their hashes.
    static func signOutOthers(of viewer: RequestContext.Viewer, on connection: some PostgresQuerying) async throws -> [String] {
        try await connection.query(
            "DELETE FROM auth_tokens WHERE user_id = $1 AND token_hash <> $2 RETURNING token_hash", [viewer.userID, viewer.tokenHash]
        ).map { try $0.decode(String.self, at: 0) }
    }

    /// This process drops the tokens at once; the others hear of each from
    /// the database's trigger.
    static func forget(_ tokenHashes: [String], in context: RequestContext) {
        for tokenHash in tokenHashes { context.tokens?.forget(tokenHash) }
    }
}
