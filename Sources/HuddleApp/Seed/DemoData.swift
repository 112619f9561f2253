import Foundation
import HuddleRuntime

/// Deterministic Playmate data: the same rows every time for a scale, so
/// that demos, screenshots and benchmarks agree. Pseudo-random choices come
/// from md5 of the row number (`pick`), not from random().
public enum DemoData {
    public enum Scale: String, CaseIterable, Sendable {
        /// A small, realistic set for the README's serve command and the Playground.
        case demo
        /// 10,000 users, 2,000 locations, 20,000 sessions of 2 to 10 players.
        case bench

        var users: Int { self == .demo ? 40 : 10_000 }
        var locations: Int { self == .demo ? 12 : 2_000 }
        var sessions: Int { self == .demo ? 60 : 20_000 }
    }

    /// Every seeded account's password.
    public static let password = "playmate-demo"

    public struct Summary: Sendable, CustomStringConvertible {
        public var users, locations, sessions, players: Int
        public var description: String {
            "\(users) users, \(locations) locations, \(sessions) sessions with \(players) players"
        }
    }

    public struct SeedError: Error, CustomStringConvertible {
        public var description: String
    }

    /// A number in [0, 1) from md5 of `key`, as SQL.
    private static func pick(_ key: String) -> String {
        "(('x' || substr(md5(\(key)), 1, 8))::bit(32)::bigint / 4294967296.0)"
    }

