import GraphQL
import HuddleCore
import HuddlePostgres
import HuddleRuntime

/// Habit Buddies: habits formed with accountability buddies.
package enum HabitBuddies: App {
    package static let schemaFolder = "habitbuddies"
    package static var schemaFiles: [(path: String, text: String)] { EmbeddedSchema.files }

    package static func bind(_ binder: inout SchemaBinder) {
        HabitResolvers.bind(&binder)
        HabitMutations.bind(&binder)
        ProgressResolvers.bind(&binder)
        DashboardResolvers.bind(&binder)
        BuddyResolvers.bind(&binder)
        BuddyCandidates.bind(&binder)
        MeetingResolvers.bind(&binder)
        MeetingMutations.bind(&binder)
        BuddyChat.bind(&binder)
        HabitBuddiesInbox.bind(&binder)
    }

    // The loaders read only what the viewer may see: a habit is its
    // owner's and their buddies', a meeting its two people's.
    package static let nodeTypes = [
        NodeType("Habit", HabitRecord.self) { id, context in
            context.habitBuddies.habits.load(id) { $0.map { .object($0, typename: "Habit") } ?? .null }
        },
        NodeType("Meeting", MeetingRecord.self) { id, context in
            context.habitBuddies.meetings.load(id) { $0.map { .object($0, typename: "Meeting") } ?? .null }
        },
    ]

    package static let notificationKinds = HabitBuddiesInbox.kinds
    package static let noticeStyles: [NotificationKind: NoticeStyle] = [
        .buddyMatched: NoticeStyle(title: "Habit Buddies: you have a buddy"),
        .buddyPending: NoticeStyle(title: "Habit Buddies: it's a match"),
        .buddyMessage: NoticeStyle(title: "Habit Buddies: a message", urgency: .high),
        .buddyScored: NoticeStyle(title: "Habit Buddies", urgency: .low, promotional: true),
        .buddyLeft: NoticeStyle(title: "Habit Buddies"),
        .meetingScheduled: NoticeStyle(title: "Habit Buddies: a check-in was proposed"),
        .meetingAccepted: NoticeStyle(title: "Habit Buddies", urgency: .low),
        .meetingDeclined: NoticeStyle(title: "Habit Buddies", urgency: .low),
        .meetingCancelled: NoticeStyle(title: "Habit Buddies: check-in cancelled"),
        .meetingReminder: .reminder("Habit Buddies: check-in soon"),
        .habitReminder: .reminder("Habit Buddies: time for your habit"),
        .habitMilestone: NoticeStyle(title: "Habit Buddies: milestone!"),
    ]

    package static let scheduledWork = [HabitReminder.work, MeetingReminder.work]

    package static let settings = [maxBuddies, meetingReminderMinutes, chatBeforePairing]

    /// Whether two right swipes make a match to chat in, paired only when both confirm.
    static let chatBeforePairing = AppSetting(
        "chat-before-pairing", default: 0, range: 0...1,
        help: "Habit Buddies: 1 makes two right swipes a match to chat in, buddies once both confirm; 0 pairs them at once")
    /// The cap on buddies per user, which the database applies too (its first migration's `huddle.max_buddies`).
    static let maxBuddies = AppSetting(
        "max-buddies", default: 3, range: 1...50, help: "Habit Buddies: the most buddies one user may have")
    static let meetingReminderMinutes = AppSetting(
        "meeting-reminder-minutes", default: 15, range: 1...1440, help: "Habit Buddies: minutes before a meeting its people are reminded")

    package static func seed(_ scale: DemoScale, users: Int, on connection: PostgresConnection) async throws -> String? {
        try await HabitBuddiesDemoData.seed(scale, users: users, on: connection)
    }

    /// Their profile, habits with check-ins and milestones, buddies,
    /// swipes, meetings and the scores they gave and got.
    package static func exportData(of user: Int64, on connection: PostgresConnection) async throws -> String? {
        try await connection.query(
            """
            SELECT jsonb_build_object(
              'profile', (SELECT to_jsonb(p) FROM habit_profiles p WHERE p.user_id = $1),
              'habits', (SELECT coalesce(jsonb_agg(to_jsonb(h) || jsonb_build_object(
                           'checkIns', (SELECT coalesce(jsonb_agg(to_jsonb(c) - 'habit_id'), '[]') FROM habit_check_ins c WHERE c.habit_id = h.id),
                           'milestones', (SELECT coalesce(jsonb_agg(to_jsonb(m) - 'habit_id'), '[]') FROM habit_milestones m
                                          WHERE m.habit_id = h.id)) ORDER BY h.id), '[]')
                         FROM habits h WHERE h.user_id = $1),
              'buddies', (SELECT coalesce(jsonb_agg(to_jsonb(b) ORDER BY b.id), '[]') FROM buddy_pairs b WHERE $1 IN (b.first_id, b.second_id)),
              'swipes', (SELECT coalesce(jsonb_agg(to_jsonb(s)), '[]') FROM buddy_swipes s WHERE s.user_id = $1),
              'meetings', (SELECT coalesce(jsonb_agg(to_jsonb(m) ORDER BY m.id), '[]') FROM buddy_meetings m
                           WHERE $1 IN (m.organizer_id, m.buddy_id)),
              'scores', (SELECT coalesce(jsonb_agg(to_jsonb(s) ORDER BY s.created_at), '[]') FROM buddy_scores s
                         WHERE $1 IN (s.scorer_id, s.scored_id)),
              'matches', (SELECT coalesce(jsonb_agg(to_jsonb(b) ORDER BY b.matched_at), '[]') FROM buddy_matches b
                          WHERE $1 IN (b.first_id, b.second_id)),
              'messages', (SELECT coalesce(jsonb_agg(to_jsonb(m) ORDER BY m.id), '[]') FROM buddy_messages m
                           WHERE $1 IN (m.sender_id, m.recipient_id))
            )::text
            """, [user])[0].decode(String.self, at: 0)
    }

    /// Each of the user's pairs ends: the buddy is told, and their meetings
    /// still to come are cancelled (the rest go with the account).
    package static func prepareDeletion(of user: Int64, on connection: PostgresConnection) async throws {
        let buddies = try await connection.query(
            "SELECT CASE WHEN first_id = $1 THEN second_id ELSE first_id END FROM buddy_pairs WHERE $1 IN (first_id, second_id) ORDER BY 1",
            [user])
        for row in buddies {
            let buddy = try row.decode(Int64.self, at: 0)
            // Cancelled by no one: `cancelled_by` naming the account would be
            // set to null by the deletion's cascade, in an order that varies
            // with the database's trigger names, after the profile the
            // meeting's organizer refers to is gone (a foreign key error).
            _ = try await BuddyResolvers.end(user, buddy, because: "your buddy left Habit Buddies", leaving: true, on: connection)
            try await Notifications.record(.buddyLeft, for: buddy, actor: user, message: "Your buddy left Habit Buddies.", on: connection)
        }
    }
}

