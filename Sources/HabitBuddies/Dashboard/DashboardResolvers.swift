import Foundation
import GraphQL
import HuddleCore
import HuddlePostgres

/// The dashboard of the signed-in user.
struct DashboardRecord: Sendable {
    var userID: Int64
}

/// The dashboard: the profile, habits with progress, buddies and the next
/// meeting, each one statement through the loaders (the buddies' habits and
/// their progress one more, whatever the number of buddies).
enum DashboardResolvers {
    static func bind(_ binder: inout SchemaBinder) {
        binder.root("Query", "habitDashboard") { input in .object(DashboardRecord(userID: try input.request.signedIn())) }
        binder.field("HabitDashboard", "profile") { (dashboard: DashboardRecord, input) in
            input.request.habitBuddies.profiles.load(dashboard.userID) { $0.map { .object($0) } ?? .null }
        }
        binder.field("HabitDashboard", "habits") { (dashboard: DashboardRecord, input) in
            input.request.habitBuddies.userHabits(for: input.info).load(dashboard.userID) { .list($0.map { .object($0) }) }
        }
        binder.field("HabitDashboard", "buddies") { (dashboard: DashboardRecord, input) in
            input.request.habitBuddies.buddies(for: input.info).load(dashboard.userID) { .list($0.map { .object($0) }) }
        }
        binder.field("HabitDashboard", "nextMeeting") { (dashboard: DashboardRecord, input) in
            input.request.habitBuddies.nextMeetings.load(dashboard.userID) { $0.map { .object($0) } ?? .null }
        }
    }
}
