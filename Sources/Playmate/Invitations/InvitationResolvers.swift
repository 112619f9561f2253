import Foundation
import GraphQL
import HuddleCore
import HuddlePostgres
import HuddleRuntime

/// A row of `invitations`.
final class InvitationRecord: Identified {
    let id: Int64
    let sessionID: Int64
    let fromUser: Int64
    let toUser: Int64
    let status: String
    let createdAt: Date
    let answeredAt: Date?

    /// The columns `init(row:)` reads, in order.
    enum Column: Int, PostgresColumnList {
        case id, sessionID, fromUser, toUser, status, createdAt, answeredAt
    }
    static let selection = PostgresColumns<Column>(alias: "i")
    /// The select list, from `i`.
    static var columns: String { selection.list }

    init(row: PostgresRow) throws {
        let column = row.columns(Column.self)
        id = try column[.id]
        sessionID = try column[.sessionID]
        fromUser = try column[.fromUser]
        toUser = try column[.toUser]
        status = try column[.status]
        createdAt = try column[.createdAt]
        answeredAt = try column[.answeredAt]
    }
}

/// Inviting friends to sessions and answering invitations.
enum InvitationResolvers {
    static func bind(_ binder: inout SchemaBinder) {
        binder.field("Invitation", "id") { (invitation: InvitationRecord) in GlobalID.value("Invitation", invitation.id) }
        binder.field("Invitation", "status") { (invitation: InvitationRecord) in .scalar(.enum(invitation.status)) }
        binder.field("Invitation", "createdAt") { (invitation: InvitationRecord) in Instant.value(invitation.createdAt) }
        binder.field("Invitation", "answeredAt") { (invitation: InvitationRecord) in invitation.answeredAt.map(Instant.value) ?? .null }
        binder.field("Invitation", "session") { (invitation: InvitationRecord, input) in
            input.request.playmate.sessions.load(invitation.sessionID) { $0.map { .object($0) } ?? .null }
        }
        binder.field("Invitation", "from") { (invitation: InvitationRecord, input) in
            input.request.loaders.users.load(invitation.fromUser) { $0.map { .object($0) } ?? .null }
        }
        binder.field("Invitation", "to") { (invitation: InvitationRecord, input) in
            input.request.loaders.users.load(invitation.toUser) { $0.map { .object($0) } ?? .null }
        }
        binder.bindConnection("InvitationConnection", edge: "InvitationEdge")

        for (field, column) in [("receivedInvitations", "to_user"), ("sentInvitations", "from_user")] {
            binder.root("Query", field) { input in
                let viewer = try input.request.signedIn()
                let page = try PageRequest(input)
                let status = input.argument("status")?.enumValue
                let database = input.request.database
                return .async {
                    let query = KeysetQuery(
                        columns: InvitationRecord.columns,
                        from: "FROM invitations i WHERE i.\(column) = $1 AND ($2::text IS NULL OR i.status = $2::text)",
                        parameters: [viewer, status], keys: [("i.id", "bigint")], descending: true
                    )
                    return .object(try await query.page(page, on: database) { try InvitationRecord(row: $0) })
                }
            }
        }
        binder.rootAsync("Mutation", "inviteToSession", invite)
        binder.rootAsync("Mutation", "acceptInvitation") { input in try await answer(input, accept: true) }
        binder.rootAsync("Mutation", "declineInvitation") { input in try await answer(input, accept: false) }
    }

