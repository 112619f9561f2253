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

    /// Meeting `m` is proposed or accepted and has not ended.
    static let stillToCome = "m.status IN ('PROPOSED', 'ACCEPTED') AND \(end) > now()"

    static let columns = """
        m.id, m.organizer_id, m.buddy_id, m.starts_at, \(end), m.time_zone,
        to_char(m.starts_at AT TIME ZONE m.time_zone, 'YYYY-MM-DD"T"HH24:MI'), m.duration_minutes, m.description, m.status,
        m.created_at, m.updated_at
        """

    init(row: PostgresRow) throws {
        id = try row.decode(at: 0)
        organizerID = try row.decode(at: 1)
        inviteeID = try row.decode(at: 2)
        startsAt = try row.decode(at: 3)
        endsAt = try row.decode(at: 4)
        timeZone = try row.decode(at: 5)
        localStart = try row.decode(at: 6)
        durationMinutes = try row.decode(at: 7)
        description = try row.decode(at: 8)
        status = try row.decode(at: 9)
        createdAt = try row.decode(at: 10)
        updatedAt = try row.decode(at: 11)
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

    static let columns = "i.meeting_id, i.position, i.text, i.checked_by, i.checked_at"

    init(row: PostgresRow) throws {
        meetingID = try row.decode(at: 0)
        position = try row.decode(at: 1)
        text = try row.decode(at: 2)
        checkedBy = try row.decode(at: 3)
        checkedAt = try row.decode(at: 4)
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

    static let columns = "s.meeting_id, s.scorer_id, s.scored_id, s.score, s.comment, s.created_at"

    init(row: PostgresRow) throws {
        meetingID = try row.decode(at: 0)
        scorerID = try row.decode(at: 1)
        scoredID = try row.decode(at: 2)
        score = try row.decode(at: 3)
        comment = try row.decode(at: 4)
        createdAt = try row.decode(at: 5)
    }
}
