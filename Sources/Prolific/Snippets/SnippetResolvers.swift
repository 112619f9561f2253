import Foundation
import GraphQL
import HuddleCore
import HuddlePostgres

/// Snippets: their fields, submitting, voting and unvoting.
enum SnippetResolvers {
    /// The longest snippet, in characters (the SDL's docs and its first migration say the same).
    static let maxLength = 1000

    static func bind(_ binder: inout SchemaBinder) {
        binder.field("Snippet", "id") { (snippet: SnippetRecord) in GlobalID.value("Snippet", snippet.id) }
        binder.field("Snippet", "text") { (snippet: SnippetRecord) in .scalar(.string(snippet.text)) }
        binder.field("Snippet", "picture") { (snippet: SnippetRecord, input: ResolverInput) in
            ProlificPictures.resolve(snippet.picture, input)
        }
        binder.field("Snippet", "isEnding") { (snippet: SnippetRecord) in .scalar(.boolean(snippet.isEnding)) }
        binder.field("Snippet", "createdAt") { (snippet: SnippetRecord) in Instant.value(snippet.createdAt) }
        binder.field("Snippet", "author") { (snippet: SnippetRecord, input) in
            guard let author = snippet.authorID else { return .object(UserRecord.deleted) }
            return input.request.loaders.users(for: input.info, answeredByID: WriterResolvers.userFieldsByID).load(author) {
                $0.map { .object($0) } ?? .null
            }
        }
        binder.field("Snippet", "round") { (snippet: SnippetRecord, input) in
            input.request.prolific.rounds.load(snippet.roundID) { $0.map { .object($0) } ?? .null }
        }
        binder.field("Snippet", "project") { (snippet: SnippetRecord, input) in
            input.request.prolific.projects.load(snippet.projectID) { $0.map { .object($0) } ?? .null }
        }
        // A round's ranked snippets come with their counts; others count
        // through one loader.
        binder.field("Snippet", "voteCount") { (snippet: SnippetRecord, input) in
            if let count = snippet.count { return .scalar(.int(count.votes)) }
            return input.request.prolific.counts.load(snippet.id) { .scalar(.int($0.votes)) }
        }
        binder.field("Snippet", "score") { (snippet: SnippetRecord, input) in
            if let count = snippet.count { return .scalar(.float(count.score)) }
            return input.request.prolific.counts.load(snippet.id) { .scalar(.float($0.score)) }
        }
        binder.field("Snippet", "viewerVoted") { (snippet: SnippetRecord, input) in
            input.request.prolific.viewerVotes.load(snippet.id) { .scalar(.boolean($0)) }
        }
        binder.field("Snippet", "isWinner") { (snippet: SnippetRecord, input) in
            if let count = snippet.count { return .scalar(.boolean(count.isWinner)) }
            return input.request.prolific.counts.load(snippet.id) { .scalar(.boolean($0.isWinner)) }
        }
        binder.bindConnection("SnippetConnection", edge: "SnippetEdge")
        binder.root("Query", "snippet") { input in
            guard let id = GlobalID.decode(input.string("id") ?? ""), id.type == "Snippet" else { return .null }
            let context = input.request
            return input.request.prolific.snippets.load(id.id) { snippet in
                guard let snippet else { return .null }
                ActivityResolvers.viewed(snippet, context)
                return .object(snippet)
            }
        }
        binder.rootAsync("Mutation", "submitSnippet", submit)
        binder.rootAsync("Mutation", "vote") { input in try await vote(input, voting: true) }
        binder.rootAsync("Mutation", "unvote") { input in try await vote(input, voting: false) }
    }

    static func load(_ id: Int64, on database: some PostgresQuerying) async throws -> SnippetRecord {
        let rows = try await database.query("SELECT \(SnippetRecord.columns) FROM snippets s WHERE s.id = $1", [id])
        guard let row = rows.first else { throw APIError.notFound("No snippet has that id.") }
        return try SnippetRecord(row: row)
    }

