import HuddleCore

/// The reads Prolific counts: a project's page opened (`project(id:)`)
/// and a snippet opened (`snippet(id:)`), by anyone but its owner or author.
/// Other reads of them (lists, `node`, a subscription's event) are not views.
enum ProlificViews {
    static let project = Tally(
        "project-views", statement: "SELECT prolific_add_project_views($1::bigint[], $2::bigint[], $3::integer[], $4::integer[])")
    static let snippet = Tally(
        "snippet-views", statement: "SELECT prolific_add_snippet_views($1::bigint[], $2::bigint[], $3::integer[], $4::integer[])")
}
