import GraphQL
import HuddleCore
import HuddlePostgres
import HuddleRuntime

/// Prolific: stories written together in rounds, with karma-weighted votes.
package enum Prolific: App {
    package static let schemaFolder = "prolific"

    package static func bind(_ binder: inout SchemaBinder) {
        ProjectResolvers.bind(&binder)
        RoundResolvers.bind(&binder)
        SnippetResolvers.bind(&binder)
        WriterResolvers.bind(&binder)
        ProlificInbox.bind(&binder)
    }

    // The loaders read only what the viewer may see: a private project,
    // its rounds and its snippets are null to everyone but its members.
    package static let nodeTypes = [
        NodeType("Project", ProjectRecord.self) { id, context in
            context.prolific.projects.load(id) { $0.map { .object($0, typename: "Project") } ?? .null }
        },
        NodeType("Round", RoundRecord.self) { id, context in
            context.prolific.rounds.load(id) { $0.map { .object($0, typename: "Round") } ?? .null }
        },
        NodeType("Snippet", SnippetRecord.self) { id, context in
            context.prolific.snippets.load(id) { $0.map { .object($0, typename: "Snippet") } ?? .null }
        },
    ]

    package static let notificationKinds = ProlificInbox.kinds

    package static let scheduledWork = [RoundEnd.work]

    package static func seed(_ scale: DemoScale, users: Int, on connection: PostgresConnection) async throws -> String? {
        try await ProlificDemoData.seed(scale, users: users, on: connection)
    }
}

/// Prolific's batching loaders of one operation.
final class ProlificLoaders: RequestLoaders {
    let projects: DataLoader<Int64, ProjectRecord?>
    let rounds: DataLoader<Int64, RoundRecord?>
    let snippets: DataLoader<Int64, SnippetRecord?>
    /// Projects' open rounds.
    let currentRounds: DataLoader<Int64, RoundRecord?>
    /// Rounds' snippets with their counts, best first.
    let rankedSnippets: DataLoader<Int64, [SnippetRecord]>
    /// Snippets' counts, for snippets read without them.
    let counts: DataLoader<Int64, SnippetCount>
    /// Projects' winning snippets in order.
    let stories: DataLoader<Int64, [SnippetRecord]>
    let snippetCounts: DataLoader<Int64, Int>
    /// Whether the viewer follows each project.
    let viewerFollows: DataLoader<Int64, Bool>
    /// Whether the viewer is a member of each project.
    let viewerMemberships: DataLoader<Int64, Bool>
    /// Whether the viewer voted for each snippet.
    let viewerVotes: DataLoader<Int64, Bool>
    /// Private projects' members, the owner first.
    let members: DataLoader<Int64, [UserRecord]>
    let writers: DataLoader<Int64, WriterRecord>
    let roundPages: DataLoader<OwnedPage, ConnectionPage>
    let userProjectPages: DataLoader<OwnedPage, ConnectionPage>
    let userSnippetPages: DataLoader<OwnedPage, ConnectionPage>

