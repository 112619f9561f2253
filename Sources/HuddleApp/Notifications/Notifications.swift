import HuddleRuntime

/// Writes a user's notice into their inbox in the caller's transaction and
/// announces its id with NOTIFY, which PostgreSQL delivers only if that
/// transaction commits; every server process listening passes it to its
/// own subscribers.
enum Notifications {
    /// The channel every process listens on; payloads are inbox ids.
    static let channel = "huddle_notifications"

    enum Kind: String {
        case friendRequestReceived = "FRIEND_REQUEST_RECEIVED"
        case friendRequestAccepted = "FRIEND_REQUEST_ACCEPTED"
        case invitationReceived = "INVITATION_RECEIVED"
        case invitationAccepted = "INVITATION_ACCEPTED"
        case invitationDeclined = "INVITATION_DECLINED"
        case sessionUpdated = "SESSION_UPDATED"
        case sessionDeleted = "SESSION_DELETED"
    }

    static func record(
        _ kind: Kind, for user: Int64, actor: Int64?, session: Int64? = nil, invitation: Int64? = nil,
        friendRequest: Int64? = nil, message: String = "", on connection: PostgresConnection
    ) async throws {
        let rows = try await connection.query(
            """
            INSERT INTO notifications (user_id, kind, actor_id, session_id, invitation_id, friend_request_id, message)
            VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id
            """,
            [user, kind.rawValue, actor, session, invitation, friendRequest, message]
        )
        _ = try await connection.query("SELECT pg_notify($1, $2)", [channel, String(try rows[0].decode(Int64.self, at: 0))])
    }
}