    private static func submit(_ input: ResolverInput) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let roundID = try input.id("roundId", of: "Round")
        let text = input.string("text") ?? ""
        guard (1...maxLength).contains(text.count), !text.allSatisfy(\.isWhitespace) else {
            throw APIError.badInput("\"text\" must be 1 to \(maxLength) characters and not only spaces.")
        }
        let isEnding = input.argument("isEnding")?.boolValue ?? false
        let picture = input.string("picture")
        return try await ProlificErrors.translating {
            try await input.request.database.withTransaction { connection in
                let rows = try await connection.query(
                    """
                    SELECT r.project_id, r.completed_at IS NOT NULL FROM rounds r JOIN projects p ON p.id = r.project_id
                    WHERE r.id = $1 AND \(ProjectRecord.visible(toViewerAt: 2))
                    """, [roundID, viewer])
                guard let round = rows.first else { throw APIError.notFound("No round has that id.") }
                guard try !round.decode(Bool.self, at: 1) else {
                    throw APIError.badInput(ProlificErrors.roundEndedForSnippets)
                }
                let project = try round.decode(Int64.self, at: 0)
                let pictureID = try await picture.asyncMap { upload in
                    try await ProlificPictures.claim(upload, by: viewer, inProject: project, on: connection)
                }
                do {
                    let inserted = try await connection.query(
                        """
                        INSERT INTO snippets (round_id, project_id, author_id, text, is_ending, picture_id)
                        VALUES ($1, $2, $3, $4, $5, $6) RETURNING id
                        """,
                        [roundID, project, viewer, text, isEnding, pictureID])
                    return .object(try await load(try inserted[0].decode(Int64.self, at: 0), on: connection))
                } catch let error as PostgresError where error.kind == .uniqueViolation {
                    throw APIError.badInput("You have submitted a snippet to this round already.")
                }
            }
        }
    }

    private static func vote(_ input: ResolverInput, voting: Bool) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let snippetID = try input.id("snippetId", of: "Snippet")
        return try await ProlificErrors.translating(roundEnded: ProlificErrors.roundEndedForVotes) {
            try await input.request.database.withTransaction { connection in
                let rows = try await connection.query(
                    """
                    SELECT \(SnippetRecord.columns), r.completed_at IS NOT NULL, p.title
                    FROM snippets s JOIN rounds r ON r.id = s.round_id JOIN projects p ON p.id = s.project_id
                    WHERE s.id = $1 AND \(ProjectRecord.visible(toViewerAt: 2))
                    """, [snippetID, viewer])
                guard let row = rows.first else { throw APIError.notFound("No snippet has that id.") }
                let snippet = try SnippetRecord(row: row)
                guard try !row.decode(Bool.self, at: SnippetRecord.columnCount) else {
                    throw APIError.badInput(ProlificErrors.roundEndedForVotes)
                }
                if voting {
                    guard snippet.authorID != viewer else { throw APIError.badInput("You cannot vote for your own snippet.") }
                    let inserted = try await connection.query(
                        "INSERT INTO votes (snippet_id, round_id, voter_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING voter_id",
                        [snippetID, snippet.roundID, viewer])
                    guard !inserted.isEmpty else { throw APIError.badInput("You have voted for this snippet already.") }
                    if let author = snippet.authorID {
                        try await Notifications.record(
                            .snippetVoted, for: author, actor: viewer, subject: NodeReference("Snippet", snippetID),
                            scope: NodeReference("Project", snippet.projectID),
                            message: "Your snippet in \"\(try row.decode(String.self, at: SnippetRecord.columnCount + 1))\" got a vote.",
                            on: connection)
                    }
                } else {
                    let deleted = try await connection.query(
                        "DELETE FROM votes WHERE snippet_id = $1 AND voter_id = $2", [snippetID, viewer])
                    guard deleted.affectedRows > 0 else { throw APIError.badInput("You have not voted for this snippet.") }
                }
                return .object(snippet)
            }
        }
    }
}
