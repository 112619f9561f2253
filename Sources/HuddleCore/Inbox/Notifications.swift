import HuddlePostgres
import HuddleRuntime

/// Writes a user's notice into their inbox in the caller's transaction and
/// announces its id with NOTIFY, which PostgreSQL delivers only if that
/// transaction commits; every server process listening passes it to its
/// own subscribers.
package enum Notifications {
    /// The channel of a user's inbox; payloads are `ID KIND`. A process
    /// listens on the channels its subscribers need, and PostgreSQL sends it
    /// only those.
    package static func channel(forUser user: Int64) -> String { "huddle_user_\(user)" }  // as `record(_:forEach:)` writes it in SQL

    /// A notice for `user` of `kind`, about `subject` (within `scope`), by `actor`.
    package static func record(
        _ kind: NotificationKind, for user: Int64, actor: Int64?, subject: NodeReference? = nil, scope: NodeReference? = nil,
        message: String = "", on connection: PostgresConnection
    ) async throws {
        _ = try await connection.query(
            single,
            [user, kind.rawValue, actor, subject?.type, subject?.id, scope?.type, scope?.id, message]
        )
    }

    /// The same notice for each of `users`, in one statement whatever
    /// their number (a round's end tells every follower).
    package static func record(
        _ kind: NotificationKind, forEach users: [Int64], actor: Int64?, subject: NodeReference? = nil, scope: NodeReference? = nil,
        message: String = "", on connection: PostgresConnection
    ) async throws {
        guard !users.isEmpty else { return }
        _ = try await connection.query(
            sameForEach,
            [users, kind.rawValue, actor, subject?.type, subject?.id, scope?.type, scope?.id, message]
        )
    }

    /// A notice for each recipient with a text of its own (a time written
    /// in each reader's zone), in one statement whatever their number.
    package static func record(
        _ kind: NotificationKind, messages: [(user: Int64, text: String)], actor: Int64?, subject: NodeReference? = nil,
        scope: NodeReference? = nil, on connection: PostgresConnection
    ) async throws {
        guard !messages.isEmpty else { return }
        _ = try await connection.query(
            eachItsOwn,
            [messages.map(\.user), kind.rawValue, actor, subject?.type, subject?.id, scope?.type, scope?.id, messages.map(\.text)]
        )
    }

    private static let single = recording(rows: "VALUES ($1, $2, $3, $4, $5, $6, $7, $8)")
    private static let sameForEach = recording(
        rows: "SELECT recipient, $2, $3, $4, $5, $6, $7, $8 FROM unnest($1::bigint[]) AS recipient")
    private static let eachItsOwn = recording(
        rows: "SELECT r.recipient, $2, $3, $4, $5, $6, $7, r.message FROM unnest($1::bigint[], $8::text[]) AS r (recipient, message)")

    /// The statement that inserts `rows` (user, kind `$2`, actor, subject,
    /// scope, message), queues their delivery outside the app, and
    /// announces each on its user's channel.
    private static func recording(rows: String) -> String {
        """
        WITH inserted AS (
            INSERT INTO notifications (user_id, kind, actor_id, subject_type, subject_id, scope_type, scope_id, message)
            \(rows) RETURNING id, user_id
        ), \(queueDelivery)
        SELECT count(pg_notify('huddle_user_' || user_id, id || ' ' || $2)) FROM inserted
        UNION ALL \(wakeScheduler)
        """
    }

    /// Queues the delivery outside the app (`NoticeDelivery`) of each notice
    /// `inserted` (of kind `$2`) whose user has a device registered or asked
    /// for the kind by mail (no kind is mailed by default), or of every
    /// notice when a webhook takes them; with the notice, so the two commit together.
    private static let queueDelivery = """
        queued AS (
            INSERT INTO scheduled_jobs (kind, subject_id, due_at)
            SELECT '\(NoticeDelivery.jobKind)', i.id, now() FROM inserted i
            WHERE EXISTS (SELECT 1 FROM push_endpoints e WHERE e.user_id = i.user_id)
               OR EXISTS (SELECT 1 FROM notice_preferences p WHERE p.user_id = i.user_id AND p.kind = $2 AND p.email)
               OR EXISTS (SELECT 1 FROM notice_webhook)
            RETURNING 1
        )
        """
    /// Wakes the schedulers when a delivery was queued (as `Scheduler.schedule` does).
    private static let wakeScheduler = """
        SELECT count(pg_notify('\(Scheduler.channel)', (extract(epoch FROM now()) * 1000)::bigint::text)) FROM (SELECT 1 FROM queued LIMIT 1) q
        """

    /// Each kind the shared core and `apps` record, with the one that records it.
    package static func kinds(mounting apps: [any App.Type]) -> [(kind: NotificationKind, app: String)] {
        ([Shared.self] + apps).flatMap { app in app.notificationKinds.map { ($0, app.schemaFolder) } }
    }

    /// Makes `notification_kinds` hold the kinds the mounted apps record
    /// (new ones added, each with its app), so that the database refuses a
    /// notice of a kind no app declares. A kind no longer declared goes
    /// once no notice of it remains.
    package static func register(_ kinds: [(kind: NotificationKind, app: String)], on connection: PostgresConnection) async throws {
        let names = kinds.map(\.kind.rawValue)
        _ = try await connection.query(
            """
            INSERT INTO notification_kinds (kind, app) SELECT * FROM unnest($1::text[], $2::text[])
            ON CONFLICT (kind) DO UPDATE SET app = EXCLUDED.app
            """, [names, kinds.map(\.app)])
        _ = try await connection.query(
            """
            DELETE FROM notification_kinds k WHERE NOT k.kind = ANY($1::text[])
              AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.kind = k.kind)
            """, [names])
    }
}

/// An object by type name and id, as the inbox refers to it.
package struct NodeReference: Sendable, Hashable {
    package var type: String
    package var id: Int64

    package init(_ type: String, _ id: Int64) {
        self.type = type
        self.id = id
    }
}
