import GraphQL

/// `node(id:)`: any object by its global id, through the same loaders as
/// everything else.
enum NodeResolvers {
    static func bind(_ binder: inout SchemaBinder) {
        binder.root("Query", "node") { input in
            guard let id = GlobalID.decode(input.string("id") ?? "") else {
                throw APIError.badInput("\(input.string("id")?.debugDescription ?? "null") is not a valid id.")
            }
            let context = input.request
            switch id.type {
            case "User": return context.loaders.users.load(id.id) { $0.map { .object($0, typename: "User") } ?? .null }
            case "SportsSession":
                return context.loaders.sessions.load(id.id) { $0.map { .object($0, typename: "SportsSession") } ?? .null }
            case "Location":
                return context.loaders.locations.load(id.id) { $0.map { .object($0, typename: "Location") } ?? .null }
            // Requests and invitations are visible to the two people concerned only.
            case "FriendRequest":
                guard let viewer = context.viewer?.userID else { return .null }
                return context.loaders.friendRequests.load(id.id) { request in
                    guard let request, viewer == request.fromUser || viewer == request.toUser else { return .null }
                    return .object(request, typename: "FriendRequest")
                }
            case "Invitation":
                guard let viewer = context.viewer?.userID else { return .null }
                return context.loaders.invitations.load(id.id) { invitation in
                    guard let invitation, viewer == invitation.fromUser || viewer == invitation.toUser else { return .null }
                    return .object(invitation, typename: "Invitation")
                }
            default:
                return .null
            }
        }
        binder.builder.resolveType("Node") { parent, _ in
            guard case .object(let value) = parent else { return nil }
            switch value {
            case is UserRecord: return "User"
            case is SessionRecord: return "SportsSession"
            case is LocationRecord: return "Location"
            case is FriendRequestRecord: return "FriendRequest"
            case is InvitationRecord: return "Invitation"
            default: return nil
            }
        }
    }
}
