/// The weighted count of snippets, as SQL: a finished round's from
/// `snippet_results` (as it was counted), an open round's live from
/// `prolific_snippet_scores` (the formula, in migration 0009), in the
/// order that decides a winner: score, then voters, then the earlier
/// snippet.
enum SnippetCounting {
    /// Snippets matching `condition` (on `s`), each row `SnippetRecord.columns`
    /// then votes, score and whether it won, ranked within each round.
    static func ranked(where condition: String) -> String {
        """
        WITH chosen AS (SELECT s.id, s.round_id FROM snippets s WHERE \(condition)),
        live AS (
            SELECT * FROM prolific_snippet_scores(ARRAY(
                SELECT DISTINCT c.round_id FROM chosen c JOIN rounds r ON r.id = c.round_id WHERE r.completed_at IS NULL))
        )
        SELECT \(SnippetRecord.columns), coalesce(res.votes, live.votes, 0)::int, coalesce(res.score, live.score, 0)::float8,
               r.winner_id IS NOT DISTINCT FROM s.id
        FROM chosen c JOIN snippets s ON s.id = c.id JOIN rounds r ON r.id = s.round_id
        LEFT JOIN snippet_results res ON res.snippet_id = s.id
        LEFT JOIN live ON live.snippet_id = s.id
        ORDER BY s.round_id, 9 DESC, 8 DESC, s.created_at, s.id
        """
    }
}
