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
    /// A counted snippet's row: `SnippetRecord.columns`, these, then the
    /// author's `UserRecord.columns`. Both statements that read counted
    /// snippets (`page`, and the project page's ranked snippets) select
    /// this shape, and the project page's story rows fill it with nulls.
    enum CountColumn: Int, PostgresColumnList {
        /// Its votes and score (finished or live), whether it won, whether the viewer voted for it.
        case votes, score, isWinner, viewerVoted
        /// The author's karma, projects, snippets and wins.
        case karma, projectsCreated, snippetsSubmitted, roundsWon

        /// Its PostgreSQL type, for a null in its place.
        var type: String {
            switch self {
            case .score: "float8"
            case .isWinner, .viewerVoted: "bool"
            case .votes, .karma, .projectsCreated, .snippetsSubmitted, .roundsWon: "int"
            }
        }
    }

    /// The count columns each selected as `sql(column)`.
    static func countColumns(_ sql: (CountColumn) -> String) -> String { PostgresColumns<CountColumn>.list(sql) }

    /// Where a counted snippet row's author's user columns start.
    static let userOffset = SnippetRecord.columnCount + CountColumn.allCases.count

    /// The snippets of the rounds $1, and the snippets $1: `page`s, written
    /// once rather than for each batch.
    static let ofRounds = page(where: "s.round_id = ANY($1::bigint[])")
    static let byID = page(where: "s.id = ANY($1::bigint[])")

    /// Snippets matching `condition` (on `s`, its ids as $1), each row a
    /// counted snippet's (`CountColumn`), the viewer as $2.
    static func page(where condition: String) -> String {
        """
        WITH live AS (
            SELECT c.snippet_id, c.votes, c.score FROM prolific_snippet_scores(ARRAY(
                SELECT DISTINCT s.round_id FROM snippets s JOIN rounds r ON r.id = s.round_id
                WHERE \(condition) AND r.completed_at IS NULL)) c)
        SELECT \(SnippetRecord.columns), \(countColumns { column in
            switch column {
            case .votes: "coalesce(res.votes, live.votes, 0)"
            case .score: "coalesce(res.score, live.score, 0)"
            case .isWinner: "r.winner_id IS NOT DISTINCT FROM s.id"
            default: writerColumn(column)
            }
        }), \(UserRecord.columns)
        FROM snippets s JOIN rounds r ON r.id = s.round_id LEFT JOIN users u ON u.id = s.author_id
        LEFT JOIN prolific_writers w ON w.user_id = s.author_id LEFT JOIN snippet_results res ON res.snippet_id = s.id
        LEFT JOIN live ON live.snippet_id = s.id
        WHERE \(condition)
        """
    }

    /// The columns both statements select alike: whether the viewer ($2)
    /// voted for snippet `s`, and its author's totals from `w`.
    static func writerColumn(_ column: CountColumn) -> String {
        switch column {
        case .viewerVoted: existsPerRow("SELECT 1 FROM votes v WHERE v.snippet_id = s.id AND v.voter_id = $2::bigint")
        case .karma: "coalesce(w.karma, 0)"
        case .projectsCreated: "coalesce(w.projects_created, 0)"
        case .snippetsSubmitted: "coalesce(w.snippets_submitted, 0)"
        case .roundsWon: "coalesce(w.rounds_won, 0)"
        case .votes, .score, .isWinner: preconditionFailure("\(column) differs between the statements")
        }
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
        let column = row.columns(CountColumn.self, at: SnippetRecord.columnCount)
        let count = SnippetCount(votes: try column[.votes], score: try column[.score], isWinner: try column[.isWinner])
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
        authorNames: Bool = false, shared: Loaders
    ) throws {
        let column = row.columns(CountColumn.self, at: SnippetRecord.columnCount)
        viewerVotes.prime(snippet.id, try column[.viewerVoted])
        guard let author = snippet.authorID else { return }
        var writer = WriterRecord(userID: author)
        (writer.karma, writer.projectsCreated) = (try column[.karma], try column[.projectsCreated])
        (writer.snippetsSubmitted, writer.roundsWon) = (try column[.snippetsSubmitted], try column[.roundsWon])
        writers.prime(author, writer)
        try shared.primeUser(from: row, offset: userOffset, namesOnly: authorNames)
    }
}
