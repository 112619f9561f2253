import HuddleCore

/// The weighted count of snippets, as SQL: a finished round's from
/// `snippet_results` (as it was counted), an open round's live from
/// `prolific_snippet_scores` (the formula, in migration 0009), in the
/// order that decides a winner: score, then voters, then the earlier
/// snippet.
enum SnippetCounting {
    /// Where a ranked row's writer totals and its author's user columns start.
    static let writerOffset = 11
    static let userOffset = 15

    /// Snippets matching `condition` (on `s`, the ids as $1), ranked
    /// within each round, each row `SnippetRecord.columns`, then votes,
    /// score, whether it won and whether the viewer ($2) voted for it, then
    /// the author's karma, projects, snippets and wins, then the author
    /// (`UserRecord.columns`): what a page of snippets shows, in one statement.
    static func ranked(where condition: String) -> String {
        """
        WITH chosen AS (SELECT s.id, s.round_id FROM snippets s WHERE \(condition)),
        live AS (
            SELECT * FROM prolific_snippet_scores(ARRAY(
                SELECT DISTINCT c.round_id FROM chosen c JOIN rounds r ON r.id = c.round_id WHERE r.completed_at IS NULL))
        )
        SELECT \(SnippetRecord.columns), coalesce(res.votes, live.votes, 0)::int, coalesce(res.score, live.score, 0)::float8,
               r.winner_id IS NOT DISTINCT FROM s.id,
               EXISTS (SELECT 1 FROM votes v WHERE v.snippet_id = s.id AND v.voter_id = $2::bigint),
               coalesce(w.karma, 0), coalesce(w.projects_created, 0), coalesce(w.snippets_submitted, 0), coalesce(w.rounds_won, 0),
               \(UserRecord.columns)
        FROM chosen c JOIN snippets s ON s.id = c.id JOIN rounds r ON r.id = s.round_id
        JOIN users u ON u.id = s.author_id LEFT JOIN prolific_writers w ON w.user_id = s.author_id
        LEFT JOIN snippet_results res ON res.snippet_id = s.id
        LEFT JOIN live ON live.snippet_id = s.id
        ORDER BY s.round_id, 9 DESC, 8 DESC, s.created_at, s.id
        """
    }
}