/// Habit Buddies' batching loaders of one operation.
final class HabitBuddiesLoaders: RequestLoaders {
    private enum Slot: Int, CaseIterable {
        case habits, progress, milestones, profiles, userHabits, userHabitsInFull, buddies, buddiesWithHabits, buddiesWithHabitsNamesOnly,
            meetings, checklists, meetingScores, completionRates, calendars, catalogue, pairScores, nextMeetings
    }
    private let slots = LoaderSlots<Slot>()
    private let database: PostgresPool
    private let viewer: LoaderViewer
    /// Read by the loaders whose rows depend on who asks, when they are made.
    private var viewerID: Int64? { viewer.userID }
    private let shared: Loaders

    init(database: PostgresPool, viewer: LoaderViewer, shared: Loaders) {
        self.database = database
        self.viewer = viewer
        self.shared = shared
    }

    var habits: DataLoader<Int64, HabitRecord?> {
        slots.loader(.habits) { [database, viewerID] in
            DataLoader { ids in
                let rows = try await database.query(
                    "SELECT \(HabitRecord.columns) \(HabitRecord.from) WHERE h.id = ANY($1::bigint[]) AND \(HabitRecord.visible(toViewerAt: 2))",
                    [ids, viewerID])
                return try Loaders.byID(ids, rows) { try HabitRecord(row: $0) }
            }
        }
    }
    var progress: DataLoader<Int64, HabitProgress> {
        slots.loader(.progress) { [database] in
            DataLoader<Int64, HabitProgress> { ids in
                var found: [Int64: HabitProgress] = [:]
                for row in try await database.query(
                    "SELECT \(HabitProgress.columns) FROM habits h JOIN habit_profiles p ON p.user_id = h.user_id WHERE h.id = ANY($1::bigint[])",
                    [ids])
                {
                    let progress = try HabitProgress(row: row)
                    found[progress.habitID] = progress
                }
                return ids.map { .success(found[$0] ?? HabitProgress(habitID: $0)) }
            }
        }
    }
    var milestones: DataLoader<Int64, [HabitMilestone]> {
        slots.loader(.milestones) { [database] in
            DataLoader<Int64, [HabitMilestone]> { ids in
                let rows = try await database.query(
                    "SELECT habit_id, days, reached_on::text FROM habit_milestones WHERE habit_id = ANY($1::bigint[]) ORDER BY habit_id, days",
                    [ids])
                return try Loaders.grouped(ids, rows) { row in
                    (try row.decode(Int64.self, at: 0), HabitMilestone(days: try row.decode(at: 1), reachedOn: try row.decode(at: 2)))
                }
            }
        }
    }
    // With the profile's user, primed into the shared loaders: a screen
    // that shows a profile (the dashboard) names its owner too, in its
    // next meeting, say, and would read them again.
    var profiles: DataLoader<Int64, HabitProfileRecord?> {
        slots.loader(.profiles) { [database, shared] in
            DataLoader { ids in
                var found: [Int64: HabitProfileRecord] = [:]
                for row in try await database.query(
                    """
                    SELECT \(HabitProfileRecord.columns), \(UserRecord.columns)
                    FROM habit_profiles p JOIN users u ON u.id = p.user_id WHERE p.user_id = ANY($1::bigint[])
                    """, [ids])
                {
                    let profile = try HabitProfileRecord(row: row)
                    shared.prime(try UserRecord(row: row, offset: HabitProfileRecord.columnCount))
                    found[profile.userID] = profile
                }
                return ids.map { .success(found[$0]) }
            }
        }
    }
    /// Users' active and paused habits with their progress, as the viewer
    /// may see them (empty for others); `userHabits(for:)` picks one.
    var userHabits: DataLoader<Int64, [HabitRecord]> {
        slots.loader(.userHabits) { Self.userHabits(database, viewerID: viewerID, progress: progress) }
    }
    /// The same, with each habit's 30-day completion and milestones read in the same statement.
    var userHabitsInFull: DataLoader<Int64, [HabitRecord]> {
        slots.loader(.userHabitsInFull) {
            Self.userHabits(
                database, viewerID: viewerID, progress: progress, inFull: (completionRates: completionRates, milestones: milestones))
        }
    }
    /// Users' buddies (the viewer's, keyed by the viewer: `isBuddy` reads them too).
    var buddies: DataLoader<Int64, [BuddyRecord]> {
        slots.loader(.buddies) { Self.buddies(database, viewerID: viewerID, shared: shared) }
    }
    /// The same, with the buddies' habits and progress read in the same statement (`buddies(for:)` picks one).
    var buddiesWithHabits: DataLoader<Int64, [BuddyRecord]> {
        slots.loader(.buddiesWithHabits) {
            Self.buddies(
                database, viewerID: viewerID, shared: shared, habits: (userHabits: userHabits, progress: progress, buddies: buddies))
        }
    }
    /// The same, the buddies read with their names only (`buddies(for:)` picks it).
    var buddiesWithHabitsNamesOnly: DataLoader<Int64, [BuddyRecord]> {
        slots.loader(.buddiesWithHabitsNamesOnly) {
            Self.buddies(
                database, viewerID: viewerID, shared: shared, namesOnly: true,
                habits: (userHabits: userHabits, progress: progress, buddies: buddies))
        }
    }
    var meetings: DataLoader<Int64, MeetingRecord?> {
        slots.loader(.meetings) { [database, viewerID] in
            DataLoader { ids in
                guard let viewerID else { return ids.map { _ in .success(nil) } }
                let rows = try await database.query(
                    "SELECT \(MeetingRecord.columns) FROM buddy_meetings m WHERE m.id = ANY($1::bigint[]) AND $2 IN (m.organizer_id, m.buddy_id)",
                    [ids, viewerID])
                return try Loaders.byID(ids, rows) { try MeetingRecord(row: $0) }
            }
        }
    }
    var checklists: DataLoader<Int64, [ChecklistItemRecord]> {
        slots.loader(.checklists) { [database] in
            DataLoader { ids in
                let rows = try await database.query(
                    "SELECT \(ChecklistItemRecord.columns) FROM meeting_checklist_items i WHERE i.meeting_id = ANY($1::bigint[]) ORDER BY i.meeting_id, i.position",
                    [ids])
                return try Loaders.grouped(ids, rows) { row in
                    let item = try ChecklistItemRecord(row: row)
                    return (item.meetingID, item)
                }
            }
        }
    }
    var meetingScores: DataLoader<Int64, [BuddyScoreRecord]> {
        slots.loader(.meetingScores) { [database] in
            DataLoader { ids in
                let rows = try await database.query(
                    "SELECT \(BuddyScoreRecord.columns) FROM buddy_scores s WHERE s.meeting_id = ANY($1::bigint[]) ORDER BY s.meeting_id, s.created_at",
                    [ids])
                return try Loaders.grouped(ids, rows) { row in
                    let score = try BuddyScoreRecord(row: row)
                    return (score.meetingID, score)
                }
            }
        }
    }
    var completionRates: DataLoader<HabitRange, Double> {
        slots.loader(.completionRates) { [database] in
            DataLoader<HabitRange, Double> { keys in
                let rows = try await database.query(
                    """
                    SELECT k.i, count(c.day)::int, greatest(0, k.last - k.first + 1)::int
                    FROM (
                        SELECT k.i, k.habit, greatest(coalesce(k.first, coalesce(k.last, t.today) - 29), h.started_on) AS first,
                               least(coalesce(k.last, t.today), t.today) AS last
                        FROM unnest($1::bigint[], $2::date[], $3::date[]) WITH ORDINALITY AS k(habit, first, last, i)
                        JOIN habits h ON h.id = k.habit JOIN habit_profiles p ON p.user_id = h.user_id,
                        LATERAL (SELECT (now() AT TIME ZONE p.time_zone)::date AS today) t
                    ) k
                    LEFT JOIN habit_check_ins c ON c.habit_id = k.habit AND c.day BETWEEN k.first AND k.last
                    GROUP BY k.i, k.first, k.last
                    """, [keys.map(\.habit), keys.map(\.from), keys.map(\.to)])
                var rates: [Int: Double] = [:]
                for row in rows {
                    let done = try row.decode(Int.self, at: 1), days = try row.decode(Int.self, at: 2)
                    rates[try row.decode(Int.self, at: 0) - 1] = HabitRange.rate(done: done, days: days)
                }
                return keys.indices.map { .success(rates[$0] ?? 0) }
            }
        }
    }
    var calendars: DataLoader<HabitMonth, [HabitDay]> {
        slots.loader(.calendars) { [database] in
            DataLoader { keys in
                let rows = try await database.query(
                    """
                    SELECT k.i, d.day::text, c.day IS NOT NULL, d.day > t.today, d.day < h.started_on
                    FROM unnest($1::bigint[], $2::date[]) WITH ORDINALITY AS k(habit, month, i)
                    JOIN habits h ON h.id = k.habit JOIN habit_profiles p ON p.user_id = h.user_id
                    CROSS JOIN LATERAL (SELECT (now() AT TIME ZONE p.time_zone)::date AS today) t
                    CROSS JOIN LATERAL (SELECT date_trunc('month', coalesce(k.month, t.today))::date AS first) m
                    CROSS JOIN LATERAL (SELECT generate_series(m.first, (m.first + interval '1 month' - interval '1 day')::date, interval '1 day')::date AS day) d
                    LEFT JOIN habit_check_ins c ON c.habit_id = k.habit AND c.day = d.day
                    ORDER BY k.i, d.day
                    """, [keys.map(\.habit), keys.map(\.month)])
                var days: [Int: [HabitDay]] = [:]
                for row in rows {
                    days[try row.decode(Int.self, at: 0) - 1, default: []].append(
                        HabitDay(
                            date: try row.decode(at: 1), done: try row.decode(at: 2), isFuture: try row.decode(at: 3),
                            isBeforeStart: try row.decode(at: 4)))
                }
                return keys.indices.map { .success(days[$0] ?? []) }
            }
        }
    }
    var catalogue: DataLoader<Int64, CatalogueHabitRecord?> {
        slots.loader(.catalogue) {
            Loaders.byID(database, CatalogueHabitRecord.columns, from: "habit_catalogue", as: "c") { try CatalogueHabitRecord(row: $0) }
        }
    }
    /// The scores between the viewer and each buddy (by the buddy's id), newest first.
    var pairScores: DataLoader<Int64, [BuddyScoreRecord]> {
        slots.loader(.pairScores) { [database, viewerID] in
            DataLoader { ids in
                guard let viewerID else { return ids.map { _ in .success([]) } }
                let rows = try await database.query(
                    """
                    SELECT \(BuddyScoreRecord.columns) FROM buddy_scores s
                    WHERE (s.scorer_id = $1 AND s.scored_id = ANY($2::bigint[])) OR (s.scored_id = $1 AND s.scorer_id = ANY($2::bigint[]))
                    ORDER BY s.created_at DESC, s.meeting_id DESC
                    """, [viewerID, ids])
                return try Loaders.grouped(ids, rows) { row in
                    let score = try BuddyScoreRecord(row: row)
                    return (score.scorerID == viewerID ? score.scoredID : score.scorerID, score)
                }
            }
        }
    }
    /// Each user's next proposed or accepted meeting that has not ended.
    var nextMeetings: DataLoader<Int64, MeetingRecord?> {
        slots.loader(.nextMeetings) { [database] in
            DataLoader { ids in
                let rows = try await database.query(MeetingRecord.nextOfEach, [ids])
                var found: [Int64: MeetingRecord] = [:]
                for row in rows { found[try row.decode(Int64.self, at: rows.columnCount - 1)] = try MeetingRecord(row: row) }
                return ids.map { .success(found[$0]) }
            }
        }
    }
}

