import GraphQL
import HuddleCore
import HuddlePostgres
import HuddleRuntime
import Synchronization

/// Prolific: stories written together in rounds, with karma-weighted votes.
package enum Prolific: App {
    package static let schemaFolder = "prolific"
    package static var schemaFiles: [(path: String, text: String)] { EmbeddedSchema.files }

    package static func bind(_ binder: inout SchemaBinder) {
        ProjectResolvers.bind(&binder)
        RoundResolvers.bind(&binder)
        SnippetResolvers.bind(&binder)
        WriterResolvers.bind(&binder)
        ActivityResolvers.bind(&binder)
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
    package static let noticeStyles: [NotificationKind: NoticeStyle] = [
        .roundEnded: NoticeStyle(title: "Prolific: round ended"),
        .snippetWon: NoticeStyle(title: "Prolific: your snippet won"),
        .snippetVoted: NoticeStyle(title: "Prolific", urgency: .low, promotional: true),
        .projectCompleted: NoticeStyle(title: "Prolific: story complete"),
        .projectInvitation: NoticeStyle(title: "Prolific: you're invited to write"),
        .writerStartedProject: NoticeStyle(title: "Prolific: a new story", urgency: .low),
    ]

    package static let scheduledWork = [RoundEnd.work]
    package static let settings = [ProlificViews.historyDays]
    package static let tallies = [ProlificViews.project, ProlificViews.snippet]

    package static func seed(_ scale: DemoScale, users: Int, on connection: PostgresConnection) async throws -> String? {
        try await ProlificDemoData.seed(scale, users: users, on: connection)
    }

    /// The projects they own, write in or follow, their snippets, votes and karma.
    package static func exportData(of user: Int64, on connection: PostgresConnection) async throws -> String? {
        try await connection.query(
            """
            SELECT jsonb_build_object(
              'projectsOwned', (SELECT coalesce(jsonb_agg(to_jsonb(p) ORDER BY p.id), '[]') FROM projects p WHERE p.owner_id = $1),
              'memberships', (SELECT coalesce(jsonb_agg(to_jsonb(m) ORDER BY m.project_id), '[]') FROM project_members m WHERE m.user_id = $1),
              'follows', (SELECT coalesce(jsonb_agg(to_jsonb(f) ORDER BY f.project_id), '[]') FROM project_follows f WHERE f.user_id = $1),
              'writersFollowed', (SELECT coalesce(jsonb_agg(jsonb_build_object('writer', f.writer_id, 'since', f.followed_at)
                                    ORDER BY f.writer_id), '[]') FROM writer_follows f WHERE f.follower_id = $1),
              'snippets', (SELECT coalesce(jsonb_agg(to_jsonb(s) ORDER BY s.id), '[]') FROM snippets s WHERE s.author_id = $1),
              'votes', (SELECT coalesce(jsonb_agg(to_jsonb(v) ORDER BY v.created_at, v.snippet_id), '[]') FROM votes v WHERE v.voter_id = $1),
              'karma', (SELECT to_jsonb(w) FROM prolific_writers w WHERE w.user_id = $1),
              'karmaAwards', (SELECT coalesce(jsonb_agg(to_jsonb(k) ORDER BY k.id), '[]') FROM karma_awards k WHERE k.user_id = $1)
            )::text
            """, [user])[0].decode(String.self, at: 0)
    }

    /// The open rounds of every project the user takes part in (owns,
    /// follows, belongs to, wrote or voted in), held FOR SHARE as a vote
    /// holds its round, in id order: a round end holds its round FOR UPDATE,
    /// then writes to its project and to those people's rows (notices,
    /// histories), which the deletion changes too. Held before the account,
    /// a round end in progress finishes first and one not yet begun waits
    /// for the deletion, rather than each waiting for the other.
    package static func lockAheadOfDeletion(of user: Int64, on connection: PostgresConnection) async throws {
        _ = try await connection.query(
            """
            SELECT id FROM rounds WHERE completed_at IS NULL AND project_id IN (
                SELECT id FROM projects WHERE owner_id = $1
                UNION SELECT project_id FROM project_follows WHERE user_id = $1
                UNION SELECT project_id FROM project_members WHERE user_id = $1
                UNION SELECT project_id FROM snippets WHERE author_id = $1
                UNION SELECT r.project_id FROM votes v JOIN rounds r ON r.id = v.round_id WHERE v.voter_id = $1)
            ORDER BY id FOR SHARE
            """, [user])
        // Then the projects the deletion changes (owned: no owner; followed:
        // one follower fewer; member of), in id order as every batch of
        // views locks them, rather than in whatever order its plan takes.
        _ = try await connection.query(
            """
            SELECT id FROM projects WHERE id IN (
                SELECT id FROM projects WHERE owner_id = $1
                UNION SELECT project_id FROM project_follows WHERE user_id = $1
                UNION SELECT project_id FROM project_members WHERE user_id = $1)
            ORDER BY id FOR NO KEY UPDATE
            """, [user])
    }

    /// The stories stay: projects, snippets and the votes of finished
    /// rounds keep their place with no person (the migration's ON DELETE
    /// SET NULL), shown as the deleted user. Votes in rounds still open go:
    /// a round's result is counted from the people still there.
    package static func prepareDeletion(of user: Int64, on connection: PostgresConnection) async throws {
        // The open rounds voted in, locked (again: a round voted in since
        // the lock ahead is held too, and no vote can come now, the
        // account's row being locked); one ended meanwhile keeps its votes.
        let open = try await votedRounds(of: user, on: connection)
        _ = try await connection.query("DELETE FROM votes WHERE voter_id = $1 AND round_id = ANY($2::bigint[])", [user, open])
        // Other voters' histories name whom they voted for: not them any more.
        _ = try await connection.query(
            "UPDATE voter_rounds SET authors = array_remove(authors, $1::bigint) WHERE authors @> ARRAY[$1::bigint]", [user])
    }

    /// Locks the still-open rounds `user` voted in, in id order; their ids.
    /// A round ended while this waited is left out: the lock reads the row
    /// as its end committed it.
    private static func votedRounds(of user: Int64, on connection: PostgresConnection) async throws -> [Int64] {
        try await connection.query(
            """
            SELECT id FROM rounds WHERE completed_at IS NULL AND id IN (SELECT round_id FROM votes WHERE voter_id = $1)
            ORDER BY id FOR SHARE
            """, [user]
        ).map { try $0.decode(Int64.self, at: 0) }
    }
}

/// Prolific's batching loaders of one operation.
final class ProlificLoaders: RequestLoaders {
    private enum Slot: Int, CaseIterable {
        case projects, rounds, snippets, currentRounds, rankedSnippets, counts, stories, snippetCounts, viewerFollows,
            viewerFollowsWriters, viewerMemberships, viewerVotes, members, writers, roundPages, userProjectPages, userSnippetPages,
            projectActivity, writerActivity
    }
    private let slots = LoaderSlots<Slot>()
    private let database: PostgresPool
    private let viewer: LoaderViewer
    /// Read by the loaders whose rows depend on who asks, when they are made.
    private var viewerID: Int64? { viewer.userID }
    private let shared: Loaders
    private let projectsWithParts = Mutex<[ProjectParts: DataLoader<Int64, ProjectRecord?>]>([:])

    init(database: PostgresPool, viewer: LoaderViewer, shared: Loaders) {
        self.database = database
        self.viewer = viewer
        self.shared = shared
    }

    // A batch primes the loaders of what its statement joined anyway (the
    // project's owner and the viewer's follow, with the page's parts its
    // open round, snippet count, story and ranked snippets; the authors,
    // their karma and the viewer's votes of a page of snippets), so the
    // project page costs one statement, not twelve. A loader that primes
    // others is given them when it is made (making them too).

    var projects: DataLoader<Int64, ProjectRecord?> {
        slots.loader(.projects) { readProjects([]) }
    }

    /// Projects read with `parts` of their page as well (one loader per
    /// set of parts in an operation).
    func projects(with parts: ProjectParts) -> DataLoader<Int64, ProjectRecord?> {
        if parts.isEmpty { return projects }
        if let loader = projectsWithParts.withLock({ $0[parts] }) { return loader }
        let loader = readProjects(parts)
        return projectsWithParts.withLock { loaders in
            if let stored = loaders[parts] { return stored }
            loaders[parts] = loader
            return loader
        }
    }

    private func readProjects(_ parts: ProjectParts) -> DataLoader<Int64, ProjectRecord?> {
        let primed = ProjectReads.Primed(
            shared: shared, viewerFollows: viewerFollows, currentRounds: currentRounds, snippetCounts: snippetCounts, stories: stories,
            rankedSnippets: rankedSnippets, viewerVotes: viewerVotes, writers: writers)
        return ProjectReads.loader(parts, database: database, viewerID: viewerID, priming: primed)
    }

    // Rounds and snippets by id, of projects the viewer may see.
    var rounds: DataLoader<Int64, RoundRecord?> {
        slots.loader(.rounds) { visible(RoundRecord.columns, from: "rounds r") { try RoundRecord(row: $0) } }
    }
    var snippets: DataLoader<Int64, SnippetRecord?> {
        slots.loader(.snippets) { visible(SnippetRecord.columns, from: "snippets s") { try SnippetRecord(row: $0) } }
    }

    private func visible<Record: Identified>(
        _ columns: String, from table: String, _ record: @escaping @Sendable (PostgresRow) throws -> Record
    ) -> DataLoader<Int64, Record?> {
        let sql = """
            SELECT \(columns) FROM \(table) JOIN projects p ON p.id = project_id
            WHERE \(table.split(separator: " ").last!).id = ANY($1::bigint[]) AND \(ProjectRecord.visible(toViewerAt: 2))
            """
        let (database, viewerID) = (database, viewerID)
        return DataLoader { ids in try Loaders.byID(ids, try await database.query(sql, [ids, viewerID]), record) }
    }

    /// Projects' open rounds.
    var currentRounds: DataLoader<Int64, RoundRecord?> {
        slots.loader(.currentRounds) { [database, snippetCounts] in
            DataLoader<Int64, RoundRecord?> { ids in
                let rows = try await database.query(
                    """
                    SELECT \(ProjectReads.openRoundColumns)
                    FROM rounds r WHERE r.project_id = ANY($1::bigint[]) AND r.completed_at IS NULL
                    """, [ids])
                var open: [Int64: RoundRecord] = [:]
                for row in rows {
                    let round = try ProjectReads.openRound(row, snippetCounts: snippetCounts)
                    open[round.projectID] = round
                }
                return ids.map { .success(open[$0]) }
            }
        }
    }

    /// Projects' days of activity, in the viewer's time zone (only owners ask).
    var projectActivity: DataLoader<ProjectActivityAsk, [ActivityDay]> {
        slots.loader(.projectActivity) { [database, viewerID] in
            DataLoader { asks in
                guard let viewerID else { return asks.map { _ in .success([]) } }
                let days = try await ActivityReads.projects(asks, reader: viewerID, on: database)
                return asks.map { .success(days[$0] ?? []) }
            }
        }
    }

    /// The viewer's own days of activity as a writer, by days asked.
    var writerActivity: DataLoader<Int, [ActivityDay]> {
        slots.loader(.writerActivity) { [database, viewerID] in
            DataLoader { asks in
                guard let viewerID else { return asks.map { _ in .success([]) } }
                let days = try await ActivityReads.writer(viewerID, days: asks, on: database)
                return asks.map { .success(days[$0] ?? []) }
            }
        }
    }

    /// Rounds' snippets with their counts, best first.
    var rankedSnippets: DataLoader<Int64, [SnippetRecord]> {
        slots.loader(.rankedSnippets) { [ranked] in
            DataLoader { ids in
                var byRound: [Int64: [SnippetRecord]] = [:]
                for snippet in try await ranked(SnippetCounting.ofRounds, ids) {
                    byRound[snippet.roundID, default: []].append(snippet)
                }
                return ids.map { .success(byRound[$0] ?? []) }
            }
        }
    }

    /// Snippets' counts, for snippets read without them.
    var counts: DataLoader<Int64, SnippetCount> {
        slots.loader(.counts) { [ranked] in
            DataLoader { ids in
                var counts: [Int64: SnippetCount] = [:]
                for snippet in try await ranked(SnippetCounting.byID, ids) { counts[snippet.id] = snippet.count }
                return ids.map { .success(counts[$0] ?? SnippetCount(votes: 0, score: 0, isWinner: false)) }
            }
        }
    }

    /// A page of snippets by `SnippetCounting`'s statement (`ofRounds`,
    /// `byID`): each with its count, the viewer's vote, its author and
    /// their karma (primed into those loaders, made with this).
    private var ranked: @Sendable (String, [Int64]) async throws -> [SnippetRecord] {
        let (database, viewerID, viewerVotes, writers, shared) = (database, viewerID, viewerVotes, writers, shared)
        return { statement, ids in
            let page = try await database.query(statement, [ids, viewerID])
            return try SnippetCounting.ranked(page: page).map { snippet, row in
                try SnippetCounting.prime(from: row, of: snippet, viewerVotes: viewerVotes, writers: writers, shared: shared)
                return snippet
            }
        }
    }

    /// Projects' winning snippets in order.
    var stories: DataLoader<Int64, [SnippetRecord]> {
        slots.loader(.stories) { [database, shared] in
            DataLoader<Int64, [SnippetRecord]> { ids in
                let rows = try await database.query(
                    """
                    SELECT \(ProjectReads.storyColumns) \(ProjectReads.storyFrom)
                    WHERE r.project_id = ANY($1::bigint[]) ORDER BY r.project_id, r.number
                    """, [ids])
                var byProject: [Int64: [SnippetRecord]] = [:]
                for row in rows {
                    let snippet = try ProjectReads.storySnippet(row, shared: shared)
                    byProject[snippet.projectID, default: []].append(snippet)
                }
                return ids.map { .success(byProject[$0] ?? []) }
            }
        }
    }

    var snippetCounts: DataLoader<Int64, Int> {
        slots.loader(.snippetCounts) {
            Loaders.counts(
                database, "SELECT round_id, count(*)::int FROM snippets WHERE round_id = ANY($1::bigint[]) GROUP BY round_id")
        }
    }

    /// Whether the viewer follows each project.
    var viewerFollows: DataLoader<Int64, Bool> {
        slots.loader(.viewerFollows) {
            Loaders.viewerSet(database, viewerID, in: "project_follows", viewerColumn: "user_id", idColumn: "project_id")
        }
    }

    /// Which of the users the viewer follows as writers.
    var viewerFollowsWriters: DataLoader<Int64, Bool> {
        slots.loader(.viewerFollowsWriters) {
            Loaders.viewerSet(database, viewerID, in: "writer_follows", viewerColumn: "follower_id", idColumn: "writer_id")
        }
    }

    /// Whether the viewer is a member of each project.
    var viewerMemberships: DataLoader<Int64, Bool> {
        slots.loader(.viewerMemberships) {
            Loaders.viewerSet(database, viewerID, in: "project_members", viewerColumn: "user_id", idColumn: "project_id")
        }
    }

    /// Whether the viewer voted for each snippet.
    var viewerVotes: DataLoader<Int64, Bool> {
        slots.loader(.viewerVotes) {
            Loaders.viewerSet(database, viewerID, in: "votes", viewerColumn: "voter_id", idColumn: "snippet_id")
        }
    }

    /// Private projects' members, the owner first.
    var members: DataLoader<Int64, [UserRecord]> {
        slots.loader(.members) { [database] in
            DataLoader { ids in
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
        }
    }

    var writers: DataLoader<Int64, WriterRecord> {
        slots.loader(.writers) { [database] in
            DataLoader<Int64, WriterRecord> { ids in
                let rows = try await database.query(
                    "SELECT \(WriterRecord.columns) FROM prolific_writers w WHERE w.user_id = ANY($1::bigint[])", [ids])
                var found: [Int64: WriterRecord] = [:]
                for row in rows {
                    let writer = try WriterRecord(row: row)
                    found[writer.userID] = writer
                }
                return ids.map { .success(found[$0] ?? WriterRecord(userID: $0)) }
            }
        }
    }

    var roundPages: DataLoader<OwnedPage, ConnectionPage> {
        slots.loader(.roundPages) {
            KeysetQuery.loader(on: database) {
                KeysetQuery(
                    columns: RoundRecord.columns, from: "FROM rounds r WHERE r.project_id = owner.id", parameters: [],
                    keys: [("r.number", "integer")])
            } node: {
                try RoundRecord(row: $0)
            }
        }
    }

    var userProjectPages: DataLoader<OwnedPage, ConnectionPage> {
        slots.loader(.userProjectPages) { [database, viewerID] in
            KeysetQuery.loader(on: database) {
                KeysetQuery(
                    columns: ProjectRecord.columns,
                    from: "FROM projects p WHERE p.owner_id = owner.id AND \(ProjectRecord.visible(toViewerAt: 1))",
                    parameters: [viewerID], keys: [("p.created_at", "timestamptz"), ("p.id", "bigint")], descending: true)
            } node: {
                try ProjectRecord(row: $0)
            }
        }
    }

    var userSnippetPages: DataLoader<OwnedPage, ConnectionPage> {
        slots.loader(.userSnippetPages) { [database, viewerID] in
            KeysetQuery.loader(on: database) {
                KeysetQuery(
                    columns: SnippetRecord.columns,
                    from:
                        "FROM snippets s JOIN projects p ON p.id = s.project_id WHERE s.author_id = owner.id AND \(ProjectRecord.visible(toViewerAt: 1))",
                    parameters: [viewerID], keys: [("s.created_at", "timestamptz"), ("s.id", "bigint")], descending: true)
            } node: {
                try SnippetRecord(row: $0)
            }
        }
    }
}

extension RequestContext {
    /// The operation's Prolific loaders.
    var prolific: ProlificLoaders { loaders(ProlificLoaders.self) }
}
