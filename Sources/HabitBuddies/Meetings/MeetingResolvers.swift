import Foundation
import GraphQL
import HuddleCore
import HuddlePostgres

/// Reading meetings: each visible to its two people only.
enum MeetingResolvers {
    /// The check-in template: what a meeting's checklist starts with.
    static let template = [
        "What did you get done since we last spoke?",
        "What got in the way?",
        "Which day went best, and why?",
        "What will you do differently this week?",
        "How can I help you stay on track?",
    ]
    static let templateDescription = "Weekly accountability check-in: go through the questions together, then score each other's week."

    static func bind(_ binder: inout SchemaBinder) {
        binder.root("Query", "checkInTemplate") { _ in .list(template.map { .scalar(.string($0)) }) }
        binder.bindConnection("MeetingConnection", edge: "MeetingEdge")
        binder.rootAsync("Query", "meetings") { input in
            let viewer = try input.request.signedIn()
            let page = try PageRequest(input)
            let query = MeetingRecord.list(of: viewer, includingPast: input.argument("includePast")?.boolValue ?? false)
            let connection = try await query.page(page, on: input.request.database) { try MeetingRecord(row: $0) }
            for edge in connection.edges {
                let meeting = edge.node as! MeetingRecord
                input.request.habitBuddies.meetings.prime(meeting.id, meeting)
            }
            return .object(connection)
        }

        binder.field("Meeting", "id") { (meeting: MeetingRecord) in GlobalID.value("Meeting", meeting.id) }
        func user(_ field: String, _ id: @escaping @Sendable (MeetingRecord, Int64) -> Int64) {
            binder.field("Meeting", field) { (meeting: MeetingRecord, input) in
                let viewer = input.request.viewer?.userID ?? 0
                return input.request.loaders.users(for: input.info).load(id(meeting, viewer)) { $0.map { .object($0) } ?? .null }
            }
        }
        user("organizer") { meeting, _ in meeting.organizerID }
        user("invitee") { meeting, _ in meeting.inviteeID }
        user("buddy") { meeting, viewer in meeting.other(than: viewer) }
        binder.field("Meeting", "startsAt") { (meeting: MeetingRecord) in Instant.value(meeting.startsAt) }
        binder.field("Meeting", "endsAt") { (meeting: MeetingRecord) in Instant.value(meeting.endsAt) }
        binder.field("Meeting", "timeZone") { (meeting: MeetingRecord) in .scalar(.string(meeting.timeZone)) }
        binder.field("Meeting", "localStart") { (meeting: MeetingRecord) in .scalar(.string(meeting.localStart)) }
        binder.field("Meeting", "durationMinutes") { (meeting: MeetingRecord) in .scalar(.int(meeting.durationMinutes)) }
        binder.field("Meeting", "description") { (meeting: MeetingRecord) in .scalar(.string(meeting.description)) }
        binder.field("Meeting", "status") { (meeting: MeetingRecord) in .scalar(.enum(meeting.status)) }
        binder.field("Meeting", "createdAt") { (meeting: MeetingRecord) in Instant.value(meeting.createdAt) }
        binder.field("Meeting", "checklist") { (meeting: MeetingRecord, input) in
            input.request.habitBuddies.checklists.load(meeting.id) { .list($0.map { .object($0) }) }
        }
        binder.field("Meeting", "scores") { (meeting: MeetingRecord, input) in
            input.request.habitBuddies.meetingScores.load(meeting.id) { .list($0.map { .object($0) }) }
        }
        binder.field("Meeting", "ics") { (meeting: MeetingRecord, input) in
            let loaders = input.request.habitBuddies
            let users = input.request.loaders.userNames
            return users.load(meeting.organizerID) { organizer in
                users.load(meeting.inviteeID) { invitee in
                    loaders.checklists.load(meeting.id) { items in
                        .scalar(
                            .string(
                                MeetingCalendar.ics(
                                    meeting, organizer: organizer?.username ?? "", invitee: invitee?.username ?? "",
                                    checklist: items.map(\.text))))
                    }
                }
            }
        }

        binder.field("ChecklistItem", "position") { (item: ChecklistItemRecord) in .scalar(.int(item.position)) }
        binder.field("ChecklistItem", "text") { (item: ChecklistItemRecord) in .scalar(.string(item.text)) }
        binder.field("ChecklistItem", "checked") { (item: ChecklistItemRecord) in .scalar(.boolean(item.checkedAt != nil)) }
        binder.field("ChecklistItem", "checkedAt") { (item: ChecklistItemRecord) in item.checkedAt.map(Instant.value) ?? .null }
        binder.field("ChecklistItem", "checkedBy") { (item: ChecklistItemRecord, input) in
            guard let id = item.checkedBy else { return .null }
            return input.request.loaders.users(for: input.info).load(id) { $0.map { .object($0) } ?? .null }
        }

        binder.field("BuddyScore", "meeting") { (score: BuddyScoreRecord, input) in
            input.request.habitBuddies.meetings.load(score.meetingID) { $0.map { .object($0) } ?? .null }
        }
        binder.field("BuddyScore", "scorer") { (score: BuddyScoreRecord, input) in
            input.request.loaders.users(for: input.info).load(score.scorerID) { $0.map { .object($0) } ?? .null }
        }
        binder.field("BuddyScore", "scored") { (score: BuddyScoreRecord, input) in
            input.request.loaders.users(for: input.info).load(score.scoredID) { $0.map { .object($0) } ?? .null }
        }
        binder.field("BuddyScore", "score") { (score: BuddyScoreRecord) in .scalar(.int(score.score)) }
        binder.field("BuddyScore", "comment") { (score: BuddyScoreRecord) in .scalar(.string(score.comment)) }
        binder.field("BuddyScore", "createdAt") { (score: BuddyScoreRecord) in Instant.value(score.createdAt) }
    }
}