extension RequestContext {
    /// The operation's Habit Buddies loaders.
    var habitBuddies: HabitBuddiesLoaders { loaders(HabitBuddiesLoaders.self) }
}

/// The database's refusals (its migrations' SQLSTATEs HB001-HB011 and the
/// meetings' exclusion constraint), as answers a client can act on. The
/// resolvers check what they can first; these are for writes that raced.
enum HabitBuddiesErrors {
    static func translate(_ error: any Error) -> any Error {
        guard let database = error as? PostgresError else { return error }
        switch database.sqlState {
        case "HB001": return APIError.badInput("You can form at most 3 habits at once: pause or archive one first.")
        case "HB002": return APIError.badInput("A check-in cannot be in the future.")
        case "HB003": return APIError.badInput("Only an active habit takes check-ins.")
        case "HB004": return APIError.badInput("A check-in cannot be before the habit's start.")
        case "HB005": return APIError.badInput("One of you already has as many buddies as allowed.")
        case "HB006": return APIError.forbidden("Meetings are between buddies.")
        case "HB007": return APIError.badInput("A meeting has to start in the future.")
        case "HB008": return APIError.badInput("This meeting can no longer change that way.")
        case "HB009": return APIError.badInput("A score is for your buddy, after an accepted meeting has ended.")
        case "HB010": return APIError.badInput("A habit stays with its owner.")
        case "HB011": return APIError.forbidden("Messages go only to someone you matched with or your buddy.")
        case "23P01": return APIError.badInput("One of you already has a meeting at that time.")
        default: return error
        }
    }

    /// Runs `body`, translating the database's refusals.
    static func translating<T>(_ body: () async throws -> T) async throws -> T {
        try await APIError.translating(translate, body)
    }
}
