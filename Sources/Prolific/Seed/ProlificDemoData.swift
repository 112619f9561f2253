import HuddleCore
import HuddlePostgres
import HuddleRuntime

/// Prolific's demo data: starter projects whose first lines were written
/// for Huddle, each with finished rounds (winners, counts, karma) and an
/// open round taking snippets and votes; the demo account follows some,
/// writes in some and owns a private one. `bench` is 2,000 projects with
/// 20,000 rounds, 200,000 snippets and 1,000,000 votes.
///
/// Rows go in set by set rather than through the per-row triggers (a
/// million votes each updating its project would take minutes): the
/// triggers that check a write against an open round and keep totals are
/// off for the seeding transaction only, the data is made to satisfy what
/// they check, and the totals they keep (karma, followers, activity) are
/// computed from the rows afterwards, as the triggers would have.
enum ProlificDemoData {
    struct Shape {
        var projects: Int
        /// Finished rounds of project `i`, as SQL over `i`.
        var finishedRounds: String
        /// Snippets in round `n` of project `i`, as SQL over `i` and `n`.
        var snippetsPerRound: String
        /// Votes for snippet `s`, as SQL over `s.id`.
        var votesPerSnippet: String
    }

    static func shape(_ scale: DemoScale) -> Shape {
        switch scale {
        case .demo:
            Shape(projects: 12, finishedRounds: "i % 5", snippetsPerRound: "3 + (i + n) % 3", votesPerSnippet: "s.id % 5")
        case .bench:
            Shape(projects: 2_000, finishedRounds: "9", snippetsPerRound: "10", votesPerSnippet: "5")
        }
    }

    static let titles = [
        "The Lighthouse Keeper's Ledger", "Salt and Static", "Nine Doors in Brooklyn", "What the Tide Left",
        "The Last Cartographer", "Orchard at the End of the Line", "A Museum of Small Hours", "Paper Moons Over Quay Street",
        "The Night Bus Society", "Ghosts of the Coin Laundry", "Weather for Beginners", "The Clockmaker's Apprentice",
    ]

    static let firstLines = [
        "Every night at nine the lighthouse keeper wrote down one lie, and every morning one of them had come true.",
        "The radio in the kitchen had been off for three years when it started reading out our names.",
        "There were nine doors on our street, and only the blue one had never been opened by anyone we knew.",
        "When the tide went out that Tuesday it forgot to take a piano with it.",
        "Mira drew the last map of the world the day the roads began to move.",
        "The orchard was the final stop on the line, and the conductor always got off there alone.",
        "The museum only opened between three and four in the morning, and it only exhibited things people had lost.",
        "Above Quay Street hung three paper moons, and the baker swore one of them was new.",
        "The night bus stopped at a station that was not on any map, and the driver said, 'Your stop, miss.'",
        "Someone in the coin laundry kept leaving socks that were still warm and did not belong to anyone.",
        "The forecast said sunny with a chance of old friends, and by noon it was pouring with them.",
        "The apprentice was told never to wind the tall clock in the attic, so of course she did it on her first night.",
    ]

    static let continuations = [
        "Nobody in town admitted to noticing, which was how everyone knew it was serious.",
        "She wrote it down anyway, because the notebook had started writing back.",
        "By the second week the neighbours had formed a committee, and the committee had formed a theory.",
        "The cat, as usual, had known all along and was not impressed by any of us.",
        "A letter arrived with no stamp, addressed in handwriting that was unmistakably my own.",
        "It would have been simpler to leave, but simple had never been our family's strength.",
        "Underneath the floorboards was a staircase that went down further than the house was tall.",
        "The old man only laughed and said this had happened once before, in 1962, and it had ended with a wedding.",
        "That was when the rain started falling upwards, gently, as if apologising.",
        "We agreed to tell no one, and by dinner the whole street was standing in our garden.",
        "The map had changed again: a river now ran exactly where the argument had been.",
        "Somewhere below, the clock struck thirteen and the house held its breath.",
        "The stranger asked for directions to a place we had all been told never existed.",
        "I put the key in my pocket, and it was warm, like it had been waiting for a hand.",
        "It was the kind of silence that has footsteps in it.",
        "The ending, she decided, could wait until the kettle boiled.",
    ]

    /// The triggers the seed stands in for (see above).
    static let triggers = [
        ("projects", "projects_after_insert"), ("snippets", "snippets_before_insert"), ("snippets", "snippets_after_insert"),
        ("rounds", "rounds_before_update"), ("rounds", "rounds_after_end"), ("votes", "votes_check"),
        ("project_follows", "project_follows_change"), ("karma_awards", "karma_awards_total"),
    ]

