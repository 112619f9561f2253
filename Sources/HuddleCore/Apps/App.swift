import GraphQL
import HuddlePostgres
import HuddleRuntime

/// One of the apps Huddle serves, as the shared core sees it: its part of
/// the schema (SDL and migrations), its resolvers, its `Node` types, the notices it puts in the
/// inbox and its demo data. The `huddle` executable lists the apps it
/// mounts; everything that spans apps (`node(id:)`, `Node`'s type
/// resolution, the notice kinds, seeding) is built from that list.
package protocol App: SendableMetatype {
    /// Its folder under `Schema/`, which holds its SDL and, in `migrations/`,
    /// its migrations (numbered on their own, run after the shared core's).
    static var schemaFolder: String { get }
    /// That folder as it was when the binary was built, by path relative
    /// to it: what the app's target embeds (`EmbeddedSchema.files`).
    static var schemaFiles: [(path: String, text: String)] { get }
    /// Binds the resolvers of its types and of its extensions of shared ones.
    static func bind(_ binder: inout SchemaBinder)
    /// Its object types that implement `Node`.
    static var nodeTypes: [NodeType] { get }
    /// The kinds of notice it records; `NotificationKind` in its SDL must list the same.
    static var notificationKinds: [NotificationKind] { get }
    /// How each of its kinds of notice goes out as a push.
    static var noticeStyles: [NotificationKind: NoticeStyle] { get }
    /// Adds its demo data in the seeding transaction, after the shared
    /// accounts (`users` of them, ids 1 through `users`) and friendships;
    /// returns what it added, for the summary (nil: nothing).
    static func seed(_ scale: DemoScale, users: Int, on connection: PostgresConnection) async throws -> String?
    /// The kinds of work it puts on the durable scheduler, and how each is done.
    static var scheduledWork: [ScheduledWork] { get }
    /// The settings it reads (`RequestContext.settings`), which operators set.
    static var settings: [AppSetting] { get }
    /// What it counts as people read (`RequestContext.count`), written in batches.
    static var tallies: [Tally] { get }
    /// Locks, in the deleting transaction but before the `users` row is
    /// locked, what `prepareDeletion` will change and the app's scheduled
    /// work locks before it writes about a user (a round being ended, which
    /// then notifies its writers): taken after the account's row, such a
    /// lock would wait for work that waits for that row, a deadlock.
    static func lockAheadOfDeletion(of user: Int64, on connection: PostgresConnection) async throws
    /// Readies `user`'s account for deletion, in the deleting transaction,
    /// before the `users` row goes (its foreign keys then remove or keep
    /// the rest): tells the people who depend on the user (a session's
    /// players, a buddy) and keeps what others own, or throws why the
    /// account cannot go yet (a shelter's last staff member).
    static func prepareDeletion(of user: Int64, on connection: PostgresConnection) async throws
    /// What `user` owns in the app, for their data export, as the text of a
    /// JSON object (nil: nothing to say); no secrets, not even hashed.
    static func exportData(of user: Int64, on connection: PostgresConnection) async throws -> String?
}

extension App {
    package static var noticeStyles: [NotificationKind: NoticeStyle] { [:] }
    package static func seed(_ scale: DemoScale, users: Int, on connection: PostgresConnection) async throws -> String? { nil }
    package static var scheduledWork: [ScheduledWork] { [] }
    package static var settings: [AppSetting] { [] }
    package static var tallies: [Tally] { [] }
    package static func lockAheadOfDeletion(of user: Int64, on connection: PostgresConnection) async throws {}
    package static func prepareDeletion(of user: Int64, on connection: PostgresConnection) async throws {}
    package static func exportData(of user: Int64, on connection: PostgresConnection) async throws -> String? { nil }
}

/// An object type that implements `Node`: how `node(id:)` loads one, and the
/// Swift type of its values (how `Node` resolves to it).
package struct NodeType: Sendable {
    package let typename: String
    package let valueType: ObjectIdentifier
    /// The node for an id, as the viewer may see it (null when not found or not theirs to see).
    package let load: @Sendable (Int64, RequestContext) -> Resolved

    package init<Value>(_ typename: String, _ valueType: Value.Type, load: @escaping @Sendable (Int64, RequestContext) -> Resolved) {
        self.typename = typename
        self.valueType = ObjectIdentifier(valueType)
        self.load = load
    }
}

/// A kind of notice in the inbox. The apps' lists are the one source: the
/// schema's `NotificationKind` enum is checked against them when the
/// schema is built, and the database's `notification_kinds` table (which
/// `notifications.kind` references) is filled from them when it is migrated.
package struct NotificationKind: RawRepresentable, Hashable, Sendable {
    package let rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }
}
