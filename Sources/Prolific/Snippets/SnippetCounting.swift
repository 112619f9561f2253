import HuddleCore
import HuddlePostgres

/// The weighted count of snippets: a finished round's from
/// `snippet_results` (as it was counted), an open round's live from
/// `prolific_snippet_scores` (the formula, in migration 0009), in the
/// order that decides a winner: score, then voters, then the earlier
/// snippet. Two statements, sent together: the snippets with what a page
/// shows of them, and the live count of the open rounds among them (one
/// statement joining both was planned afresh on every run and cost twice
/// as much).
enum SnippetCounting {
    /// Where a page row's writer totals and its author's user columns start.
    static let writerOffset = 11
    static let userOffset = 15

    /// Snippets matching `condition` (on `s`, its ids as $1), each row
    /// `SnippetRecord.columns`, then the finished count's votes and score
    /// (null while open), whether it won, whether the viewer ($2) voted
    /// for it, the author's karma, projects, snippets and wins, and the
    /// author (`UserRecord.columns`).
    static func page(where condition: String) -> String {
        """
        SELECT \(SnippetRecord.columns), res.votes, res.score, r.winner_id IS NOT DISTINCT FROM s.id,
               EXISTS (SELECT 1 FROM votes v WHERE v.snippet_id = s.id AND v.voter_id = $2::bigint),
               coalesce(w.karma, 0), coalesce(w.projects_created, 0), coalesce(w.snippets_submitted, 0), coalesce(w.rounds_won, 0),
               \(UserRecord.columns)
        FROM snippets s JOIN rounds r ON r.id = s.round_id JOIN users u ON u.id = s.author_id
        LEFT JOIN prolific_writers w ON w.user_id = s.author_id LEFT JOIN snippet_results res ON res.snippet_id = s.id
        WHERE \(condition)
        """
    }

    /// The live count (snippet, votes, score) of the open rounds that
    /// snippets matching `condition` (on `s`, its ids as $1) belong to.
    static func live(roundsOf condition: String) -> String {
        """
        SELECT c.snippet_id, c.votes, c.score FROM prolific_snippet_scores(ARRAY(
            SELECT DISTINCT s.round_id FROM snippets s JOIN rounds r ON r.id = s.round_id
            WHERE \(condition) AND r.completed_at IS NULL)) c
        """
    }

    /// The snippets of `page` rows with their counts (`live` for open
    /// rounds), ranked within each round.
    static func ranked(page: PostgresRows, live: PostgresRows) throws -> [(snippet: SnippetRecord, row: PostgresRow)] {
        var counts: [Int64: SnippetCount] = [:]
        for row in live {
            counts[try row.decode(Int64.self, at: 0)] = SnippetCount(
                votes: try row.decode(at: 1), score: try row.decode(at: 2), isWinner: false)
        }
        var snippets: [(snippet: SnippetRecord, row: PostgresRow)] = []
        snippets.reserveCapacity(page.count)
        for row in page {
            let id = try row.decode(Int64.self, at: 0)
            let isWinner = try row.decode(Bool.self, at: 9)
            let count: SnippetCount
            if let votes = try row.decode(Int?.self, at: 7), let score = try row.decode(Double?.self, at: 8) {
                count = SnippetCount(votes: votes, score: score, isWinner: isWinner)
            } else {
                count = SnippetCount(votes: counts[id]?.votes ?? 0, score: counts[id]?.score ?? 0, isWinner: isWinner)
            }
            snippets.append((try SnippetRecord(row: row, count: count), row))
        }
        snippets.sort { a, b in
            let (x, y) = (a.snippet, b.snippet)
            if x.roundID != y.roundID { return x.roundID < y.roundID }
            if x.count!.score != y.count!.score { return x.count!.score > y.count!.score }
            if x.count!.votes != y.count!.votes { return x.count!.votes > y.count!.votes }
            if x.createdAt != y.createdAt { return x.createdAt < y.createdAt }
            return x.id < y.id
        }
        return snippets
    }
}
