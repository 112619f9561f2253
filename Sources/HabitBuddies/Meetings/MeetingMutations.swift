import Formats
import Foundation
import GraphQL
import HuddleCore
import HuddlePostgres

/// Scheduling meetings between buddies and what happens in and after them.
/// Only its two people change a meeting; each change is a notice to the other.
enum MeetingMutations {
    static let durations = 5...30
    static let maxChecklistItems = 20
    static let maxChecklistText = 300
    static let maxDescription = 2000
    static let maxComment = 1000
    /// How long before its start a meeting's checklist can be ticked.
    static let checklistOpensMinutes = 15
    /// How many days ahead a meeting may be scheduled.
    static let horizonDays = 2 * 365

    static func bind(_ binder: inout SchemaBinder) {
        binder.rootAsync("Mutation", "scheduleMeeting", schedule)
        binder.rootAsync("Mutation", "respondToMeeting", respond)
        binder.rootAsync("Mutation", "cancelMeeting", cancel)
        binder.rootAsync("Mutation", "setChecklistItem", setChecklistItem)
        binder.rootAsync("Mutation", "scoreBuddy", score)
    }

    private static func schedule(_ input: ResolverInput) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let fields = input.argument("input") ?? .null
        let database = input.request.database
        let buddy = try GlobalID.id(of: "User", fields["buddyId"]?.stringValue ?? "", argument: "input.buddyId")
        let date = fields["date"]?.stringValue ?? ""
        // As far ahead as a Playmate session may be planned; the `Date`
        // scalar has checked it is a day.
        if let (year, month, day) = DateScalar.parse(date),
            GregorianCalendar.daysSinceEpoch(year: year, month: month, day: day) > Int(Date().timeIntervalSince1970 / 86_400) + horizonDays
        {
            throw APIError.badInput("\"input.date\" must be within two years.")
        }
        let time = try HabitMutations.requireTime(fields["time"]?.stringValue ?? "", argument: "input.time")
        let duration = fields["durationMinutes"]?.intValue ?? durations.upperBound
        guard durations.contains(duration) else {
            throw APIError.badInput(
                "A meeting lasts \(durations.lowerBound) to \(durations.upperBound) minutes; \(duration) is too \(duration > 30 ? "long" : "short")."
            )
        }
        let description = fields["description"]?.stringValue ?? MeetingResolvers.templateDescription
        guard description.count <= maxDescription else {
            throw APIError.badInput("\"description\" is at most \(maxDescription) characters.")
        }
        let checklist =
            try fields["checklist"]?.listValue.map { list in
                try list.map { item in
                    let text = (item.stringValue ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
                    guard (1...maxChecklistText).contains(text.count) else {
                        throw APIError.badInput("A checklist item is 1 to \(maxChecklistText) characters.")
                    }
                    return text
                }
            } ?? MeetingResolvers.template
        guard checklist.count <= maxChecklistItems else { throw APIError.badInput("A checklist has at most \(maxChecklistItems) items.") }
        let zone = try await fields["timeZone"]?.stringValue.asyncMap {
            try await HabitMutations.requireTimeZone($0, argument: "input.timeZone", on: database)
        }
        return try await HabitBuddiesErrors.translating {
            try await database.withTransaction { connection in
                guard buddy != viewer, try await BuddyResolvers.pair(of: viewer, and: buddy, on: connection) != nil else {
                    throw APIError.forbidden("Meetings are between buddies.")
                }
                let rows = try await connection.query(
                    """
                    INSERT INTO buddy_meetings AS m (organizer_id, buddy_id, starts_at, time_zone, duration_minutes, description)
                    SELECT $1, $2, ($3::date + $4::time) AT TIME ZONE z.zone, z.zone, $6, $7
                    FROM (SELECT coalesce($5::text, (SELECT time_zone FROM habit_profiles WHERE user_id = $1)) AS zone) z
                    RETURNING \(MeetingRecord.columns)
                    """, [viewer, buddy, date, time, zone, duration, description])
                let meeting = try MeetingRecord(row: rows[0])
                let id = meeting.id
                _ = try await connection.query(
                    "INSERT INTO meeting_checklist_items (meeting_id, position, text) SELECT $1, n, t FROM unnest($2::text[]) WITH ORDINALITY AS c(t, n)",
                    [id, checklist])
                try await Notifications.record(
                    .meetingScheduled, for: buddy, actor: viewer, subject: NodeReference("Meeting", id),
                    message:
                        "Your buddy proposed a check-in on \(meeting.localStart.replacingOccurrences(of: "T", with: " ")) (\(meeting.timeZone)).",
                    on: connection)
                return .object(meeting)
            }
        }
    }

    /// The viewer's meeting `id`, locked for the change, or NOT_FOUND.
    private static func locked(_ id: Int64, by viewer: Int64, on connection: PostgresConnection) async throws -> MeetingRecord {
        let rows = try await connection.query(
            "SELECT \(MeetingRecord.columns) FROM buddy_meetings m WHERE m.id = $1 AND $2 IN (m.organizer_id, m.buddy_id) FOR UPDATE",
            [id, viewer])
        guard let row = rows.first else { throw APIError.notFound("You have no meeting with that id.") }
        return try MeetingRecord(row: row)
    }