    private static func invite(_ input: ResolverInput) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let sessionID = try input.id("sessionId", of: "SportsSession")
        let invitee = try input.id("userId", of: "User")
        guard invitee != viewer else { throw APIError.badInput("You cannot invite yourself.") }
        return try await input.request.database.withTransaction { connection in
            let session = try await SessionResolvers.load(sessionID, on: connection)
            guard session.occursAt > Date() else { throw APIError.badInput("This session has started already.") }
            let membership = try await connection.query(
                """
                SELECT EXISTS (SELECT 1 FROM session_players WHERE session_id = $1 AND user_id = $2),
                       EXISTS (SELECT 1 FROM friendships WHERE user_id = $2 AND friend_id = $3),
                       EXISTS (SELECT 1 FROM session_players WHERE session_id = $1 AND user_id = $3)
                """, [sessionID, viewer, invitee])[0]
            guard try membership.decode(Bool.self, at: 0) else { throw APIError.forbidden("Only players of a session can invite to it.") }
            guard try membership.decode(Bool.self, at: 1) else { throw APIError.badInput("You can invite only your friends.") }
            guard try !membership.decode(Bool.self, at: 2) else { throw APIError.badInput("Your friend is in this session already.") }
            let rows: PostgresRows
            do {
                rows = try await connection.query(
                    "INSERT INTO invitations AS i (session_id, from_user, to_user) VALUES ($1, $2, $3) RETURNING \(InvitationRecord.columns)",
                    [sessionID, viewer, invitee])
            } catch let error as PostgresError where error.kind == .uniqueViolation {
                throw APIError.badInput("Your friend has been invited to this session already.")
            }
            let invitation = try InvitationRecord(row: rows[0])
            let (name, described) = try await describe(sessionID, by: viewer, on: connection)
            try await Notifications.record(
                .invitationReceived, for: invitee, actor: viewer,
                subject: NodeReference("Invitation", invitation.id), scope: NodeReference("SportsSession", sessionID),
                message: "\(name) invited you to \(described).", on: connection)
            return .object(invitation)
        }
    }

    private static func answer(_ input: ResolverInput, accept: Bool) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let invitationID = try input.id("invitationId", of: "Invitation")
        return try await input.request.database.withTransaction { connection in
            let rows = try await connection.query(
                "SELECT \(InvitationRecord.columns) FROM invitations i WHERE i.id = $1 FOR UPDATE", [invitationID])
            guard let row = rows.first else { throw APIError.notFound("No invitation has that id.") }
            let invitation = try InvitationRecord(row: row)
            guard invitation.toUser == viewer else { throw APIError.forbidden("Only the invited user can answer an invitation.") }
            guard invitation.status == "PENDING" else {
                throw APIError.badInput("This invitation was answered already (\(invitation.status.lowercased())).")
            }
            if accept { try await SessionResolvers.addPlayer(viewer, to: invitation.sessionID, on: connection) }
            let updated = try await connection.query(
                "UPDATE invitations AS i SET status = $2, answered_at = now() WHERE i.id = $1 RETURNING \(InvitationRecord.columns)",
                [invitationID, accept ? "ACCEPTED" : "DECLINED"])
            let (name, session) = try await describe(invitation.sessionID, by: viewer, on: connection)
            try await Notifications.record(
                accept ? .invitationAccepted : .invitationDeclined, for: invitation.fromUser, actor: viewer,
                subject: NodeReference("Invitation", invitationID), scope: NodeReference("SportsSession", invitation.sessionID),
                message: "\(name) \(accept ? "accepted" : "declined") your invitation to \(session).", on: connection)
            return .object(try InvitationRecord(row: updated[0]))
        }
    }

    /// The username of `user`, and the session as a notice names it: "a
    /// soccer session at Central Park" (the sport as people write it; the
    /// time is left to the session's own field, for the reader's clock).
    private static func describe(_ sessionID: Int64, by user: Int64, on connection: PostgresConnection) async throws -> (
        name: String, session: String
    ) {
        let rows = try await connection.query(
            """
            SELECT u.username, s.sport, l.name FROM users u, sports_sessions s JOIN locations l ON l.id = s.location_id
            WHERE u.id = $1 AND s.id = $2
            """, [user, sessionID])
        guard let row = rows.first else { throw APIError.notFound("No sports session has that id.") }
        let sport = SportName(try row.decode(String.self, at: 1))
        return (try row.decode(String.self, at: 0), "\(sport.withArticle) session at \(try row.decode(String.self, at: 2))")
    }
}
