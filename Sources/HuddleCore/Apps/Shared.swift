import GraphQL

/// What every app shares, mounted like an app: accounts and profiles,
/// friends, Relay connections, the inbox and its subscriptions.
package enum Shared: App {
    package static let schemaFolder = "shared"
    package static var schemaFiles: [(path: String, text: String)] { EmbeddedSchema.files }

    package static func bind(_ binder: inout SchemaBinder) {
        binder.bindPageInfo()
        AccountResolvers.bind(&binder)
        FriendResolvers.bind(&binder)
        NotificationResolvers.bind(&binder)
        SubscriptionResolvers.bind(&binder)
    }

    package static let nodeTypes = [
        NodeType("User", UserRecord.self) { id, context in
            context.loaders.users.load(id) { $0.map { .object($0, typename: "User") } ?? .null }
        },
        // Visible to the two people concerned only.
        NodeType("FriendRequest", FriendRequestRecord.self) { id, context in
            guard let viewer = context.viewer?.userID else { return .null }
            return context.loaders.friendRequests.load(id) { request in
                guard let request, viewer == request.fromUser || viewer == request.toUser else { return .null }
                return .object(request, typename: "FriendRequest")
            }
        },
    ]

    package static let notificationKinds: [NotificationKind] = [.friendRequestReceived, .friendRequestAccepted]
}

extension NotificationKind {
    package static let friendRequestReceived = NotificationKind(rawValue: "FRIEND_REQUEST_RECEIVED")
    package static let friendRequestAccepted = NotificationKind(rawValue: "FRIEND_REQUEST_ACCEPTED")
}