    static func seed(_ scale: DemoScale, users: Int, on connection: PostgresConnection) async throws -> String {
        let shape = shape(scale)
        try await DemoData.setTriggers(triggers, enabled: false, on: connection)
        // Projects: paces mostly NORMAL, every fourth SPEED (so a demo sees
        // rounds end), created so that the open round is part-way through.
        _ = try await connection.query(
            """
            INSERT INTO projects (owner_id, title, seed, pace, round_minutes, round_limit, is_private, created_at)
            SELECT owner, title, seed, pace, minutes, round_limit, private,
                   now() - ((\(shape.finishedRounds)) + 0.2 + 0.6 * \(pick("i || ':started'"))) * minutes * interval '1 minute'
            FROM (
                SELECT i,
                       CASE WHEN $1 = 'demo' AND i IN (2, 5, 9) THEN 1 ELSE 1 + (\(pick("i || ':owner'")) * $2::int)::int % $2::int END AS owner,
                       ($3::text[])[1 + (i - 1) % array_length($3::text[], 1)]
                         || CASE WHEN i > array_length($3::text[], 1) THEN ' ' || ((i - 1) / array_length($3::text[], 1) + 1) ELSE '' END AS title,
                       ($4::text[])[1 + (i - 1) % array_length($4::text[], 1)] AS seed,
                       CASE WHEN i % 4 = 0 THEN 'SPEED' ELSE 'NORMAL' END AS pace,
                       CASE WHEN i % 4 = 0 THEN 10 ELSE 1440 END AS minutes,
                       CASE WHEN i % 3 = 0 THEN 12 END AS round_limit,
                       $1 = 'demo' AND i = 9 AS private
                FROM generate_series(1, $5::int) AS i
            ) p
            """, [scale.rawValue, users, titles, firstLines, shape.projects])
        _ = try await connection.query(
            "INSERT INTO project_members (project_id, user_id, joined_at) SELECT id, owner_id, created_at FROM projects")
        if scale == .demo {
            // Covers for the first projects and the demo account's private one.
            for row in try await connection.query("SELECT id, is_private FROM projects WHERE id <= 4 OR is_private ORDER BY id") {
                let project = try row.decode(Int64.self, at: 0)
                let cover = try await DemoPictures.store(
                    Int(project) + 3, owner: nil, purpose: "prolific", isPrivate: try row.decode(Bool.self, at: 1), on: connection)
                _ = try await connection.query("UPDATE projects SET cover_id = $2 WHERE id = $1", [project, cover])
            }
        }
        // The demo account's private project has three other writers.
        _ = try await connection.query(
            """
            INSERT INTO project_members (project_id, user_id, invited_by)
            SELECT p.id, m, p.owner_id FROM projects p, generate_series(2, 4) AS m WHERE p.is_private AND p.owner_id <> m
            """)
        // Rounds: the finished ones, then one open.
        _ = try await connection.query(
            """
            INSERT INTO rounds (project_id, number, started_at, ends_at, completed_at)
            SELECT p.id, n, p.created_at + (n - 1) * p.round_minutes * interval '1 minute',
                   p.created_at + n * p.round_minutes * interval '1 minute',
                   CASE WHEN n <= f THEN p.created_at + n * p.round_minutes * interval '1 minute' END
            FROM (SELECT p.*, (\(shape.finishedRounds))::int AS f FROM (SELECT *, id AS i FROM projects) p) p,
                 generate_series(1, p.f + 1) AS n
            """)
        // Snippets: distinct authors per round (members only in a private
        // project), written in the first half of the round.
        _ = try await connection.query(
            """
            INSERT INTO snippets (round_id, project_id, author_id, text, is_ending, created_at)
            SELECT r.id, r.project_id,
                   CASE WHEN p.is_private THEN (SELECT m.user_id FROM project_members m WHERE m.project_id = p.id
                                                ORDER BY m.user_id OFFSET (j - 1) % 4 LIMIT 1)
                        ELSE 1 + (r.project_id * 7 + r.number * 13 + j - 1) % $1::int END,
                   ($2::text[])[1 + (r.project_id + r.number * 3 + j) % array_length($2::text[], 1)],
                   false,
                   least(r.started_at + (j * 0.5 / 12) * (r.ends_at - r.started_at), now())
            FROM rounds r JOIN projects p ON p.id = r.project_id, LATERAL (SELECT p.id AS i, r.number AS n) AS x,
                 generate_series(1, least(\(shape.snippetsPerRound), CASE WHEN p.is_private THEN 4 ELSE 12 END)) AS j
            """, [users, continuations])
        // Votes: distinct voters per snippet, never its author (members only
        // in a private project).
        _ = try await connection.query(
            """
            INSERT INTO votes (snippet_id, round_id, voter_id, created_at)
            SELECT s.id, s.round_id, voter, least(s.created_at + v * interval '1 minute', now())
            FROM snippets s JOIN projects p ON p.id = s.project_id,
                 generate_series(1, \(shape.votesPerSnippet)) AS v,
                 LATERAL (SELECT CASE WHEN p.is_private THEN 2 + (s.author_id + v) % 3
                                      ELSE 1 + (s.author_id - 1 + v * 37) % $1::int END AS voter) AS who
            WHERE voter <> s.author_id
            ON CONFLICT DO NOTHING
            """, [users])
        // The demo account follows five projects.
        _ = try await connection.query(
            "INSERT INTO project_follows (project_id, user_id) SELECT id, 1 FROM projects WHERE id <= 12 AND id % 2 = 1 AND NOT is_private")
        _ = try await connection.query(
            """
            INSERT INTO project_follows (project_id, user_id)
            SELECT p.id, 1 + (p.id * 11 + k) % $1::int FROM projects p, generate_series(1, 3) AS k WHERE NOT p.is_private
            ON CONFLICT DO NOTHING
            """, [users])
        try await award("SELECT owner_id, 'PROJECT_CREATED', id, 5, created_at FROM projects", on: connection)
        try await countFinishedRounds(on: connection)
        try await awardWriting(inRounds: "completed_at IS NULL", on: connection)
        try await computeActivity(on: connection)
        // Two weeks of page views (one hour a day each), so an owner's activity has something to show.
        _ = try await connection.query(
            """
            INSERT INTO project_view_hours (project_id, hour, views)
            SELECT p.id, date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - make_interval(days => d) + interval '14 hours',
                   1 + (p.id * 7 + d * 13) % 23
            FROM projects p, generate_series(1, 14) AS d
            WHERE p.created_at < date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - make_interval(days => d)
            """)
        _ = try await connection.query(
            "INSERT INTO scheduled_jobs (kind, subject_id, due_at) SELECT $1, id, ends_at FROM rounds WHERE completed_at IS NULL",
            [RoundEnd.kind])
        try await DemoData.setTriggers(triggers, enabled: true, on: connection)
        let counts = try await connection.query(
            """
            SELECT (SELECT count(*) FROM projects)::int, (SELECT count(*) FROM rounds)::int,
                   (SELECT count(*) FROM snippets)::int, (SELECT count(*) FROM votes)::int
            """)[0]
        return
            "\(try counts.decode(Int.self, at: 0)) projects, \(try counts.decode(Int.self, at: 1)) rounds, \(try counts.decode(Int.self, at: 2)) snippets, \(try counts.decode(Int.self, at: 3)) votes"
    }

