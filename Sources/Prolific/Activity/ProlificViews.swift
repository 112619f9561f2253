import HuddleCore

/// The reads Prolific counts: a project's page opened (`project(id:)`)
/// and a snippet opened (`snippet(id:)`), by anyone but its owner or author.
/// Other reads of them (lists, `node`, a subscription's event) are not views.
enum ProlificViews {
    static let historyDays = AppSetting(
        "view-history-days", default: 120, range: 91...3_650,
        help: "how long Prolific keeps its hourly counts of page and snippet views, in days (activity shows up to 90)")

    static let project = Tally(
        "project-views", statement: "SELECT prolific_add_project_views($1::bigint[], $2::bigint[], $3::integer[], $4::integer[])",
        prune: ("DELETE FROM project_view_hours WHERE hour < to_timestamp($1::bigint)", historyDays))
    static let snippet = Tally(
        "snippet-views", statement: "SELECT prolific_add_snippet_views($1::bigint[], $2::bigint[], $3::integer[], $4::integer[])",
        prune: ("DELETE FROM snippet_view_hours WHERE hour < to_timestamp($1::bigint)", historyDays))
}
