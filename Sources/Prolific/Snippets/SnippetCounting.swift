import GraphQL
import HuddleCore
import HuddlePostgres

/// The weighted count of snippets: a finished round's from
/// `snippet_results` (as it was counted), an open round's live from
/// `prolific_snippet_scores` (the formula, in its first migration), in the
/// order that decides a winner: score, then voters, then the earlier
/// snippet. One statement reads the snippets with what a page shows of
/// them and the live count beside them (with generic plans it costs less
/// than the two it once was).
enum SnippetCounting {
    /// Where a page row's writer totals and its author's user columns start.
    static let writerOffset = 11
    static let userOffset = 15

    /// Snippets matching `condition` (on `s`, its ids as $1), each row
    /// `SnippetRecord.columns`, then its votes and score (finished or
    /// live), whether it won, whether the viewer ($2) voted for it, the
    /// author's karma, projects, snippets and wins, and the author
    /// (`UserRecord.columns`).
    static func page(where condition: String) -> String {
        """
        WITH live AS (
            SELECT c.snippet_id, c.votes, c.score FROM prolific_snippet_scores(ARRAY(
                SELECT DISTINCT s.round_id FROM snippets s JOIN rounds r ON r.id = s.round_id
                WHERE \(condition) AND r.completed_at IS NULL)) c)
        SELECT \(SnippetRecord.columns), coalesce(res.votes, live.votes, 0), coalesce(res.score, live.score, 0),
               r.winner_id IS NOT DISTINCT FROM s.id,
               EXISTS (SELECT 1 FROM votes v WHERE v.snippet_id = s.id AND v.voter_id = $2::bigint),
               coalesce(w.karma, 0), coalesce(w.projects_created, 0), coalesce(w.snippets_submitted, 0), coalesce(w.rounds_won, 0),
               \(UserRecord.columns)
        FROM snippets s JOIN rounds r ON r.id = s.round_id JOIN users u ON u.id = s.author_id
        LEFT JOIN prolific_writers w ON w.user_id = s.author_id LEFT JOIN snippet_results res ON res.snippet_id = s.id
        LEFT JOIN live ON live.snippet_id = s.id
        WHERE \(condition)
        """
    }

    /// The snippets of `page` rows with their counts, ranked within each round.
    static func ranked(page: PostgresRows) throws -> [(snippet: SnippetRecord, row: PostgresRow)] {
        var snippets: [(snippet: SnippetRecord, row: PostgresRow)] = []
        snippets.reserveCapacity(page.count)
        for row in page { snippets.append((try snippet(row), row)) }
        snippets.sort { ranksBefore($0.snippet, $1.snippet) }
        return snippets
    }

    /// The snippet of a page row, with its count.
    static func snippet(_ row: PostgresRow) throws -> SnippetRecord {
        let count = SnippetCount(votes: try row.decode(at: 7), score: try row.decode(at: 8), isWinner: try row.decode(at: 9))
        return try SnippetRecord(row: row, count: count)
    }

    /// The ranking of counted snippets: by round, then the higher score,
    /// more votes, the earlier, the lower id (docs/prolific.md, "ties").
    static func ranksBefore(_ x: SnippetRecord, _ y: SnippetRecord) -> Bool {
        if x.roundID != y.roundID { return x.roundID < y.roundID }
        if x.count!.score != y.count!.score { return x.count!.score > y.count!.score }
        if x.count!.votes != y.count!.votes { return x.count!.votes > y.count!.votes }
        if x.createdAt != y.createdAt { return x.createdAt < y.createdAt }
        return x.id < y.id
    }

    /// Gives the loaders what a page row joined: whether the viewer voted
    /// for the snippet, its author and the author's totals.
    static func prime(
        from row: PostgresRow, of snippet: SnippetRecord, viewerVotes: DataLoader<Int64, Bool>, writers: DataLoader<Int64, WriterRecord>,
        shared: Loaders
    ) throws {
        viewerVotes.prime(snippet.id, try row.decode(Bool.self, at: writerOffset - 1))
        writers.prime(snippet.authorID, try WriterRecord(userID: snippet.authorID, row: row, offset: writerOffset))
        shared.prime(try UserRecord(row: row, offset: userOffset))
    }
}
