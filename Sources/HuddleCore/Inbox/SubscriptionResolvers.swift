import Foundation
import GraphQL
import HuddlePostgres
import HuddleRuntime

/// Live events. Each subscription listens on its own channel (the user's
/// inbox, or an app's topic such as one session) through the process's one
/// LISTEN connection, so an event committed by any server process reaches
/// every subscriber. Inbox
/// subscriptions read the notices after the last one they delivered on each
/// event, so one that was missed (the listener lost its connection and
/// reports the gap) is delivered with the next, and none twice.
package enum SubscriptionResolvers {
    package static func bind(_ binder: inout SchemaBinder) {
        inbox(&binder, "friendRequestReceived", kinds: [.friendRequestReceived]) { notice, database in
            guard let id = notice.reference(to: "FriendRequest") else { return nil }
            let rows = try await database.query("SELECT \(FriendRequestRecord.columns) FROM friend_requests r WHERE r.id = $1", [id])
            return try rows.first.map { try FriendRequestRecord(row: $0) }
        }
        inbox(&binder, "notificationReceived", kinds: nil) { notice, _ in notice }
    }

    /// The event itself is the root field's value.
    package static func passThrough(_ input: ResolverInput) -> Resolved {
        guard case .object(let value) = input.parent else { return .null }
        return .object(value)
    }

    package static func listen(_ context: RequestContext, on channel: String) async throws -> AsyncStream<PostgresListener.Event> {
        guard let listener = context.listener else {
            throw GraphQLError(message: "Subscriptions are not available on this server.")
        }
        return try await listener.events(on: channel)
    }

    /// The notifications of `channel` as a subscription's source feed:
    /// `event` makes each into the subscription's event (nil skips it;
    /// `last` ends the subscription after it). Events are handed over on
    /// the subscriber's queue, one job per loop for all of its subscribers.
    package static func feed(
        _ context: RequestContext, on channel: String,
        _ event: @escaping @Sendable (PostgresNotification) -> (event: Parent?, last: Bool)
    ) async throws -> SourceEventFeed {
        guard let listener = context.listener else {
            throw GraphQLError(message: "Subscriptions are not available on this server.")
        }
        let notifications = try await listener.feed(on: channel)
        return SourceEventFeed(discard: { notifications.discard() }) { queue, deliver in
            let handler: @Sendable (PostgresListener.Event?) -> Void = { heard in
                switch heard {
                case nil: deliver(.end(nil))
                case .reconnected?: break
                case .notification(let notification)?:
                    let (made, last) = event(notification)
                    if let made { deliver(.event(made)) }
                    if last { deliver(.end(nil)) }
                }
            }
            guard let queue else { return notifications.start(on: nil, handler) }
            if let loop = queue.executor as? EventLoop { return notifications.start(on: loop, handler) }
            return notifications.start(on: nil) { heard in queue.async { handler(heard) } }
        }
    }

    /// A subscription to the viewer's inbox, notices of `kinds` (all for
    /// nil) made into the field's value by `transform` (nil skips one).
    package static func inbox(
        _ binder: inout SchemaBinder, _ field: String, kinds: [NotificationKind]?,
        transform: @escaping @Sendable (NotificationRecord, PostgresPool) async throws -> (any Sendable)?
    ) {
        binder.builder.subscribe("Subscription", field) { input in
            try await inboxEvents(input, kinds: kinds, transform: transform)
        }
        binder.root("Subscription", field) { input in passThrough(input) }
    }

    /// The events of an inbox subscription (`inbox`), for a field that
    /// follows the inbox only in some cases. Reads the field's `after`
    /// argument, a notification id: the notices after it come first.
    package static func inboxEvents(
        _ input: ResolverInput, kinds: [NotificationKind]?,
        transform: @escaping @Sendable (NotificationRecord, PostgresPool) async throws -> (any Sendable)?
    ) async throws -> AsyncThrowingStream<Parent, any Error> {
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
                        for notice in try await NotificationResolvers.after(
                            last, for: viewer, kinds: kinds?.map(\.rawValue), on: database)
                        {
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
}
