import GraphQL
import HuddleCore
import HuddlePostgres

/// What a read of projects joins besides each project, its owner and
/// whether the viewer follows it: the parts of the project page its
/// `project` field selects, so that the page costs one statement for the
/// project where it cost three.
struct ProjectParts: OptionSet, Hashable, Sendable {
    let rawValue: Int

    /// The open round, with its snippet count.
    static let openRound = ProjectParts(rawValue: 1)
    /// The story: the winning snippets in order, with their authors.
    static let story = ProjectParts(rawValue: 2)
    /// The open round's snippets ranked, with their counts, the viewer's
    /// votes, their authors and the authors' totals (with `openRound`).
    static let rankedSnippets = ProjectParts(rawValue: 4)
    /// The story's and the ranked snippets' authors with their names only
    /// (`UserRecord.nameColumns`): all that the page asks of them.
    static let authorNames = ProjectParts(rawValue: 8)

    /// The parts a selection of a project's fields reads, given the
    /// fields it selects on the project's current round and of the
    /// snippets' authors (the story's and the current round's).
    init(selecting names: Set<String>, onCurrentRound roundNames: Set<String> = [], ofAuthors authorFields: Set<String> = []) {
        var parts: ProjectParts = []
        if names.contains("currentRound") {
            parts.insert(.openRound)
            if roundNames.contains("snippets") { parts.insert(.rankedSnippets) }
        }
        if names.contains("story") { parts.insert(.story) }
        if parts.readsSnippetRows, UserRecord.namesAnswer(authorFields, answeredByID: WriterResolvers.userFieldsByID) {
            parts.insert(.authorNames)
        }
        self = parts
    }

    /// Every part.
    static let all: ProjectParts = [.openRound, .story, .rankedSnippets, .authorNames]

    /// Whether the open round's ranked snippets are read: they come with the round.
    var readsRankedSnippets: Bool { isSuperset(of: [.openRound, .rankedSnippets]) }

    /// Whether a read has snippet rows: the story's, the open round's, or both.
    var readsSnippetRows: Bool { contains(.story) || readsRankedSnippets }

    init(rawValue: Int) { self.rawValue = rawValue }
}

/// Reading projects by id with `ProjectParts`, and the parts as the
/// loaders that read them alone read them.
enum ProjectReads {
    /// The columns of an open round `r` (`openRound(_:snippetCounts:)` reads them).
    static let openRoundColumns = "\(RoundRecord.columns), (SELECT count(*)::int FROM snippets s WHERE s.round_id = r.id)"
    static let openRoundColumnCount = RoundRecord.columnCount + 1

    /// A story's snippets: rounds `r`, their winners `s` and the authors
    /// `u`, each row `storyColumns` (`storySnippet(_:shared:)` reads them).
    static let storyFrom = "FROM rounds r JOIN snippets s ON s.id = r.winner_id LEFT JOIN users u ON u.id = s.author_id"
    static let storyColumns = "\(SnippetRecord.columns), \(UserRecord.columns)"

    /// The round of `openRoundColumns`, its snippet count primed.
    static func openRound(_ row: PostgresRow, snippetCounts: DataLoader<Int64, Int>) throws -> RoundRecord {
        let round = try RoundRecord(row: row)
        snippetCounts.prime(round.id, try row.decode(Int.self, at: RoundRecord.columnCount))
        return round
    }

    /// The snippet of `storyColumns` (or of a row with the author's
    /// columns at `userOffset`), its author primed.
    static func storySnippet(
        _ row: PostgresRow, userOffset: Int = SnippetRecord.columnCount, authorNames: Bool = false, shared: Loaders
    ) throws -> SnippetRecord {
        try shared.primeUser(from: row, offset: userOffset, namesOnly: authorNames)
        return try SnippetRecord(row: row)
    }

    /// Where the open round's columns start (`RoundRecord.columns`, then
    /// its snippet count), when it is joined.
    static let roundOffset = ProjectRecord.columnCount + 1 + UserRecord.columnCount

    /// The row of a story snippet or a ranked one, after the project's
    /// columns: which it is (1, 2), the story's round number, then a
    /// counted snippet's (`SnippetCounting.CountColumn`; the story's counts
    /// and totals null).
    static let snippetRowColumnCount = 2

    /// The projects of ids $1 the viewer ($2) may see: each row the
    /// project, whether the viewer follows it and its owner, then the
    /// open round (null when none) if `parts` has it, then with the story
    /// or the ranked snippets one of them (null when none): a row per
    /// story snippet in round order, then a row per snippet of the open round.
    static func sql(_ parts: ProjectParts) -> String {
        parts.isSubset(of: .all) ? statements[parts.rawValue] : write(parts)
    }

    /// `sql` of every combination of parts, written once: the text depends
    /// only on the parts, and writing it looks up every column's name.
    private static let statements = (0...ProjectParts.all.rawValue).map { write(ProjectParts(rawValue: $0)) }

