import HuddleRuntime

/// Writes a user's notice into their inbox in the caller's transaction and
/// announces its id with NOTIFY, which PostgreSQL delivers only if that
/// transaction commits; every server process listening passes it to its
/// own subscribers.
enum Notifications {
    /// The channel of a user's inbox; payloads are `ID KIND`. A process
    /// listens on the channels its subscribers need, and PostgreSQL sends it
    /// only those.
    static func channel(forUser user: Int64) -> String { "huddle_user_\(user)" }

    /// The channel of a session's events; payloads are `KIND ACTOR`.
    static func channel(forSession session: Int64) -> String { "huddle_session_\(session)" }

    enum SessionEvent: String {
        case playerJoined = "PLAYER_JOINED"
        case playerLeft = "PLAYER_LEFT"
        case deleted = "DELETED"
    }

    /// Announces a change to a session, in the caller's transaction.
    static func announce(_ event: SessionEvent, session: Int64, actor: Int64, on connection: PostgresConnection) async throws {
        _ = try await connection.query("SELECT pg_notify($1, $2)", [channel(forSession: session), "\(event.rawValue) \(actor)"])
    }

    enum Kind: String {
        case friendRequestReceived = "FRIEND_REQUEST_RECEIVED"
        case friendRequestAccepted = "FRIEND_REQUEST_ACCEPTED"
        case invitationReceived = "INVITATION_RECEIVED"
        case invitationAccepted = "INVITATION_ACCEPTED"
        case invitationDeclined = "INVITATION_DECLINED"
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
        let id = try rows[0].decode(Int64.self, at: 0)
        _ = try await connection.query("SELECT pg_notify($1, $2)", [channel(forUser: user), "\(id) \(kind.rawValue)"])
    }
}
