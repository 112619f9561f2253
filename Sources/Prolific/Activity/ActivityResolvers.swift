import GraphQL
import HuddleCore
import HuddlePostgres

/// A project's activity for its owner and a writer's for themself, and
/// the views that feed them.
enum ActivityResolvers {
    static func bind(_ binder: inout SchemaBinder) {
        binder.field("Project", "activity") { (project: ProjectRecord, input) in
            let days = try ActivityReads.days(input)
            guard let viewer = input.request.viewer?.userID, viewer == project.ownerID else { return .null }
            return input.request.prolific.projectActivity.load(ProjectActivityAsk(project: project.id, days: days)) {
                .list($0.map { .object($0) })
            }
        }
        binder.field("User", "writerActivity") { (user: UserRecord, input) in
            let days = try ActivityReads.days(input)
            guard input.request.viewer?.userID == user.id else { return .null }
            return input.request.prolific.writerActivity.load(days) { .list($0.map { .object($0) }) }
        }
        for type in ["ProjectActivityDay", "WriterActivityDay"] {
            binder.field(type, "day") { (day: ActivityDay) in .scalar(.string(day.day)) }
            binder.field(type, "snippetViews") { (day: ActivityDay) in .scalar(.int(day.snippetViews)) }
            binder.field(type, type == "ProjectActivityDay" ? "votes" : "votesReceived") { (day: ActivityDay) in .scalar(.int(day.votes)) }
            binder.field(type, type == "ProjectActivityDay" ? "snippets" : "snippetsWritten") { (day: ActivityDay) in
                .scalar(.int(day.snippets))
            }
        }
        binder.field("ProjectActivityDay", "views") { (day: ActivityDay) in .scalar(.int(day.views)) }
        binder.field("WriterActivityDay", "projectViews") { (day: ActivityDay) in .scalar(.int(day.views)) }
    }

    /// A project's page was opened: a view, unless by its owner.
    static func viewed(_ project: ProjectRecord, _ context: RequestContext) {
        guard context.viewer?.userID != project.ownerID else { return }
        context.count(ProlificViews.project, key: project.id)
    }

    /// A snippet was opened: a view, unless by its author.
    static func viewed(_ snippet: SnippetRecord, _ context: RequestContext) {
        guard context.viewer?.userID != snippet.authorID else { return }
        context.count(ProlificViews.snippet, key: snippet.id)
    }
}