    private static func respond(_ input: ResolverInput) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let id = try input.id("id", of: "Meeting")
        let accept = input.argument("accept")?.boolValue ?? false
        let lead = input.request.settings[HabitBuddies.meetingReminderMinutes]
        return try await HabitBuddiesErrors.translating {
            try await input.request.database.withTransaction { connection in
                let meeting = try await locked(id, by: viewer, on: connection)
                guard meeting.inviteeID == viewer else { throw APIError.forbidden("Only the buddy who was asked answers a meeting.") }
                guard meeting.status == "PROPOSED" else {
                    throw APIError.badInput("This meeting was \(meeting.status.lowercased()) already.")
                }
                guard meeting.startsAt > Date() || !accept else { throw APIError.badInput("This meeting's time has passed.") }
                let answered = try await connection.query(
                    "UPDATE buddy_meetings m SET status = $2, updated_at = now() WHERE m.id = $1 RETURNING \(MeetingRecord.columns)",
                    [id, accept ? "ACCEPTED" : "DECLINED"])
                if accept {
                    try await MeetingReminder.schedule(meeting: id, startsAt: meeting.startsAt, leadMinutes: lead, on: connection)
                }
                try await Notifications.record(
                    accept ? .meetingAccepted : .meetingDeclined, for: meeting.organizerID, actor: viewer,
                    subject: NodeReference("Meeting", id),
                    message: accept ? "Your buddy accepted the check-in." : "Your buddy declined the check-in.", on: connection)
                return .object(try MeetingRecord(row: answered[0]))
            }
        }
    }

    private static func cancel(_ input: ResolverInput) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let id = try input.id("id", of: "Meeting")
        return try await HabitBuddiesErrors.translating {
            try await input.request.database.withTransaction { connection in
                let meeting = try await locked(id, by: viewer, on: connection)
                guard meeting.status == "PROPOSED" || meeting.status == "ACCEPTED" else {
                    throw APIError.badInput("This meeting was \(meeting.status.lowercased()) already.")
                }
                guard meeting.endsAt > Date() else { throw APIError.badInput("This meeting is over.") }
                let cancelled = try await connection.query(
                    """
                    UPDATE buddy_meetings m SET status = 'CANCELLED', cancelled_by = $2, updated_at = now() WHERE m.id = $1
                    RETURNING \(MeetingRecord.columns)
                    """, [id, viewer])
                try await MeetingReminder.cancel(meeting: id, on: connection)
                try await Notifications.record(
                    .meetingCancelled, for: meeting.other(than: viewer), actor: viewer, subject: NodeReference("Meeting", id),
                    message: "Your buddy cancelled the check-in.", on: connection)
                return .object(try MeetingRecord(row: cancelled[0]))
            }
        }
    }

    private static func setChecklistItem(_ input: ResolverInput) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let id = try input.id("meetingId", of: "Meeting")
        let position = input.int("position") ?? 0
        let checked = input.argument("checked")?.boolValue ?? false
        return try await input.request.database.withTransaction { connection in
            let meeting = try await locked(id, by: viewer, on: connection)
            guard meeting.status == "ACCEPTED" else { throw APIError.badInput("Only an accepted meeting's checklist is ticked.") }
            guard meeting.startsAt.addingTimeInterval(-Double(checklistOpensMinutes) * 60) <= Date() else {
                throw APIError.badInput("The checklist opens \(checklistOpensMinutes) minutes before the meeting.")
            }
            let rows = try await connection.query(
                """
                UPDATE meeting_checklist_items i SET checked_by = CASE WHEN $3 THEN $4::bigint END, checked_at = CASE WHEN $3 THEN now() END
                WHERE i.meeting_id = $1 AND i.position = $2 RETURNING \(ChecklistItemRecord.columns)
                """, [id, position, checked, viewer])
            guard let row = rows.first else { throw APIError.notFound("The checklist has no item \(position).") }
            return .object(try ChecklistItemRecord(row: row))
        }
    }

    private static func score(_ input: ResolverInput) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let id = try input.id("meetingId", of: "Meeting")
        let score = input.int("score") ?? 0
        let comment = input.string("comment") ?? ""
        guard (1...5).contains(score) else { throw APIError.badInput("A score is 1 to 5.") }
        guard comment.count <= maxComment else { throw APIError.badInput("A comment is at most \(maxComment) characters.") }
        return try await HabitBuddiesErrors.translating {
            try await input.request.database.withTransaction { connection in
                let meeting = try await locked(id, by: viewer, on: connection)
                guard meeting.status == "ACCEPTED", meeting.endsAt <= Date() else {
                    throw APIError.badInput("Scores are given after an accepted meeting has ended.")
                }
                let scored = meeting.other(than: viewer)
                let rows: PostgresRows
                do {
                    rows = try await connection.query(
                        """
                        INSERT INTO buddy_scores AS s (meeting_id, scorer_id, scored_id, score, comment) VALUES ($1, $2, $3, $4, $5)
                        RETURNING \(BuddyScoreRecord.columns)
                        """, [id, viewer, scored, score, comment])
                } catch let error as PostgresError where error.kind == .uniqueViolation {
                    throw APIError.badInput("You scored this meeting already.")
                }
                try await Notifications.record(
                    .buddyScored, for: scored, actor: viewer, subject: NodeReference("Meeting", id),
                    message: "Your buddy scored your week \(score) out of 5.", on: connection)
                return .object(try BuddyScoreRecord(row: rows[0]))
            }
        }
    }
}
