import Foundation
import GraphQL
import HuddlePostgres
import HuddleRuntime

/// A row of `friend_requests`.
package final class FriendRequestRecord: Identified {
    package let id: Int64
    package let fromUser: Int64
    package let toUser: Int64
    package let createdAt: Date

    /// The columns `init(row:)` reads, in order.
    package enum Column: Int, PostgresColumnList {
        case id, fromUser, toUser, createdAt
    }
    package static let selection = PostgresColumns<Column>(alias: "r")
    /// The select list, from `r`.
    package static var columns: String { selection.list }

    package init(row: PostgresRow) throws {
        let column = row.columns(Column.self)
        id = try column[.id]
        fromUser = try column[.fromUser]
        toUser = try column[.toUser]
        createdAt = try column[.createdAt]
    }
}

/// Friend requests, friendships and friend lists.
package enum FriendResolvers {
    package static func bind(_ binder: inout SchemaBinder) {
        binder.field("User", "isFriend") { (user: UserRecord, input) in
            input.request.loaders.viewerFriends.load(user.id) { .scalar(.boolean($0)) }
        }
        binder.field("User", "friendCount") { (user: UserRecord, input) in
            input.request.loaders.friendCounts.load(user.id) { .scalar(.int($0)) }
        }
        // A list of users' friend lists is one statement (each user's page
        // under a LATERAL join), not one per user; their counts another.
        binder.field("User", "friends") { (user: UserRecord, input) in
            let page = try PageRequest(input)
            let loaders = input.request.loaders
            return loaders.friendPages.load(OwnedPage(owner: user.id, page: page)) { connection in
                var connection = connection
                connection.totalCount = { loaders.friendCounts.load(user.id) { .scalar(.int($0)) } }
                return .object(connection)
            }
        }
        binder.bindConnection("UserConnection", edge: "UserEdge", totalCount: true)

        binder.field("FriendRequest", "id") { (request: FriendRequestRecord) in GlobalID.value("FriendRequest", request.id) }
        binder.field("FriendRequest", "from") { (request: FriendRequestRecord, input) in
            input.request.loaders.users.load(request.fromUser) { $0.map { .object($0) } ?? .null }
        }
        binder.field("FriendRequest", "to") { (request: FriendRequestRecord, input) in
            input.request.loaders.users.load(request.toUser) { $0.map { .object($0) } ?? .null }
        }
        binder.field("FriendRequest", "createdAt") { (request: FriendRequestRecord) in Instant.value(request.createdAt) }
        binder.bindConnection("FriendRequestConnection", edge: "FriendRequestEdge")

        for (field, column) in [("incomingFriendRequests", "to_user"), ("outgoingFriendRequests", "from_user")] {
            binder.root("Query", field) { input in
                let viewer = try input.request.signedIn()
                let page = try PageRequest(input)
                let database = input.request.database
                return .async {
                    let query = KeysetQuery(
                        columns: FriendRequestRecord.columns, from: "FROM friend_requests r WHERE r.\(column) = $1",
                        parameters: [viewer], keys: [("r.id", "bigint")], descending: true
                    )
                    return .object(try await query.page(page, on: database) { try FriendRequestRecord(row: $0) })
                }
            }
        }

        binder.rootAsync("Mutation", "sendFriendRequest", sendFriendRequest)
        binder.rootAsync("Mutation", "acceptFriendRequest", acceptFriendRequest)
        binder.rootAsync("Mutation", "denyFriendRequest") { input in
            try await withdraw(input, column: "to_user", noun: "sent to you")
        }
        binder.rootAsync("Mutation", "cancelFriendRequest") { input in
            try await withdraw(input, column: "from_user", noun: "you sent")
        }
        binder.rootAsync("Mutation", "removeFriend") { input in
            let viewer = try input.request.signedIn()
            let friend = try input.id("userId", of: "User")
            let rows = try await input.request.database.query(
                "DELETE FROM friendships WHERE (user_id = $1 AND friend_id = $2) OR (user_id = $2 AND friend_id = $1)",
                [viewer, friend]
            )
            guard rows.affectedRows > 0 else { throw APIError.notFound("You are not friends with that user.") }
            return .scalar(.string(input.string("userId")!))
        }
    }

    private static func sendFriendRequest(_ input: ResolverInput) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let target = try input.id("userId", of: "User")
        guard target != viewer else { throw APIError.badInput("You cannot befriend yourself.") }
        let database = input.request.database
        do {
            return try await database.withTransaction { connection in
                let names = try await connection.query(
                    "SELECT v.username FROM users t, users v WHERE t.id = $1 AND v.id = $2", [target, viewer])
                guard let name = try names.first?.decode(String.self, at: 0) else { throw APIError.notFound("No user has that id.") }
                let rows = try await connection.query(
                    "INSERT INTO friend_requests AS r (from_user, to_user) VALUES ($1, $2) RETURNING \(FriendRequestRecord.columns)",
                    [viewer, target]
                )
                let request = try FriendRequestRecord(row: rows[0])
                try await Notifications.record(
                    .friendRequestReceived, for: target, actor: viewer, subject: NodeReference("FriendRequest", request.id),
                    message: "\(name) sent you a friend request.", on: connection)
                return .object(request)
            }
        } catch let error as PostgresError where error.kind == .uniqueViolation {
            let rows = try await database.query(
                "SELECT from_user FROM friend_requests WHERE from_user = $1 AND to_user = $2", [target, viewer])
            throw rows.isEmpty
                ? APIError.badInput("You have sent this user a friend request already.")
                : APIError.badInput("This user has sent you a friend request already; accept it instead.")
        } catch let error as PostgresError where error.constraint == "friend_requests_not_friends" {
            throw APIError.badInput("You are friends already.")
        }
    }

    private static func acceptFriendRequest(_ input: ResolverInput) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let requestID = try input.id("requestId", of: "FriendRequest")
        return try await input.request.database.withTransaction { connection in
            let deleted = try await connection.query(
                "DELETE FROM friend_requests WHERE id = $1 AND to_user = $2 RETURNING from_user", [requestID, viewer])
            guard let row = deleted.first else {
                let exists = try await !connection.query("SELECT 1 FROM friend_requests WHERE id = $1", [requestID]).isEmpty
                throw exists
                    ? APIError.forbidden("Only its recipient can accept a friend request.")
                    : APIError.notFound("No friend request has that id.")
            }
            let friend = try row.decode(Int64.self, at: 0)
            _ = try await connection.query(
                "INSERT INTO friendships (user_id, friend_id) VALUES ($1, $2), ($2, $1) ON CONFLICT DO NOTHING", [viewer, friend])
            let name = try await connection.query("SELECT username FROM users WHERE id = $1", [viewer])[0].decode(String.self, at: 0)
            try await Notifications.record(
                .friendRequestAccepted, for: friend, actor: viewer, message: "\(name) accepted your friend request.", on: connection)
            let users = try await connection.query("SELECT \(UserRecord.columns) FROM users u WHERE u.id = $1", [friend])
            return .object(try UserRecord(row: users[0]))
        }
    }

    private static func withdraw(_ input: ResolverInput, column: String, noun: String) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let requestID = try input.id("requestId", of: "FriendRequest")
        let database = input.request.database
        let rows = try await database.query("DELETE FROM friend_requests WHERE id = $1 AND \(column) = $2", [requestID, viewer])
        guard rows.affectedRows > 0 else {
            let exists = try await !database.query("SELECT 1 FROM friend_requests WHERE id = $1", [requestID]).isEmpty
            throw exists ? APIError.forbidden("That is not a friend request \(noun).") : APIError.notFound("No friend request has that id.")
        }
        return .scalar(.string(input.string("requestId")!))
    }
}
