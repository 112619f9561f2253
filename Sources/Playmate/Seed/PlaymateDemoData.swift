import HuddleCore
import HuddlePostgres
import HuddleRuntime

/// Playmate's demo data: New York's real places, sessions over the last
/// four weeks (the players' history and statistics) and the next four with
/// their players, the demo account's quiz, and invitations waiting for it.
enum PlaymateDemoData {
    static func locations(_ scale: DemoScale) -> Int { scale == .demo ? 12 : 2_000 }
    static func sessions(_ scale: DemoScale) -> Int { scale == .demo ? 60 : 20_000 }

    static func seed(_ scale: DemoScale, users: Int, on connection: PostgresConnection) async throws -> String {
        // Where each place is; the bench scale's "Central Park 2" and the
        // like are within a kilometre or so of theirs.
        let places: [(name: String, latitude: Double, longitude: Double)] = [
            ("Central Park", 40.7829, -73.9654), ("Prospect Park", 40.6602, -73.9690), ("Riverside Courts", 40.8010, -73.9720),
            ("McCarren Park", 40.7206, -73.9510), ("Chelsea Piers", 40.7465, -74.0080), ("Pier 40 Fields", 40.7295, -74.0115),
            ("Randall's Island", 40.7932, -73.9213), ("Flushing Meadows", 40.7400, -73.8407), ("Van Cortlandt Park", 40.8977, -73.8860),
            ("Hudson River Park", 40.7337, -74.0106), ("Brooklyn Bridge Park", 40.7003, -73.9967), ("Astoria Park", 40.7797, -73.9229),
        ]
        let sports = [
            "BADMINTON", "BASKETBALL", "CLIMBING", "CYCLING", "FOOTBALL", "HIKING", "RUNNING", "SOCCER", "SQUASH",
            "SWIMMING", "TABLE_TENNIS", "TENNIS", "ULTIMATE", "VOLLEYBALL", "YOGA",
        ]
        _ = try await connection.query(
            """
            INSERT INTO locations (name, latitude, longitude)
            SELECT p.name || CASE WHEN i > n THEN ' ' || (i - 1) / n + 1 ELSE '' END,
                   round((p.latitude + CASE WHEN i > n THEN (\(pick("i || ':location-lat'")) - 0.5) * 0.02 ELSE 0 END)::numeric, 6),
                   round((p.longitude + CASE WHEN i > n THEN (\(pick("i || ':location-lng'")) - 0.5) * 0.026 ELSE 0 END)::numeric, 6)
            FROM generate_series(1, $4::int) AS i, LATERAL (SELECT array_length($1::text[], 1) AS n) AS count,
                 LATERAL (SELECT ($1::text[])[1 + (i - 1) % n] AS name, ($2::float8[])[1 + (i - 1) % n] AS latitude,
                                 ($3::float8[])[1 + (i - 1) % n] AS longitude) AS p
            """, [places.map(\.name), places.map(\.latitude), places.map(\.longitude), locations(scale)])
        // Sessions from four weeks ago to four weeks ahead, at whole quarter
        // hours: a quarter of them over, so players have a history.
        _ = try await connection.query(
            """
            INSERT INTO sports_sessions (sport, skill_level, creator_id, location_id, latitude, longitude, occurs_at, duration_minutes, capacity)
            SELECT ($1::text[])[1 + (\(pick("i || ':sport'")) * array_length($1::text[], 1))::int % array_length($1::text[], 1)],
                   (ARRAY['BEGINNER', 'INTERMEDIATE', 'ADVANCED', 'ANY'])[1 + i % 4],
                   u.id, l.id, l.latitude, l.longitude,
                   date_trunc('hour', now())
                       + CASE WHEN i % 4 = 0 THEN -interval '29 days' ELSE interval '1 day' END
                       + ((\(pick("i || ':when'")) * 2688)::int * interval '15 minutes'),
                   (ARRAY[45, 60, 90, 120])[1 + i % 4], 2 + floor(\(pick("i || ':capacity'")) * 9)::int
            FROM generate_series(1, $2::int) AS i
            JOIN users u ON u.id = 1 + (\(pick("i || ':creator'")) * $3::int)::int % $3::int
            JOIN locations l ON l.id = 1 + (\(pick("i || ':location'")) * $4::int)::int % $4::int
            """, [sports, sessions(scale), users, locations(scale)])
        // The creator plays, and 1 to capacity - 1 others join: players
        // creator + j·step for a step per session, all distinct.
        _ = try await connection.query("INSERT INTO session_players (session_id, user_id) SELECT id, creator_id FROM sports_sessions")
        _ = try await connection.query(
            """
            INSERT INTO session_players (session_id, user_id)
            SELECT s.id, 1 + (s.creator_id - 1 + j * (1 + s.id % 3)) % $1::int
            FROM sports_sessions s, generate_series(1, 9) AS j
            WHERE j <= 1 + (\(pick("s.id || ':players'")) * (s.capacity - 1))::int % (s.capacity - 1)
            """, [users])
        _ = try await connection.query(
            """
            INSERT INTO quiz_results (user_id, sports_played, sports_not_wanted, preferred_genders, preferred_age_groups)
            VALUES (1, ARRAY['TENNIS', 'SOCCER'], ARRAY['GOLF'], ARRAY['FEMALE', 'NON_BINARY'], ARRAY['AGE_25_34', 'AGE_35_44'])
            """)
        // Invitations waiting for the demo account.
        if users > 20 {
            _ = try await connection.query(
                """
                INSERT INTO invitations (session_id, from_user, to_user)
                SELECT s.id, s.creator_id, 1 FROM sports_sessions s
                WHERE s.creator_id BETWEEN 2 AND 11 AND s.occupied < s.capacity AND s.occurs_at > now()
                  AND NOT EXISTS (SELECT 1 FROM session_players p WHERE p.session_id = s.id AND p.user_id = 1)
                ORDER BY s.occurs_at LIMIT 2
                """)
        }
        let counts = try await connection.query(
            "SELECT (SELECT count(*) FROM locations)::int, (SELECT count(*) FROM sports_sessions)::int, (SELECT count(*) FROM session_players)::int"
        )[0]
        return
            "\(try counts.decode(Int.self, at: 0)) locations, \(try counts.decode(Int.self, at: 1)) sessions with \(try counts.decode(Int.self, at: 2)) players"
    }

    private static func pick(_ key: String) -> String { DemoData.pick(key) }
}
