import GraphQL
import HuddleCore
import HuddlePostgres
import HuddleRuntime

/// Playmate: sports sessions near you, with friends and invitations.
package enum Playmate: App {
    package static let schemaFolder = "playmate"
    package static var schemaFiles: [(path: String, text: String)] { EmbeddedSchema.files }

    package static func bind(_ binder: inout SchemaBinder) {
        LocationResolvers.bind(&binder)
        SessionResolvers.bind(&binder)
        InvitationResolvers.bind(&binder)
        QuizResolvers.bind(&binder)
        StatisticsResolvers.bind(&binder)
        SuggestedSessions.bind(&binder)
        PlaymateInbox.bind(&binder)
        SessionEvents.bind(&binder)
    }

    package static let nodeTypes = [
        NodeType("SportsSession", SessionRecord.self) { id, context in
            context.playmate.sessions.load(id) { $0.map { .object($0, typename: "SportsSession") } ?? .null }
        },
        NodeType("Location", LocationRecord.self) { id, context in
            context.playmate.locations.load(id) { $0.map { .object($0, typename: "Location") } ?? .null }
        },
        // Visible to the two people concerned only.
        NodeType("Invitation", InvitationRecord.self) { id, context in
            guard let viewer = context.viewer?.userID else { return .null }
            return context.playmate.invitations.load(id) { invitation in
                guard let invitation, viewer == invitation.fromUser || viewer == invitation.toUser else { return .null }
                return .object(invitation, typename: "Invitation")
            }
        },
    ]

    package static let notificationKinds = PlaymateInbox.kinds
    package static let noticeStyles: [NotificationKind: NoticeStyle] = [
        .invitationReceived: NoticeStyle(title: "Playmate: you're invited"),
        .invitationAccepted: NoticeStyle(title: "Playmate", urgency: .low),
        .invitationDeclined: NoticeStyle(title: "Playmate", urgency: .low),
        .sessionDeleted: NoticeStyle(title: "Playmate: session called off", urgency: .high),
        .sessionReminder: .reminder("Playmate: your session starts soon"),
    ]

    package static let scheduledWork = [SessionReminder.work]

    package static let settings = [sessionReminderMinutes]

    static let sessionReminderMinutes = AppSetting(
        "session-reminder-minutes", default: 60, range: 0...10_080,
        help: "Playmate: minutes before a session its players are reminded (0: no reminders)")

    package static func seed(_ scale: DemoScale, users: Int, on connection: PostgresConnection) async throws -> String? {
        try await PlaymateDemoData.seed(scale, users: users, on: connection)
    }

    /// The sessions the user made and joined, the invitations they sent and
    /// got, and their quiz answers.
    package static func exportData(of user: Int64, on connection: PostgresConnection) async throws -> String? {
        try await connection.query(
            """
            SELECT jsonb_build_object(
              'sessionsCreated', (SELECT coalesce(jsonb_agg(to_jsonb(s) ORDER BY s.id), '[]') FROM sports_sessions s WHERE s.creator_id = $1),
              'sessionsJoined', (SELECT coalesce(jsonb_agg(to_jsonb(p) ORDER BY p.session_id), '[]') FROM session_players p
                                 WHERE p.user_id = $1),
              'invitations', (SELECT coalesce(jsonb_agg(to_jsonb(i) ORDER BY i.id), '[]') FROM invitations i
                              WHERE $1 IN (i.from_user, i.to_user)),
              'quiz', (SELECT to_jsonb(q) FROM quiz_results q WHERE q.user_id = $1)
            )::text
            """, [user])[0].decode(String.self, at: 0)
    }

    /// The sessions the user made that are still to come are cancelled, and
    /// their players told; the past ones go with the account. The places
    /// they held in others' sessions are freed (their rows go with it).
    package static func prepareDeletion(of user: Int64, on connection: PostgresConnection) async throws {
        let sessions = try await connection.query(
            "SELECT id, occurs_at > now() FROM sports_sessions WHERE creator_id = $1 ORDER BY id FOR UPDATE", [user])
        for row in sessions {
            let session = try row.decode(Int64.self, at: 0)
            if try row.decode(Bool.self, at: 1) {
                try await SessionResolvers.cancel(session, by: user, creatorLeaves: true, on: connection)
            } else {
                try await SessionReminder.cancel(session: session, on: connection)
            }
        }
        let joined = try await connection.query(
            """
            SELECT p.session_id FROM session_players p JOIN sports_sessions s ON s.id = p.session_id
            WHERE p.user_id = $1 AND s.creator_id <> $1 AND s.occurs_at > now()
            """, [user])
        for row in joined {
            try await SessionEvents.announce(.playerLeft, session: try row.decode(Int64.self, at: 0), actor: user, on: connection)
        }
    }
}

/// Playmate's batching loaders of one operation.
final class PlaymateLoaders: RequestLoaders {
    private enum Slot: Int, CaseIterable {
        case locations, sessions, viewerSessions, statistics, invitations
    }
    private let slots = LoaderSlots<Slot>()
    private let database: PostgresPool
    private let viewer: LoaderViewer
    /// Read by the loaders whose rows depend on who asks, when they are made.
    private var viewerID: Int64? { viewer.userID }

    init(database: PostgresPool, viewer: LoaderViewer, shared: Loaders) {
        self.database = database
        self.viewer = viewer
    }

    var locations: DataLoader<Int64, LocationRecord?> {
        slots.loader(.locations) {
            Loaders.byID(database, LocationRecord.columns, from: "locations", as: "l") { try LocationRecord(row: $0) }
        }
    }
    var sessions: DataLoader<Int64, SessionRecord?> {
        slots.loader(.sessions) {
            Loaders.byID(database, SessionRecord.columns, from: "sports_sessions", as: "s") { try SessionRecord(row: $0) }
        }
    }
    /// Whether the viewer plays in each session.
    var viewerSessions: DataLoader<Int64, Bool> {
        slots.loader(.viewerSessions) {
            Loaders.viewerSet(database, viewerID, in: "session_players", viewerColumn: "user_id", idColumn: "session_id")
        }
    }
    var statistics: DataLoader<Int64, UserStatistics> {
        slots.loader(.statistics) { [database] in DataLoader { ids in try await StatisticsResolvers.load(ids, on: database) } }
    }
    var invitations: DataLoader<Int64, InvitationRecord?> {
        slots.loader(.invitations) {
            Loaders.byID(database, InvitationRecord.columns, from: "invitations", as: "i") { try InvitationRecord(row: $0) }
        }
    }
}

extension RequestContext {
    /// The operation's Playmate loaders.
    var playmate: PlaymateLoaders { loaders(PlaymateLoaders.self) }
}