    private static func write(_ parts: ProjectParts) -> String {
        let viewerFollows = existsPerRow("SELECT 1 FROM project_follows f WHERE f.project_id = p.id AND f.user_id = $2::bigint")
        var columns = "\(ProjectRecord.columns), \(viewerFollows), \(UserRecord.columns)"
        var joins = ""
        if parts.contains(.openRound) {
            columns += ", o.*"
            joins += """
                 LEFT JOIN LATERAL (
                    SELECT \(openRoundColumns) FROM rounds r WHERE r.project_id = p.id AND r.completed_at IS NULL) o ON true
                """
        }
        var order = "p.id"
        var snippetRows: [String] = []
        let authorColumns = parts.contains(.authorNames) ? UserRecord.nameColumns : UserRecord.columns
        if parts.contains(.story) {
            snippetRows.append(
                """
                SELECT 1 AS kind, r.number AS story_number, \(SnippetRecord.columns),
                       \(SnippetCounting.countColumns { "NULL::\($0.type)" }), \(authorColumns)
                    \(storyFrom) WHERE r.project_id = p.id
                """)
        }
        if parts.readsRankedSnippets {
            snippetRows.append(
                """
                SELECT 2, NULL::int, \(SnippetRecord.columns), \(SnippetCounting.countColumns { column in
                    switch column {
                    case .votes: "c.votes"
                    case .score: "c.score"
                    case .isWinner: "false"
                    default: SnippetCounting.writerColumn(column)
                    }
                }), \(authorColumns)
                    FROM prolific_snippet_scores(ARRAY[o.id]) c JOIN snippets s ON s.id = c.snippet_id LEFT JOIN users u ON u.id = s.author_id
                    LEFT JOIN prolific_writers w ON w.user_id = s.author_id
                """)
        }
        if !snippetRows.isEmpty {
            columns += ", x.*"
            joins += " LEFT JOIN LATERAL (\n" + snippetRows.joined(separator: "\n    UNION ALL\n") + ") x ON true"
            order += ", x.kind, x.story_number"
        }
        return """
            SELECT \(columns)
            FROM projects p LEFT JOIN users u ON u.id = p.owner_id\(joins)
            WHERE p.id = ANY($1::bigint[]) AND \(ProjectRecord.visible(toViewerAt: 2))
            ORDER BY \(order)
            """
    }

    /// The loaders a read of projects primes with what it joined.
    struct Primed {
        let shared: Loaders
        let viewerFollows: DataLoader<Int64, Bool>
        let currentRounds: DataLoader<Int64, RoundRecord?>
        let snippetCounts: DataLoader<Int64, Int>
        let stories: DataLoader<Int64, [SnippetRecord]>
        let rankedSnippets: DataLoader<Int64, [SnippetRecord]>
        let viewerVotes: DataLoader<Int64, Bool>
        let writers: DataLoader<Int64, WriterRecord>
    }

    /// The loader of projects with `parts`, priming the loaders of what
    /// it joined: the viewer's follows and the users always, the open
    /// rounds and their snippet counts, the stories, the open rounds'
    /// ranked snippets with the viewer's votes and their authors' totals.
    static func loader(
        _ parts: ProjectParts, database: PostgresPool, viewerID: Int64?, priming primed: Primed
    ) -> DataLoader<Int64, ProjectRecord?> {
        let sql = sql(parts)
        let snippetOffset = roundOffset + (parts.contains(.openRound) ? openRoundColumnCount : 0)
        let authorNames = parts.contains(.authorNames)
        return DataLoader { ids in
            let rows = try await database.query(sql, [ids, viewerID])
            var found: [Int64: ProjectRecord] = [:]
            var story: [SnippetRecord] = []
            var ranked: [SnippetRecord] = []
            var openRound: RoundRecord?
            func finish(_ project: ProjectRecord?) {
                guard let project else { return }
                if parts.contains(.story) { primed.stories.prime(project.id, story) }
                if parts.readsRankedSnippets, let openRound {
                    primed.rankedSnippets.prime(openRound.id, ranked.sorted(by: SnippetCounting.ranksBefore))
                }
                (story, ranked, openRound) = ([], [], nil)
            }
            var project: ProjectRecord?
            for row in rows {
                if project?.id != (try row.decode(Int64.self, at: 0)) {
                    finish(project)
                    let next = try ProjectRecord(row: row)
                    project = next
                    found[next.id] = next
                    primed.viewerFollows.prime(next.id, try row.decode(Bool.self, at: ProjectRecord.columnCount))
                    try primed.shared.primeUser(from: row, offset: ProjectRecord.columnCount + 1)
                    if parts.contains(.openRound) {
                        let round = row.shifted(by: roundOffset)
                        openRound =
                            try round.decode(Int64?.self, at: 0) == nil
                            ? nil : try Self.openRound(round, snippetCounts: primed.snippetCounts)
                        primed.currentRounds.prime(next.id, openRound)
                    }
                }
                guard parts.readsSnippetRows, let kind = try row.decode(Int?.self, at: snippetOffset) else { continue }
                let snippetRow = row.shifted(by: snippetOffset + snippetRowColumnCount)
                if kind == 1 {
                    story.append(
                        try storySnippet(
                            snippetRow, userOffset: SnippetCounting.userOffset, authorNames: authorNames, shared: primed.shared))
                } else {
                    let snippet = try SnippetCounting.snippet(snippetRow)
                    try SnippetCounting.prime(
                        from: snippetRow, of: snippet, viewerVotes: primed.viewerVotes, writers: primed.writers, authorNames: authorNames,
                        shared: primed.shared)
                    ranked.append(snippet)
                }
            }
            finish(project)
            return ids.map { .success(found[$0]) }
        }
    }
}
