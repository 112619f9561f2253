import GraphQL
import HuddleCore
import HuddleRuntime

extension NotificationKind {
    static let invitationReceived = NotificationKind(rawValue: "INVITATION_RECEIVED")
    static let invitationAccepted = NotificationKind(rawValue: "INVITATION_ACCEPTED")
    static let invitationDeclined = NotificationKind(rawValue: "INVITATION_DECLINED")
    static let sessionDeleted = NotificationKind(rawValue: "SESSION_DELETED")
}

/// Playmate's part of the inbox: a notice's session and invitation, and
/// invitations as they arrive.
enum PlaymateInbox {
    static let kinds: [NotificationKind] = [
        .invitationReceived, .invitationAccepted, .invitationDeclined, .sessionDeleted, .sessionReminder,
    ]

    static func bind(_ binder: inout SchemaBinder) {
        binder.field("Notification", "session") { (notice: NotificationRecord, input) in
            guard let session = notice.reference(to: "SportsSession") else { return .null }
            return input.request.playmate.sessions.load(session) { $0.map { .object($0) } ?? .null }
        }
        binder.field("Notification", "invitation") { (notice: NotificationRecord, input) in
            guard let invitation = notice.reference(to: "Invitation") else { return .null }
            return input.request.playmate.invitations.load(invitation) { $0.map { .object($0) } ?? .null }
        }
        SubscriptionResolvers.inbox(&binder, "invitationReceived", kinds: [.invitationReceived]) { notice, database in
            guard let id = notice.reference(to: "Invitation") else { return nil }
            let rows = try await database.query("SELECT \(InvitationRecord.columns) FROM invitations i WHERE i.id = $1", [id])
            return try rows.first.map { try InvitationRecord(row: $0) }
        }
    }
}
