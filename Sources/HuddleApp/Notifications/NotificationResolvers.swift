import Foundation
import GraphQL
import HuddleRuntime

/// A row of `notifications`.
final class NotificationRecord: Identified {
    let id: Int64
    let kind: String
    let actorID: Int64?
    let sessionID: Int64?
    let invitationID: Int64?
    let friendRequestID: Int64?
    let message: String
    let createdAt: Date
    let readAt: Date?

    static let columns = "n.id, n.kind, n.actor_id, n.session_id, n.invitation_id, n.friend_request_id, n.message, n.created_at, n.read_at"

    init(row: PostgresRow) throws {
        id = try row.decode(at: 0)
        kind = try row.decode(at: 1)
        actorID = try row.decode(at: 2)
        sessionID = try row.decode(at: 3)
        invitationID = try row.decode(at: 4)
        friendRequestID = try row.decode(at: 5)
        message = try row.decode(at: 6)
        createdAt = try row.decode(at: 7)
        readAt = try row.decode(at: 8)
    }
}

/// The inbox: reading it and marking it read.
enum NotificationResolvers {
    static func bind(_ binder: inout SchemaBinder) {
        binder.field("Notification", "id") { (notice: NotificationRecord) in GlobalID.value("Notification", notice.id) }
        binder.field("Notification", "kind") { (notice: NotificationRecord) in .scalar(.enum(notice.kind)) }
        binder.field("Notification", "message") { (notice: NotificationRecord) in .scalar(.string(notice.message)) }
        binder.field("Notification", "read") { (notice: NotificationRecord) in .scalar(.boolean(notice.readAt != nil)) }
        binder.field("Notification", "createdAt") { (notice: NotificationRecord) in Instant.value(notice.createdAt) }
        binder.field("Notification", "actor") { (notice: NotificationRecord, input) in
            guard let actor = notice.actorID else { return .null }
            return input.request.loaders.users.load(actor) { $0.map { .object($0) } ?? .null }
        }
        binder.field("Notification", "session") { (notice: NotificationRecord, input) in
            guard let session = notice.sessionID else { return .null }
            return input.request.loaders.sessions.load(session) { $0.map { .object($0) } ?? .null }
        }
        binder.field("Notification", "invitation") { (notice: NotificationRecord, input) in
            guard let invitation = notice.invitationID else { return .null }
            return input.request.loaders.invitations.load(invitation) { $0.map { .object($0) } ?? .null }
        }
        binder.field("Notification", "friendRequest") { (notice: NotificationRecord, input) in
            guard let request = notice.friendRequestID else { return .null }
            return input.request.loaders.friendRequests.load(request) { $0.map { .object($0) } ?? .null }
        }
        binder.bindConnection("NotificationConnection", edge: "NotificationEdge")

        binder.root("Query", "notifications") { input in
            let viewer = try input.request.signedIn()
            let page = try PageRequest(input)
            let unreadOnly = input.argument("unreadOnly")?.boolValue ?? false
            let database = input.request.database
            return .async {
                let query = KeysetQuery(
                    columns: NotificationRecord.columns,
                    from: "FROM notifications n WHERE n.user_id = $1 AND (NOT $2::bool OR n.read_at IS NULL)",
                    parameters: [viewer, unreadOnly], keys: [("n.id", "bigint")], descending: true)
                return .object(try await query.page(page, on: database) { try NotificationRecord(row: $0) })
            }
        }
        binder.rootAsync("Query", "unreadNotificationCount") { input in
            let viewer = try input.request.signedIn()
            let rows = try await input.request.database.query(
                "SELECT count(*)::int FROM notifications WHERE user_id = $1 AND read_at IS NULL", [viewer])
            return .scalar(.int(try rows[0].decode(Int.self, at: 0)))
        }
        binder.rootAsync("Mutation", "markNotificationsRead") { input in
            let viewer = try input.request.signedIn()
            let ids = try input.argument("ids")?.listValue?.map {
                try GlobalID.id(of: "Notification", $0.stringValue ?? "", argument: "ids")
            }
            let rows = try await input.request.database.query(
                """
                UPDATE notifications SET read_at = now()
                WHERE user_id = $1 AND read_at IS NULL AND ($2::bigint[] IS NULL OR id = ANY($2::bigint[]))
                """, [viewer, ids])
            return .scalar(.int(rows.affectedRows))
        }
    }

    /// The viewer's notices after `id`, oldest first (what a subscriber missed).
    static func after(_ id: Int64, for user: Int64, kinds: [String]?, on database: PostgresPool) async throws -> [NotificationRecord] {
        let rows = try await database.query(
            """
            SELECT \(NotificationRecord.columns) FROM notifications n
            WHERE n.user_id = $1 AND n.id > $2 AND ($3::text[] IS NULL OR n.kind = ANY($3::text[])) ORDER BY n.id LIMIT 1000
            """, [user, id, kinds])
        return try rows.map { try NotificationRecord(row: $0) }
    }
}
