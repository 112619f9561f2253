import GraphQL
import HuddleCore
import HuddlePostgres

extension NotificationKind {
    static let buddyMatched = NotificationKind(rawValue: "BUDDY_MATCHED")
    static let buddyScored = NotificationKind(rawValue: "BUDDY_SCORED")
    static let buddyLeft = NotificationKind(rawValue: "BUDDY_LEFT")
    static let meetingScheduled = NotificationKind(rawValue: "MEETING_SCHEDULED")
    static let meetingAccepted = NotificationKind(rawValue: "MEETING_ACCEPTED")
    static let meetingDeclined = NotificationKind(rawValue: "MEETING_DECLINED")
    static let meetingCancelled = NotificationKind(rawValue: "MEETING_CANCELLED")
    static let meetingReminder = NotificationKind(rawValue: "MEETING_REMINDER")
    static let habitReminder = NotificationKind(rawValue: "HABIT_REMINDER")
    static let habitMilestone = NotificationKind(rawValue: "HABIT_MILESTONE")
    static let buddyPending = NotificationKind(rawValue: "BUDDY_PENDING")
    static let buddyMessage = NotificationKind(rawValue: "BUDDY_MESSAGE")
}

/// A new buddy, as `buddyMatched` delivers it.
struct BuddyMatchEvent: Sendable {
    var buddyID: Int64
    var notice: NotificationRecord
}

/// A change to a meeting, as `meetingUpdated` delivers it.
struct MeetingUpdateEvent: Sendable {
    var meetingID: Int64
    var notice: NotificationRecord
}

/// Habit Buddies' part of the inbox: its notices, and the subscriptions
/// that deliver them live (the same inbox path as the other apps': NOTIFY
/// from whichever process made the change, caught up with `after`).
/// Reminders and milestones arrive through the shared `notificationReceived`.
enum HabitBuddiesInbox {
    static let meetingKinds: [NotificationKind] = [.meetingScheduled, .meetingAccepted, .meetingDeclined, .meetingCancelled]
    static let kinds: [NotificationKind] =
        [.buddyMatched, .buddyScored, .buddyLeft] + meetingKinds + [.meetingReminder, .habitReminder, .habitMilestone]
        + [.buddyPending, .buddyMessage]

    static func bind(_ binder: inout SchemaBinder) {
        binder.field("Notification", "habit") { (notice: NotificationRecord, input) in
            guard let habit = notice.reference(to: "Habit") else { return .null }
            return input.request.habitBuddies.habits.load(habit) { $0.map { .object($0) } ?? .null }
        }
        binder.field("Notification", "meeting") { (notice: NotificationRecord, input) in
            guard let meeting = notice.reference(to: "Meeting") else { return .null }
            return input.request.habitBuddies.meetings.load(meeting) { $0.map { .object($0) } ?? .null }
        }

        SubscriptionResolvers.inbox(&binder, "buddyMatched", kinds: [.buddyMatched]) { notice, _ in
            notice.reference(to: "User").map { BuddyMatchEvent(buddyID: $0, notice: notice) }
        }
        binder.field("BuddyMatch", "buddy") { (event: BuddyMatchEvent, input) in
            guard let viewer = input.request.viewer?.userID else { return .null }
            return input.request.habitBuddies.buddies.load(viewer) { buddies in
                // A pair already ended is still this notice's buddy, as of then.
                .object(
                    buddies.first { $0.userID == event.buddyID }
                        ?? BuddyRecord(pairID: 0, viewerID: viewer, userID: event.buddyID, since: event.notice.createdAt))
            }
        }
        binder.field("BuddyMatch", "notification") { (event: BuddyMatchEvent) in .object(event.notice) }

        SubscriptionResolvers.inbox(&binder, "meetingUpdated", kinds: meetingKinds) { notice, _ in
            notice.reference(to: "Meeting").map { MeetingUpdateEvent(meetingID: $0, notice: notice) }
        }
        binder.field("MeetingUpdate", "meeting") { (event: MeetingUpdateEvent, input) in
            input.request.habitBuddies.meetings.load(event.meetingID) { $0.map { .object($0) } ?? .null }
        }
        binder.field("MeetingUpdate", "kind") { (event: MeetingUpdateEvent) in .scalar(.enum(event.notice.kind)) }
        binder.field("MeetingUpdate", "notification") { (event: MeetingUpdateEvent) in .object(event.notice) }
    }
}
