import GraphQL
import HuddleCore

extension NotificationKind {
    static let roundEnded = NotificationKind(rawValue: "ROUND_ENDED")
    static let snippetWon = NotificationKind(rawValue: "SNIPPET_WON")
    static let snippetVoted = NotificationKind(rawValue: "SNIPPET_VOTED")
    static let projectCompleted = NotificationKind(rawValue: "PROJECT_COMPLETED")
    static let projectInvitation = NotificationKind(rawValue: "PROJECT_INVITATION")
    static let writerStartedProject = NotificationKind(rawValue: "WRITER_STARTED_PROJECT")
}

/// Prolific's part of the inbox: a notice's project, round and snippet,
/// each only while the viewer may see it.
enum ProlificInbox {
    static let kinds: [NotificationKind] = [
        .roundEnded, .snippetWon, .snippetVoted, .projectCompleted, .projectInvitation, .writerStartedProject,
    ]

    static func bind(_ binder: inout SchemaBinder) {
        binder.field("Notification", "project") { (notice: NotificationRecord, input) in
            guard let project = notice.reference(to: "Project") else { return .null }
            return input.request.prolific.projects.load(project) { $0.map { .object($0) } ?? .null }
        }
        binder.field("Notification", "round") { (notice: NotificationRecord, input) in
            guard let round = notice.reference(to: "Round") else { return .null }
            return input.request.prolific.rounds.load(round) { $0.map { .object($0) } ?? .null }
        }
        binder.field("Notification", "snippet") { (notice: NotificationRecord, input) in
            guard let snippet = notice.reference(to: "Snippet") else { return .null }
            return input.request.prolific.snippets.load(snippet) { $0.map { .object($0) } ?? .null }
        }
    }
}
