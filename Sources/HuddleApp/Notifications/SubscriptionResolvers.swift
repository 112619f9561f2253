import Foundation
import GraphQL
import HuddleRuntime

/// Something that happened to a session, from its NOTIFY payload.
struct SessionEventRecord: Sendable {
    var kind: String
    var sessionID: Int64
    var actorID: Int64?
}

/// Live events. Each subscription listens on its own channel (the user's
/// inbox, or one session) through the process's one LISTEN connection, so
/// an event committed by any server process reaches every subscriber. Inbox
/// subscriptions read the notices after the last one they delivered on each
/// event, so one that was missed (the listener lost its connection and
/// reports the gap) is delivered with the next, and none twice.
enum SubscriptionResolvers {
    static func bind(_ binder: inout SchemaBinder) {
        inbox(&binder, "invitationReceived", kinds: ["INVITATION_RECEIVED"]) { notice, database in
            guard let id = notice.invitationID else { return nil }
            let rows = try await database.query("SELECT \(InvitationRecord.columns) FROM invitations i WHERE i.id = $1", [id])
            return try rows.first.map { try InvitationRecord(row: $0) }
        }
        inbox(&binder, "friendRequestReceived", kinds: ["FRIEND_REQUEST_RECEIVED"]) { notice, database in
            guard let id = notice.friendRequestID else { return nil }
            let rows = try await database.query("SELECT \(FriendRequestRecord.columns) FROM friend_requests r WHERE r.id = $1", [id])
            return try rows.first.map { try FriendRequestRecord(row: $0) }
        }
        inbox(&binder, "notificationReceived", kinds: nil) { notice, _ in notice }

        binder.builder.subscribe("Subscription", "sessionUpdated") { input in
            let context = input.request
            let sessionID = try input.id("sessionId", of: "SportsSession")
            _ = try await SessionResolvers.load(sessionID, on: context.database)
            let events = try await listen(context, on: Notifications.channel(forSession: sessionID))
            return AsyncThrowingStream { continuation in
                let task = Task(executorPreference: context.database.loop) {
                    for await event in events {
                        guard case .notification(let notification) = event else { continue }
                        let parts = notification.payload.split(separator: " ")
                        guard let kind = parts.first else { continue }
                        continuation.yield(.object(SessionEventRecord(
                            kind: String(kind), sessionID: sessionID, actorID: parts.dropFirst().first.flatMap { Int64($0) })))
                        if kind == "DELETED" { break }
                    }
                    continuation.finish()
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }
        binder.root("Subscription", "sessionUpdated") { input in passThrough(input) }
        binder.field("SportsSessionEvent", "kind") { (event: SessionEventRecord) in .scalar(.enum(event.kind)) }
        binder.field("SportsSessionEvent", "sessionId") { (event: SessionEventRecord) in GlobalID.value("SportsSession", event.sessionID) }
        binder.field("SportsSessionEvent", "session") { (event: SessionEventRecord, input) in
            input.request.loaders.sessions.load(event.sessionID) { $0.map { .object($0) } ?? .null }
        }
        binder.field("SportsSessionEvent", "actor") { (event: SessionEventRecord, input) in
            guard let actor = event.actorID else { return .null }
            return input.request.loaders.users.load(actor) { $0.map { .object($0) } ?? .null }
        }
    }

    /// The event itself is the root field's value.
    private static func passThrough(_ input: ResolverInput) -> Resolved {
        guard case .object(let value) = input.parent else { return .null }
        return .object(value)
    }

    private static func listen(_ context: RequestContext, on channel: String) async throws -> AsyncStream<PostgresListener.Event> {
        guard let listener = context.listener else {
            throw GraphQLError(message: "Subscriptions are not available on this server.")
        }
        return try await listener.events(on: channel)
    }

    /// A subscription to the viewer's inbox, notices of `kinds` (all for
    /// nil) made into the field's value by `transform` (nil skips one).
    private static func inbox(
        _ binder: inout SchemaBinder, _ field: String, kinds: [String]?,
        transform: @escaping @Sendable (NotificationRecord, PostgresPool) async throws -> (any Sendable)?
    ) {
        binder.builder.subscribe("Subscription", field) { input in
            let context = input.request
            let viewer = try context.signedIn()
            let after = try input.string("after").map { try GlobalID.id(of: "Notification", $0, argument: "after") }
            let database = context.database
            // Listen first, then take the starting point: nothing falls between.
            let events = try await listen(context, on: Notifications.channel(forUser: viewer))
            var start = after ?? 0
            if after == nil {
                start = try await database.query(
                    "SELECT coalesce(max(id), 0) FROM notifications WHERE user_id = $1", [viewer])[0].decode(Int64.self, at: 0)
            }
            return AsyncThrowingStream { continuation in
                let task = Task(executorPreference: database.loop) { [start] in
                    var last = start
                    do {
                        func deliverNew() async throws {
                            for notice in try await NotificationResolvers.after(last, for: viewer, kinds: kinds, on: database) {
                                last = notice.id
                                if let value = try await transform(notice, database) { continuation.yield(.object(value)) }
                            }
                        }
                        if after != nil { try await deliverNew() }
                        for await _ in events { try await deliverNew() }
                        continuation.finish()
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }
        binder.root("Subscription", field) { input in passThrough(input) }
    }
}
