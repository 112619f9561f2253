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

    /// The parts a selection of a project's fields reads.
    init(selecting names: Set<String>) {
        var parts: ProjectParts = []
        if names.contains("currentRound") { parts.insert(.openRound) }
        if names.contains("story") { parts.insert(.story) }
        self = parts
    }

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
    static let storyFrom = "FROM rounds r JOIN snippets s ON s.id = r.winner_id JOIN users u ON u.id = s.author_id"
    static let storyColumns = "\(SnippetRecord.columns), \(UserRecord.columns)"

    /// The round of `openRoundColumns`, its snippet count primed.
    static func openRound(_ row: PostgresRow, snippetCounts: DataLoader<Int64, Int>) throws -> RoundRecord {
        let round = try RoundRecord(row: row)
        snippetCounts.prime(round.id, try row.decode(Int.self, at: RoundRecord.columnCount))
        return round
    }

    /// The snippet of `storyColumns`, its author primed.
    static func storySnippet(_ row: PostgresRow, shared: Loaders) throws -> SnippetRecord {
        shared.prime(try UserRecord(row: row, offset: SnippetRecord.columnCount))
        return try SnippetRecord(row: row)
    }

    /// Where the open round's columns start (`RoundRecord.columns`, then
    /// its snippet count), when it is joined.
    static let roundOffset = ProjectRecord.columnCount + 1 + UserRecord.columnCount

    /// The projects of ids $1 the viewer ($2) may see: each row the
    /// project, whether the viewer follows it and its owner, then the
    /// open round (null when none) if `parts` has it, then one story
    /// snippet and its author (null when none) if `parts` has the story,
    /// a row per snippet in round order.
    static func sql(_ parts: ProjectParts) -> String {
        var columns =
            "\(ProjectRecord.columns), EXISTS (SELECT 1 FROM project_follows f WHERE f.project_id = p.id AND f.user_id = $2::bigint), \(UserRecord.columns)"
        var joins = ""
        if parts.contains(.openRound) {
            columns += ", o.*"
            joins += """
                 LEFT JOIN LATERAL (
                    SELECT \(openRoundColumns) FROM rounds r WHERE r.project_id = p.id AND r.completed_at IS NULL) o ON true
                """
        }
        var order = "p.id"
        if parts.contains(.story) {
            columns += ", st.*"
            joins += """
                 LEFT JOIN LATERAL (
                    SELECT \(storyColumns), r.number AS story_number \(storyFrom) WHERE r.project_id = p.id) st ON true
                """
            order += ", st.story_number"
        }
        return """
            SELECT \(columns)
            FROM projects p JOIN users u ON u.id = p.owner_id\(joins)
            WHERE p.id = ANY($1::bigint[]) AND \(ProjectRecord.visible(toViewerAt: 2))
            ORDER BY \(order)
            """
    }

    /// The loader of projects with `parts`, priming the loaders of what
    /// it joined: the viewer's follows and the users always, the open
    /// rounds and their snippet counts, the stories.
    static func loader(
        _ parts: ProjectParts, database: PostgresPool, viewerID: Int64?, shared: Loaders, viewerFollows: DataLoader<Int64, Bool>,
        currentRounds: DataLoader<Int64, RoundRecord?>, snippetCounts: DataLoader<Int64, Int>, stories: DataLoader<Int64, [SnippetRecord]>
    ) -> DataLoader<Int64, ProjectRecord?> {
        let sql = sql(parts)
        let storyOffset = roundOffset + (parts.contains(.openRound) ? openRoundColumnCount : 0)
        return DataLoader { ids in
            let rows = try await database.query(sql, [ids, viewerID])
            var found: [Int64: ProjectRecord] = [:]
            var story: [SnippetRecord] = []
            func finish(_ project: ProjectRecord?) {
                guard let project, parts.contains(.story) else { return }
                stories.prime(project.id, story)
                story = []
            }
            var project: ProjectRecord?
            for row in rows {
                if project?.id != (try row.decode(Int64.self, at: 0)) {
                    finish(project)
                    let next = try ProjectRecord(row: row)
                    project = next
                    found[next.id] = next
                    viewerFollows.prime(next.id, try row.decode(Bool.self, at: ProjectRecord.columnCount))
                    shared.prime(try UserRecord(row: row, offset: ProjectRecord.columnCount + 1))
                    if parts.contains(.openRound) {
                        let round = row.shifted(by: roundOffset)
                        currentRounds.prime(
                            next.id, try round.decode(Int64?.self, at: 0) == nil ? nil : try openRound(round, snippetCounts: snippetCounts))
                    }
                }
                if parts.contains(.story), try row.decode(Int64?.self, at: storyOffset) != nil {
                    story.append(try storySnippet(row.shifted(by: storyOffset), shared: shared))
                }
            }
            finish(project)
            return ids.map { .success(found[$0]) }
        }
    }
}