    /// Seeds an empty database (one with no users) in one transaction.
    public static func seed(_ scale: Scale, into database: PostgresPool) async throws -> Summary {
        let hash = await database.loop.runInThreadPool { PasswordHash.make(password) }
        return try await database.withTransaction { connection in
            guard try await connection.query("SELECT count(*)::int FROM users")[0].decode(Int.self, at: 0) == 0 else {
                throw SeedError(description: "the database has users already; seed an empty database")
            }
            let firstNames = ["Ana", "Bo", "Chen", "Dara", "Eli", "Fatima", "Gus", "Hana", "Ivan", "Jade", "Kofi", "Lena", "Milo", "Nia", "Omar", "Priya"]
            let lastNames = ["Lima", "Berg", "Wu", "Okafor", "Novak", "Haddad", "Moreau", "Sato", "Ivanov", "Reyes", "Mensah", "Fischer"]
            let places = ["Central Park", "Prospect Park", "Riverside Courts", "McCarren Park", "Chelsea Piers", "Pier 40 Fields",
                          "Randall's Island", "Flushing Meadows", "Van Cortlandt Park", "Hudson River Park", "Brooklyn Bridge Park", "Astoria Park"]
            let sports = ["BADMINTON", "BASKETBALL", "CLIMBING", "CYCLING", "FOOTBALL", "HIKING", "RUNNING", "SOCCER", "SQUASH",
                          "SWIMMING", "TABLE_TENNIS", "TENNIS", "ULTIMATE", "VOLLEYBALL", "YOGA"]
            // Coordinates are kept to six decimals (about 10 cm), as apps and maps give them.
            _ = try await connection.query(
                """
                INSERT INTO users (username, email, password_hash, first_name, last_name, gender, birthday, biography,
                                   home_latitude, home_longitude)
                SELECT CASE WHEN i = 1 THEN 'demo' ELSE 'player' || i END,
                       CASE WHEN i = 1 THEN 'demo@example.com' ELSE 'player' || i || '@example.com' END,
                       $1, ($2::text[])[1 + i % array_length($2::text[], 1)], ($3::text[])[1 + (i / 7) % array_length($3::text[], 1)],
                       (ARRAY['FEMALE', 'MALE', 'NON_BINARY', 'FEMALE', 'MALE'])[1 + i % 5],
                       DATE '1965-01-01' + (\(pick("i || ':birthday'")) * 15000)::int,
                       'Plays for fun.', round((40.60 + \(pick("i || ':lat'")) * 0.25)::numeric, 6),
                       round((-74.05 + \(pick("i || ':lng'")) * 0.20)::numeric, 6)
                FROM generate_series(1, $4::int) AS i
                """, [hash, firstNames, lastNames, scale.users])
            _ = try await connection.query(
                """
                INSERT INTO locations (name, latitude, longitude)
                SELECT ($1::text[])[1 + (i - 1) % array_length($1::text[], 1)]
                       || CASE WHEN i > array_length($1::text[], 1) THEN ' ' || (i - 1) / array_length($1::text[], 1) + 1 ELSE '' END,
                       round((40.60 + \(pick("i || ':location-lat'")) * 0.25)::numeric, 6),
                       round((-74.05 + \(pick("i || ':location-lng'")) * 0.20)::numeric, 6)
                FROM generate_series(1, $2::int) AS i
                """, [places, scale.locations])
            // Sessions over the next four weeks, at whole quarter hours.
            _ = try await connection.query(
                """
                INSERT INTO sports_sessions (sport, skill_level, creator_id, location_id, latitude, longitude, occurs_at, duration_minutes, capacity)
                SELECT ($1::text[])[1 + (\(pick("i || ':sport'")) * array_length($1::text[], 1))::int % array_length($1::text[], 1)],
                       (ARRAY['BEGINNER', 'INTERMEDIATE', 'ADVANCED', 'ANY'])[1 + i % 4],
                       u.id, l.id, l.latitude, l.longitude,
                       date_trunc('hour', now()) + interval '1 day' + ((\(pick("i || ':when'")) * 2688)::int * interval '15 minutes'),
                       (ARRAY[45, 60, 90, 120])[1 + i % 4], 2 + floor(\(pick("i || ':capacity'")) * 9)::int
                FROM generate_series(1, $2::int) AS i
                JOIN users u ON u.id = 1 + (\(pick("i || ':creator'")) * $3::int)::int % $3::int
                JOIN locations l ON l.id = 1 + (\(pick("i || ':location'")) * $4::int)::int % $4::int
                """, [sports, scale.sessions, scale.users, scale.locations])
            // The creator plays, and 1 to capacity - 1 others join: players
            // creator + j·step for a step per session, all distinct.
            _ = try await connection.query("INSERT INTO session_players (session_id, user_id) SELECT id, creator_id FROM sports_sessions")
            _ = try await connection.query(
                """
                INSERT INTO session_players (session_id, user_id)
                SELECT s.id, 1 + (s.creator_id - 1 + j * (1 + s.id % 3)) % $1::int
                FROM sports_sessions s, generate_series(1, 9) AS j
                WHERE j <= 1 + (\(pick("s.id || ':players'")) * (s.capacity - 1))::int % (s.capacity - 1)
                """, [scale.users])
            // Friends: each player with the next few, and the demo account with the first ten.
            _ = try await connection.query(
                """
                INSERT INTO friendships (user_id, friend_id)
                SELECT a, b FROM (
                    SELECT u.id AS a, 1 + (u.id + k - 1) % $1::int AS b FROM users u, generate_series(1, 3) AS k
                    UNION SELECT 1, id FROM users WHERE id BETWEEN 2 AND 11
                ) AS pairs WHERE a <> b
                UNION SELECT b, a FROM (
                    SELECT u.id AS a, 1 + (u.id + k - 1) % $1::int AS b FROM users u, generate_series(1, 3) AS k
                    UNION SELECT 1, id FROM users WHERE id BETWEEN 2 AND 11
                ) AS pairs WHERE a <> b
                ON CONFLICT DO NOTHING
                """, [scale.users])
            _ = try await connection.query(
                """
                INSERT INTO quiz_results (user_id, sports_played, sports_not_wanted, preferred_genders, preferred_age_groups)
                VALUES (1, ARRAY['TENNIS', 'SOCCER'], ARRAY['GOLF'], ARRAY['FEMALE', 'NON_BINARY'], ARRAY['AGE_25_34', 'AGE_35_44'])
                """)
            // A friend request and an invitation waiting for the demo account.
            if scale.users > 20 {
                _ = try await connection.query("INSERT INTO friend_requests (from_user, to_user) VALUES (20, 1)")
                _ = try await connection.query(
                    """
                    INSERT INTO invitations (session_id, from_user, to_user)
                    SELECT s.id, s.creator_id, 1 FROM sports_sessions s
                    WHERE s.creator_id BETWEEN 2 AND 11 AND s.occupied < s.capacity
                      AND NOT EXISTS (SELECT 1 FROM session_players p WHERE p.session_id = s.id AND p.user_id = 1)
                    ORDER BY s.occurs_at LIMIT 2
                    """)
            }
            // Fresh statistics, or the planner guesses from empty tables.
            _ = try await connection.query("ANALYZE")
            let counts = try await connection.query(
                "SELECT (SELECT count(*) FROM users)::int, (SELECT count(*) FROM locations)::int, (SELECT count(*) FROM sports_sessions)::int, (SELECT count(*) FROM session_players)::int")[0]
            return Summary(users: try counts.decode(at: 0), locations: try counts.decode(at: 1), sessions: try counts.decode(at: 2), players: try counts.decode(at: 3))
        }
    }
}