    /// Counts the finished rounds in the order they ended (each count sees
    /// the karma of the rounds before), as the round end does.
    private static func countFinishedRounds(on connection: PostgresConnection) async throws {
        let numbers = try await connection.query("SELECT DISTINCT number FROM rounds WHERE completed_at IS NOT NULL ORDER BY number")
        for row in numbers {
            let number = try row.decode(Int.self, at: 0)
            // The karma the round's own snippets and votes earned, before it is counted.
            try await awardWriting(inRounds: "number = \(number) AND completed_at IS NOT NULL", on: connection)
            _ = try await connection.query(
                """
                INSERT INTO snippet_results (snippet_id, round_id, votes, score)
                SELECT c.snippet_id, c.round_id, c.votes, c.score
                FROM prolific_snippet_scores(ARRAY(SELECT id FROM rounds WHERE number = $1 AND completed_at IS NOT NULL)) c
                """, [number])
            _ = try await connection.query(
                """
                UPDATE rounds r SET winner_id = w.snippet_id FROM (
                    SELECT DISTINCT ON (res.round_id) res.round_id, res.snippet_id
                    FROM snippet_results res JOIN snippets s ON s.id = res.snippet_id JOIN rounds x ON x.id = res.round_id
                    WHERE x.number = $1
                    ORDER BY res.round_id, res.score DESC, res.votes DESC, s.created_at, s.id
                ) w WHERE r.id = w.round_id
                """, [number])
            _ = try await connection.query(
                """
                INSERT INTO voter_rounds (voter_id, round_id, completed_at, authors)
                SELECT v.voter_id, v.round_id, r.completed_at, array_agg(DISTINCT s.author_id)
                FROM votes v JOIN snippets s ON s.id = v.snippet_id JOIN rounds r ON r.id = v.round_id
                WHERE r.number = $1 AND r.completed_at IS NOT NULL GROUP BY v.voter_id, v.round_id, r.completed_at
                """, [number])
            _ = try await connection.query(
                """
                SELECT prolific_refresh_habits(ARRAY(
                    SELECT DISTINCT v.voter_id FROM votes v JOIN rounds r ON r.id = v.round_id
                    WHERE r.number = $1 AND r.completed_at IS NOT NULL))
                """, [number])
            // The wins, so that the next rounds' votes weigh as they would have.
            try await award(
                """
                SELECT s.author_id, 'ROUND_WON', r.id, 10, r.completed_at FROM rounds r JOIN snippets s ON s.id = r.winner_id
                WHERE r.number = \(number) AND r.completed_at IS NOT NULL
                """, on: connection)
        }
        _ = try await connection.query(
            """
            UPDATE projects p SET rounds_completed = f.finished,
              completed_at = CASE WHEN p.round_limit IS NOT NULL AND f.finished >= p.round_limit THEN f.last END
            FROM (SELECT project_id, count(*)::int AS finished, max(completed_at) AS last FROM rounds
                  WHERE completed_at IS NOT NULL GROUP BY project_id) f
            WHERE f.project_id = p.id
            """)
    }

