import GraphQL
import HuddleCore
import HuddlePostgres
import HuddleRuntime

/// Something that happened to a session, from its NOTIFY payload.
struct SessionEventRecord: SharedSourceEvent, Hashable {
    var kind: String
    var sessionID: Int64
    var actorID: Int64?
    /// The listener's number for the notification, the same for every
    /// subscriber of this process: they share one run of the event.
    var notification: UInt64

    /// The listener numbers each notification it hears once, so the
    /// number alone tells this event from every other (and is cheaper to
    /// look up, once per subscriber, than the whole record).
    var occurrence: SharingKey? { SharingKey(notification) }
}

/// A session's live events: players joining and leaving, its deletion.
/// Announced with NOTIFY in the transaction that makes the change, so a
/// subscriber on any server process hears only what committed.
enum SessionEvents {
    /// The channel of a session's events; payloads are `KIND ACTOR`.
    static func channel(forSession session: Int64) -> String { "huddle_session_\(session)" }

    enum Kind: String {
        case playerJoined = "PLAYER_JOINED"
        case playerLeft = "PLAYER_LEFT"
        case deleted = "DELETED"
    }

    /// Announces a change to a session, in the caller's transaction.
    static func announce(_ event: Kind, session: Int64, actor: Int64, on connection: PostgresConnection) async throws {
        _ = try await connection.query("SELECT pg_notify($1, $2)", [channel(forSession: session), "\(event.rawValue) \(actor)"])
    }

    static func bind(_ binder: inout SchemaBinder) {
        binder.builder.subscribe(
            "Subscription", "sessionUpdated",
            feed: { input in
                let context = input.request
                let sessionID = try input.id("sessionId", of: "SportsSession")
                _ = try await SessionResolvers.load(sessionID, on: context.database)
                // A feed: a subscriber waits with no task of its own, and an
                // event reaches all of a loop's subscribers in one job.
                return try await SubscriptionResolvers.feed(context, on: channel(forSession: sessionID)) { notification in
                    let parts = notification.payload.split(separator: " ")
                    guard let kind = parts.first else { return (nil, false) }
                    let record = SessionEventRecord(
                        kind: String(kind), sessionID: sessionID, actorID: parts.dropFirst().first.flatMap { Int64($0) },
                        notification: notification.sequence)
                    return (.object(record), kind == Kind.deleted.rawValue)
                }
            })
        binder.root("Subscription", "sessionUpdated") { input in SubscriptionResolvers.passThrough(input) }
        binder.field("SportsSessionEvent", "kind") { (event: SessionEventRecord) in .scalar(.enum(event.kind)) }
        binder.field("SportsSessionEvent", "sessionId") { (event: SessionEventRecord) in GlobalID.value("SportsSession", event.sessionID) }
        binder.field("SportsSessionEvent", "session") { (event: SessionEventRecord, input) in
            input.request.playmate.sessions.load(event.sessionID) { $0.map { .object($0) } ?? .null }
        }
        binder.field("SportsSessionEvent", "actor") { (event: SessionEventRecord, input) in
            guard let actor = event.actorID else { return .null }
            return input.request.loaders.users.load(actor) { $0.map { .object($0) } ?? .null }
        }
    }
}
