import Foundation
import HuddleCore
import HuddlePostgres
import HuddleRuntime

/// A round's end, done once by the durable scheduler in the transaction
/// that claimed it: count the weighted votes, keep the count, name the
/// winner (which awards its karma, by trigger), then open the next round or
/// complete the project, and tell followers and writers. A round nobody
/// wrote in gets another round length instead.
enum RoundEnd {
    static let kind = "prolific.round-end"

    static let work = ScheduledWork(kind) { round, connection in try await end(round, on: connection) }

    /// The channel of a project's round ends; a payload is `payload`'s.
    static func channel(forProject project: Int64) -> String { "huddle_project_\(project)" }

    /// A round end's notification: the round, its winner, and the round
    /// opened after it (none when the project is complete), so that its
    /// subscribers need not read them back. Servers before this one sent
    /// the round's id alone.
    static func payload(round: Int64, winner: Int64, next: Int64?) -> String {
        "\(round) \(winner)" + (next.map { " \($0)" } ?? "")
    }

    /// Opens round `number` of `project`, ending `minutes` from now, and
    /// schedules its end, in the caller's transaction; returns its id.
    @discardableResult
    static func open(round number: Int, of project: Int64, minutes: Int, on connection: PostgresConnection) async throws -> Int64 {
        let rows = try await connection.query(
            """
            INSERT INTO rounds (project_id, number, started_at, ends_at)
            VALUES ($1, $2, clock_timestamp(), clock_timestamp() + $3 * interval '1 minute') RETURNING id, ends_at
            """, [project, number, minutes])
        let id = try rows[0].decode(Int64.self, at: 0)
        try await Scheduler.schedule(kind, subject: id, at: try rows[0].decode(Date.self, at: 1), on: connection)
        return id
    }

    static func end(_ roundID: Int64, on connection: PostgresConnection) async throws -> ScheduledWork.Outcome {
        // FOR UPDATE waits for votes and snippets in flight (they hold the
        // row FOR SHARE) and makes later ones wait, then fail: each is in
        // the count or refused.
        let rows = try await connection.query(
            """
            SELECT r.project_id, r.number, r.ends_at, r.completed_at IS NOT NULL, r.ends_at <= clock_timestamp(),
                   p.round_minutes, p.round_limit, p.title
            FROM rounds r JOIN projects p ON p.id = r.project_id WHERE r.id = $1 FOR UPDATE OF r
            """, [roundID])
        guard let round = rows.first else { return .done }
        let projectID = try round.decode(Int64.self, at: 0)
        let number = try round.decode(Int.self, at: 1)
        let endsAt = try round.decode(Date.self, at: 2)
        guard try !round.decode(Bool.self, at: 3) else { return .done }
        guard try round.decode(Bool.self, at: 4) else { return .again(at: endsAt) }
        let minutes = try round.decode(Int.self, at: 5)
        let roundLimit = try round.decode(Int?.self, at: 6)
        let title = try round.decode(String.self, at: 7)

        let counted = try await connection.query(
            """
            SELECT c.snippet_id, c.votes, c.score, s.is_ending, s.author_id
            FROM prolific_snippet_scores(ARRAY[$1::bigint]) c JOIN snippets s ON s.id = c.snippet_id
            ORDER BY c.score DESC, c.votes DESC, s.created_at, s.id
            """, [roundID])
        guard let winner = counted.first else {
            let extended = try await connection.query(
                """
                UPDATE rounds SET ends_at = greatest(ends_at, clock_timestamp()) + $2 * interval '1 minute', extensions = extensions + 1
                WHERE id = $1 RETURNING ends_at
                """, [roundID, minutes])
            return .again(at: try extended[0].decode(Date.self, at: 0))
        }
        let winnerID = try winner.decode(Int64.self, at: 0)
        let winnerAuthor = try winner.decode(Int64?.self, at: 4)
        // The count as it was made, kept: the same rows, not counted again.
        _ = try await connection.query(
            """
            INSERT INTO snippet_results (snippet_id, round_id, votes, score)
            SELECT snippet, $1, votes, score FROM unnest($2::bigint[], $3::int[], $4::float8[]) AS c(snippet, votes, score)
            """,
            [
                roundID, try counted.map { try $0.decode(Int64.self, at: 0) }, try counted.map { try $0.decode(Int.self, at: 1) },
                try counted.map { try $0.decode(Double.self, at: 2) },
            ])
        _ = try await connection.query(
            "UPDATE rounds SET completed_at = clock_timestamp(), winner_id = $2 WHERE id = $1", [roundID, winnerID])
        let completes = try winner.decode(Bool.self, at: 3) || roundLimit.map { number >= $0 } ?? false
        _ = try await connection.query(
            """
            UPDATE projects SET rounds_completed = rounds_completed + 1,
              completed_at = CASE WHEN $2 THEN clock_timestamp() END WHERE id = $1
            """, [projectID, completes])
        let nextRoundID = completes ? nil : try await open(round: number + 1, of: projectID, minutes: minutes, on: connection)

        // Who hears of it: the project's owner, followers and writers (for
        // a private project all of them members).
        let audience = try await connection.query(
            """
            SELECT owner_id FROM projects WHERE id = $1 AND owner_id IS NOT NULL
            UNION SELECT user_id FROM project_follows WHERE project_id = $1
            UNION SELECT author_id FROM snippets WHERE project_id = $1 AND author_id IS NOT NULL
            """, [projectID]
        ).map { try $0.decode(Int64.self, at: 0) }
        let project = NodeReference("Project", projectID)
        try await Notifications.record(
            .roundEnded, forEach: audience, actor: nil, subject: NodeReference("Round", roundID), scope: project,
            message: "Round \(number) of \"\(title)\" has ended.", on: connection)
        if let winnerAuthor {
            try await Notifications.record(
                .snippetWon, for: winnerAuthor, actor: nil, subject: NodeReference("Snippet", winnerID), scope: project,
                message: "Your snippet won round \(number) of \"\(title)\".", on: connection)
        }
        if completes {
            try await Notifications.record(
                .projectCompleted, forEach: audience, actor: nil, subject: project,
                message: "\"\(title)\" is complete.", on: connection)
        }
        _ = try await connection.query(
            "SELECT pg_notify($1, $2)",
            [channel(forProject: projectID), payload(round: roundID, winner: winnerID, next: nextRoundID)])
        return .done
    }
}