    /// The awards for the snippets and votes of the rounds matching `condition` (on `rounds`).
    private static func awardWriting(inRounds condition: String, on connection: PostgresConnection) async throws {
        try await award(
            "SELECT s.author_id, 'SNIPPET_SUBMITTED', s.id, 2, s.created_at FROM snippets s JOIN rounds r ON r.id = s.round_id WHERE r.\(condition)",
            on: connection)
        try await award(
            """
            SELECT v.voter_id, 'VOTED', v.round_id, 1, min(v.created_at) FROM votes v JOIN rounds r ON r.id = v.round_id
            WHERE r.\(condition) GROUP BY v.voter_id, v.round_id
            """, on: connection)
    }

    /// Adds the awards `select` lists (user, reason, subject, points, time)
    /// to the ledger and their points to the writers' totals, as the
    /// ledger's trigger would, in one statement.
    private static func award(_ select: String, on connection: PostgresConnection) async throws {
        _ = try await connection.query(
            """
            WITH added AS (
                INSERT INTO karma_awards (user_id, reason, subject_id, points, created_at) \(select)
                ON CONFLICT DO NOTHING RETURNING user_id, reason, points
            )
            INSERT INTO prolific_writers AS w (user_id, karma, projects_created, snippets_submitted, votes_rounds, rounds_won)
            SELECT user_id, sum(points),
                   count(*) FILTER (WHERE reason = 'PROJECT_CREATED'), count(*) FILTER (WHERE reason = 'SNIPPET_SUBMITTED'),
                   count(*) FILTER (WHERE reason = 'VOTED'), count(*) FILTER (WHERE reason = 'ROUND_WON')
            FROM added GROUP BY user_id
            ON CONFLICT (user_id) DO UPDATE SET karma = w.karma + EXCLUDED.karma,
              projects_created = w.projects_created + EXCLUDED.projects_created,
              snippets_submitted = w.snippets_submitted + EXCLUDED.snippets_submitted,
              votes_rounds = w.votes_rounds + EXCLUDED.votes_rounds, rounds_won = w.rounds_won + EXCLUDED.rounds_won
            """)
    }

    /// Followers, the last activity and its decayed sum (log2, as its first migration keeps it), from the rows.
    private static func computeActivity(on connection: PostgresConnection) async throws {
        _ = try await connection.query(
            """
            UPDATE projects p SET heat = h.top + ln(h.total) / ln(2), last_activity_at = h.last,
              follower_count = (SELECT count(*) FROM project_follows f WHERE f.project_id = p.id)
            FROM (
                SELECT project_id, max(top) AS top, sum(power(2::double precision, e - top)) AS total, max(at) AS last
                FROM (SELECT project_id, e, at, max(e) OVER (PARTITION BY project_id) AS top FROM (
                    SELECT id AS project_id, ln(8) / ln(2) + extract(epoch FROM created_at) / 86400 AS e, created_at AS at FROM projects
                    UNION ALL SELECT project_id, ln(3) / ln(2) + extract(epoch FROM created_at) / 86400, created_at FROM snippets
                    UNION ALL SELECT s.project_id, extract(epoch FROM v.created_at) / 86400, v.created_at
                              FROM votes v JOIN snippets s ON s.id = v.snippet_id
                    UNION ALL SELECT project_id, 1 + extract(epoch FROM created_at) / 86400, created_at FROM project_follows
                ) events) ranked GROUP BY project_id
            ) h WHERE h.project_id = p.id
            """)
    }

    private static func pick(_ key: String) -> String { DemoData.pick(key) }
}
