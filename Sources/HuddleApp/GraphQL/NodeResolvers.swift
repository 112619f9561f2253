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
            case "FriendRequest", "Invitation":
                // Visible to the two people concerned only.
                guard let viewer = context.viewer?.userID else { return .null }
                let table = id.type == "FriendRequest" ? "friend_requests r" : "invitations i"
                let columns = id.type == "FriendRequest" ? FriendRequestRecord.columns : InvitationRecord.columns
                let alias = id.type == "FriendRequest" ? "r" : "i"
                return .async {
                    let rows = try await context.database.query(
                        "SELECT \(columns) FROM \(table) WHERE \(alias).id = $1 AND $2 IN (\(alias).from_user, \(alias).to_user)",
                        [id.id, viewer])
                    guard let row = rows.first else { return .null }
                    return id.type == "FriendRequest"
                        ? .object(try FriendRequestRecord(row: row), typename: "FriendRequest")
                        : .object(try InvitationRecord(row: row), typename: "Invitation")
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
