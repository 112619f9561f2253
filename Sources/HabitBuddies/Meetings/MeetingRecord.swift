import Foundation
import HuddleCore
import HuddlePostgres

/// A row of `buddy_meetings`.
final class MeetingRecord: Identified {
    let id: Int64
    let organizerID: Int64
    let inviteeID: Int64
    let startsAt: Date
    let endsAt: Date
    let timeZone: String
    /// The start as wall-clock time in `timeZone`, `YYYY-MM-DDTHH:MM`.
    let localStart: String
    let durationMinutes: Int
    let description: String
    let status: String
    let createdAt: Date
    let updatedAt: Date

    /// When meeting `m` ends.
    static let end = "m.starts_at + m.duration_minutes * interval '1 minute'"

    /// Meeting `m` is proposed or accepted and has not ended. A meeting
    /// lasts `MeetingMutations.durations.upperBound` minutes at most (the
    /// table's check), so one that has not ended started less than that
    /// ago: that bound is what lets the indexes by person and start read
    /// only the meetings to come, where the end alone made them read all of
    /// a person's meetings ever.
    static let stillToCome = """
        m.status IN ('PROPOSED', 'ACCEPTED') AND m.starts_at > now() - interval '\(MeetingMutations.durations.upperBound) minutes' \
        AND \(end) > now()
        """

    /// The next meeting still to come of each person in $1 (ids), each row
    /// the meeting's columns and the person's id.
    static let nextOfEach = """
        SELECT \(columns), o.id FROM unnest($1::bigint[]) AS o(id)
        CROSS JOIN LATERAL (
            SELECT * FROM buddy_meetings m
            WHERE o.id IN (m.organizer_id, m.buddy_id) AND \(stillToCome)
            ORDER BY m.starts_at, m.id LIMIT 1
        ) m
        """

    /// The meetings of person $1, in order of start, past ones too if asked.
    static func list(of person: Int64, includingPast: Bool) -> KeysetQuery {
        // Two statements, not `$2 OR …`: a generic plan cannot know which
        // half holds, and planned for both it read every meeting.
        let which = includingPast ? "" : " AND \(stillToCome)"
        return KeysetQuery(
            columns: columns, from: "FROM buddy_meetings m WHERE $1 IN (m.organizer_id, m.buddy_id)\(which)",
            parameters: [person], keys: [("m.starts_at", "timestamptz"), ("m.id", "bigint")])
    }

    /// The columns `init(row:)` reads, in order.
    enum Column: Int, PostgresColumnList {
        case id, organizerID, inviteeID, startsAt, endsAt, timeZone, localStart, durationMinutes, description, status, createdAt, updatedAt

        var expression: String? {
            switch self {
            case .inviteeID: "m.buddy_id"
            case .endsAt: "\(end)"
            case .localStart: "to_char(m.starts_at AT TIME ZONE m.time_zone, 'YYYY-MM-DD\"T\"HH24:MI')"
            default: nil
            }
        }
    }
    static let selection = PostgresColumns<Column>(alias: "m")
    /// The select list, from `m`.
    static var columns: String { selection.list }

    init(row: PostgresRow) throws {
        let column = row.columns(Column.self)
        id = try column[.id]
        organizerID = try column[.organizerID]
        inviteeID = try column[.inviteeID]
        startsAt = try column[.startsAt]
        endsAt = try column[.endsAt]
        timeZone = try column[.timeZone]
        localStart = try column[.localStart]
        durationMinutes = try column[.durationMinutes]
        description = try column[.description]
        status = try column[.status]
        createdAt = try column[.createdAt]
        updatedAt = try column[.updatedAt]
    }

    /// The other person of the meeting, to `viewer`.
    func other(than viewer: Int64) -> Int64 { viewer == organizerID ? inviteeID : organizerID }
}

/// A row of `meeting_checklist_items`.
final class ChecklistItemRecord: Sendable {
    let meetingID: Int64
    let position: Int
    let text: String
    let checkedBy: Int64?
    let checkedAt: Date?

    /// The columns `init(row:)` reads, in order.
    enum Column: Int, PostgresColumnList {
        case meetingID, position, text, checkedBy, checkedAt
    }
    static let selection = PostgresColumns<Column>(alias: "i")
    /// The select list, from `i`.
    static var columns: String { selection.list }

    init(row: PostgresRow) throws {
        let column = row.columns(Column.self)
        meetingID = try column[.meetingID]
        position = try column[.position]
        text = try column[.text]
        checkedBy = try column[.checkedBy]
        checkedAt = try column[.checkedAt]
    }
}

/// A row of `buddy_scores`.
final class BuddyScoreRecord: Sendable {
    let meetingID: Int64
    let scorerID: Int64
    let scoredID: Int64
    let score: Int
    let comment: String
    let createdAt: Date

    /// The columns `init(row:)` reads, in order.
    enum Column: Int, PostgresColumnList {
        case meetingID, scorerID, scoredID, score, comment, createdAt
    }
    static let selection = PostgresColumns<Column>(alias: "s")
    /// The select list, from `s`.
    static var columns: String { selection.list }

    init(row: PostgresRow) throws {
        let column = row.columns(Column.self)
        meetingID = try column[.meetingID]
        scorerID = try column[.scorerID]
        scoredID = try column[.scoredID]
        score = try column[.score]
        comment = try column[.comment]
        createdAt = try column[.createdAt]
    }
}