    init(database: PostgresPool, viewerID: Int64?) {
        projects = DataLoader { ids in
            try Loaders.byID(
                ids,
                try await database.query(
                    "SELECT \(ProjectRecord.columns) FROM projects p WHERE p.id = ANY($1::bigint[]) AND \(ProjectRecord.visible(toViewerAt: 2))",
                    [ids, viewerID])
            ) { try ProjectRecord(row: $0) }
        }
        rounds = DataLoader { ids in
            try Loaders.byID(
                ids,
                try await database.query(
                    """
                    SELECT \(RoundRecord.columns) FROM rounds r JOIN projects p ON p.id = r.project_id
                    WHERE r.id = ANY($1::bigint[]) AND \(ProjectRecord.visible(toViewerAt: 2))
                    """, [ids, viewerID])
            ) { try RoundRecord(row: $0) }
        }
        snippets = DataLoader { ids in
            try Loaders.byID(
                ids,
                try await database.query(
                    """
                    SELECT \(SnippetRecord.columns) FROM snippets s JOIN projects p ON p.id = s.project_id
                    WHERE s.id = ANY($1::bigint[]) AND \(ProjectRecord.visible(toViewerAt: 2))
                    """, [ids, viewerID])
            ) { try SnippetRecord(row: $0) }
        }
        currentRounds = DataLoader { ids in
            let rows = try await database.query(
                "SELECT \(RoundRecord.columns) FROM rounds r WHERE r.project_id = ANY($1::bigint[]) AND r.completed_at IS NULL", [ids])
            var open: [Int64: RoundRecord] = [:]
            for row in rows {
                let round = try RoundRecord(row: row)
                open[round.projectID] = round
            }
            return ids.map { .success(open[$0]) }
        }
        rankedSnippets = DataLoader { ids in
            let rows = try await database.query(SnippetCounting.ranked(where: "s.round_id = ANY($1::bigint[])"), [ids])
            var byRound: [Int64: [SnippetRecord]] = [:]
            for row in rows {
                let snippet = try SnippetRecord(countedRow: row)
                byRound[snippet.roundID, default: []].append(snippet)
            }
            return ids.map { .success(byRound[$0] ?? []) }
        }
        counts = DataLoader { ids in
            let rows = try await database.query(SnippetCounting.ranked(where: "s.id = ANY($1::bigint[])"), [ids])
            var counts: [Int64: SnippetCount] = [:]
            for row in rows {
                let snippet = try SnippetRecord(countedRow: row)
                counts[snippet.id] = snippet.count
            }
            return ids.map { .success(counts[$0] ?? SnippetCount(votes: 0, score: 0, isWinner: false)) }
        }
        stories = DataLoader { ids in
            let rows = try await database.query(
                """
                SELECT \(SnippetRecord.columns) FROM rounds r JOIN snippets s ON s.id = r.winner_id
                WHERE r.project_id = ANY($1::bigint[]) ORDER BY r.project_id, r.number
                """, [ids])
            var byProject: [Int64: [SnippetRecord]] = [:]
            for row in rows {
                let snippet = try SnippetRecord(row: row)
                byProject[snippet.projectID, default: []].append(snippet)
            }
            return ids.map { .success(byProject[$0] ?? []) }
        }
        snippetCounts = DataLoader { ids in
            let rows = try await database.query(
                "SELECT round_id, count(*)::int FROM snippets WHERE round_id = ANY($1::bigint[]) GROUP BY round_id", [ids])
            var counts: [Int64: Int] = [:]
            for row in rows { counts[try row.decode(Int64.self, at: 0)] = try row.decode(Int.self, at: 1) }
            return ids.map { .success(counts[$0] ?? 0) }
        }
        viewerFollows = Self.viewerSet(
            database, viewerID, "SELECT project_id FROM project_follows WHERE user_id = $1 AND project_id = ANY($2::bigint[])")
        viewerMemberships = Self.viewerSet(
            database, viewerID, "SELECT project_id FROM project_members WHERE user_id = $1 AND project_id = ANY($2::bigint[])")
        viewerVotes = Self.viewerSet(
            database, viewerID, "SELECT snippet_id FROM votes WHERE voter_id = $1 AND snippet_id = ANY($2::bigint[])")
        members = DataLoader { ids in
            let rows = try await database.query(
                """
                SELECT \(UserRecord.columns), m.project_id FROM project_members m
                JOIN projects p ON p.id = m.project_id JOIN users u ON u.id = m.user_id
                WHERE m.project_id = ANY($1::bigint[]) AND p.is_private
                ORDER BY m.project_id, m.user_id <> p.owner_id, m.joined_at, m.user_id
                """, [ids])
            var byProject: [Int64: [UserRecord]] = [:]
            for row in rows {
                byProject[try row.decode(Int64.self, at: rows.columnCount - 1), default: []].append(try UserRecord(row: row))
            }
            return ids.map { .success(byProject[$0] ?? []) }
        }
        writers = DataLoader { ids in
            let rows = try await database.query(
                "SELECT \(WriterRecord.columns) FROM prolific_writers w WHERE w.user_id = ANY($1::bigint[])", [ids])
            var found: [Int64: WriterRecord] = [:]
            for row in rows {
                let writer = try WriterRecord(row: row)
                found[writer.userID] = writer
            }
            return ids.map { .success(found[$0] ?? WriterRecord(userID: $0)) }
        }
        roundPages = KeysetQuery.loader(on: database) {
            KeysetQuery(
                columns: RoundRecord.columns, from: "FROM rounds r WHERE r.project_id = owner.id", parameters: [],
                keys: [("r.number", "integer")])
        } node: {
            try RoundRecord(row: $0)
        }
        userProjectPages = KeysetQuery.loader(on: database) {
            KeysetQuery(
                columns: ProjectRecord.columns,
                from: "FROM projects p WHERE p.owner_id = owner.id AND \(ProjectRecord.visible(toViewerAt: 1))",
                parameters: [viewerID], keys: [("p.created_at", "timestamptz"), ("p.id", "bigint")], descending: true)
        } node: {
            try ProjectRecord(row: $0)
        }
        userSnippetPages = KeysetQuery.loader(on: database) {
            KeysetQuery(
                columns: SnippetRecord.columns,
                from:
                    "FROM snippets s JOIN projects p ON p.id = s.project_id WHERE s.author_id = owner.id AND \(ProjectRecord.visible(toViewerAt: 1))",
                parameters: [viewerID], keys: [("s.created_at", "timestamptz"), ("s.id", "bigint")], descending: true)
        } node: {
            try SnippetRecord(row: $0)
        }
    }

    /// Which of the ids the viewer's rows name (`sql` takes the viewer as
    /// $1 and the ids as $2); all false without a viewer.
    private static func viewerSet(_ database: PostgresPool, _ viewerID: Int64?, _ sql: String) -> DataLoader<Int64, Bool> {
        DataLoader { ids in
            guard let viewerID else { return ids.map { _ in .success(false) } }
            let found = Set(try await database.query(sql, [viewerID, ids]).map { try $0.decode(Int64.self, at: 0) })
            return ids.map { .success(found.contains($0)) }
        }
    }
}

extension RequestContext {
    /// The operation's Prolific loaders.
    var prolific: ProlificLoaders { loaders(ProlificLoaders.self) }
}
