import Foundation
import GraphQL
import HuddlePostgres
import HuddleRuntime

/// A row of `notifications`.
package final class NotificationRecord: Identified {
    package let id: Int64
    package let kind: String
    package let actorID: Int64?
    /// What the notice is about, and what that belongs to.
    package let subject: NodeReference?
    package let scope: NodeReference?
    package let message: String
    package let createdAt: Date
    package let readAt: Date?
    /// The channels outside the app it reached.
    package let deliveredTo: [String]

    /// The columns `init(row:)` reads, in order.
    package enum Column: Int, PostgresColumnList {
        case id, kind, actorID, subjectType, subjectID, scopeType, scopeID, message, createdAt, readAt, deliveredTo
    }
    package static let selection = PostgresColumns<Column>(alias: "n")
    /// The select list, from `n`.
    package static var columns: String { selection.list }

    package init(row: PostgresRow) throws {
        let column = row.columns(Column.self)
        id = try column[.id]
        kind = try column[.kind]
        actorID = try column[.actorID]
        subject = try Self.reference(type: column[.subjectType], id: column[.subjectID])
        scope = try Self.reference(type: column[.scopeType], id: column[.scopeID])
        message = try column[.message]
        createdAt = try column[.createdAt]
        readAt = try column[.readAt]
        deliveredTo = try column[.deliveredTo]
    }

    private static func reference(type: String?, id: Int64?) -> NodeReference? {
        guard let type, let id else { return nil }
        return NodeReference(type, id)
    }

    /// The id of the subject or scope of `type`, whichever it is.
    package func reference(to type: String) -> Int64? {
        if subject?.type == type { return subject?.id }
        if scope?.type == type { return scope?.id }
        return nil
    }
}

/// The inbox: reading it and marking it read.
package enum NotificationResolvers {
    package static func bind(_ binder: inout SchemaBinder) {
        binder.field("Notification", "id") { (notice: NotificationRecord) in GlobalID.value("Notification", notice.id) }
        binder.field("Notification", "kind") { (notice: NotificationRecord) in .scalar(.enum(notice.kind)) }
        binder.field("Notification", "message") { (notice: NotificationRecord) in .scalar(.string(notice.message)) }
        binder.field("Notification", "read") { (notice: NotificationRecord) in .scalar(.boolean(notice.readAt != nil)) }
        binder.field("Notification", "createdAt") { (notice: NotificationRecord) in Instant.value(notice.createdAt) }
        binder.field("Notification", "actor") { (notice: NotificationRecord, input) in
            guard let actor = notice.actorID else { return .null }
            return input.request.loaders.users.load(actor) { $0.map { .object($0) } ?? .null }
        }
        binder.field("Notification", "friendRequest") { (notice: NotificationRecord, input) in
            guard let request = notice.reference(to: "FriendRequest") else { return .null }
            return input.request.loaders.friendRequests.load(request) { $0.map { .object($0) } ?? .null }
        }
        binder.bindConnection("NotificationConnection", edge: "NotificationEdge")

        binder.root("Query", "notifications") { input in
            let viewer = try input.request.signedIn()
            let page = try PageRequest(input)
            let query = list(of: viewer, unreadOnly: input.argument("unreadOnly")?.boolValue ?? false)
            let database = input.request.database
            return .async {
                .object(try await query.page(page, on: database) { try NotificationRecord(row: $0) })
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

    /// The viewer's notices, newest first. The unread ones are their own
    /// statement: `(NOT $2 OR n.read_at IS NULL)` would be planned (once,
    /// generically) without the index of unread notices, and read every
    /// notice the viewer ever had to find the few unread.
    package static func list(of viewer: Int64, unreadOnly: Bool) -> KeysetQuery {
        KeysetQuery(
            columns: NotificationRecord.columns,
            from: "FROM notifications n WHERE n.user_id = $1" + (unreadOnly ? " AND n.read_at IS NULL" : ""),
            parameters: [viewer], keys: [("n.id", "bigint")], descending: true)
    }

    /// The viewer's notices after `id`, oldest first (what a subscriber missed).
    package static func after(_ id: Int64, for user: Int64, kinds: [String]?, on database: PostgresPool) async throws
        -> [NotificationRecord]
    {
        let rows = try await database.query(
            """
            SELECT \(NotificationRecord.columns) FROM notifications n
            WHERE n.user_id = $1 AND n.id > $2 AND ($3::text[] IS NULL OR n.kind = ANY($3::text[])) ORDER BY n.id LIMIT 1000
            """, [user, id, kinds])
        return try rows.map { try NotificationRecord(row: $0) }
    }
}
