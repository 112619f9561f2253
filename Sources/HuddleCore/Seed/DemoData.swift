import Foundation
import HuddlePostgres
import HuddleRuntime

/// How much demo data to seed.
public enum DemoScale: String, CaseIterable, Sendable {
    /// A small, realistic set for the README's serve command and the Playground.
    case demo
    /// 10,000 users and each app's data at the size its benchmarks need.
    case bench

    /// How many accounts the shared core seeds.
    public var users: Int { self == .demo ? 40 : 10_000 }
}

/// Deterministic demo data: the same rows every time for a scale, so that
/// demos, screenshots and benchmarks agree. The shared core seeds the
/// accounts and friendships, then each mounted app its own rows, in one
/// transaction. Pseudo-random choices come from md5 of the row number
/// (`pick`), not from random().
public enum DemoData {
    /// Every seeded account's password.
    public static let password = "playmate-demo"

    public struct Summary: Sendable, CustomStringConvertible {
        public var users: Int
        /// What each app added, in the order the apps are mounted.
        public var apps: [String]
        public var description: String { (["\(users) users"] + apps).joined(separator: ", ") }
    }

    public struct SeedError: Error, CustomStringConvertible {
        public var description: String
        package init(description: String) { self.description = description }
    }

    /// Turns off (or back on) row triggers that a seed's set-based
    /// statements stand in for, given as (table, trigger). Inside the
    /// seeding transaction, a failure rolls the change back with the rest.
    package static func setTriggers(_ triggers: [(String, String)], enabled: Bool, on connection: PostgresConnection)
        async throws
    {
        for (table, trigger) in triggers {
            _ = try await connection.query("ALTER TABLE \(table) \(enabled ? "ENABLE" : "DISABLE") TRIGGER \(trigger)")
        }
    }

    /// A number in [0, 1) from md5 of `key`, as SQL.
    package static func pick(_ key: String) -> String {
        "(('x' || substr(md5(\(key)), 1, 8))::bit(32)::bigint / 4294967296.0)"
    }

    /// Seeds an empty database (one with no users).
    ///
    /// The demo scale is one transaction, so a failure leaves the database
    /// empty and the next `huddle serve` seeds it again. The bench scale
    /// commits the shared accounts first and then seeds each app in a
    /// transaction of its own, all at once on connections of their own,
    /// so that the apps' bulk statements use every core; a failure there
    /// leaves the accounts and whichever apps finished, and the database
    /// has to be made again (the benchmarks seed a scratch database that
    /// becomes their template only when seeding succeeds).
    package static func seed(_ scale: DemoScale, apps: [any App.Type], into database: PostgresPool) async throws -> Summary {
        let hash = await database.loop.runInThreadPool { PasswordHash.make(password) }
        switch scale {
        case .demo:
            return try await database.withTransaction { connection in
                try await seedAccounts(scale, passwordHash: hash, on: connection)
                var added: [String] = []
                for app in apps {
                    if let summary = try await app.seed(scale, users: scale.users, on: connection) { added.append(summary) }
                }
                return try await finish(added, on: connection)
            }
        case .bench:
            try await database.withTransaction { connection in try await seedAccounts(scale, passwordHash: hash, on: connection) }
            let added = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
                for (index, app) in apps.enumerated() {
                    group.addTask {
                        let summary = try await database.withTransaction { connection in
                            _ = try await connection.query("SET LOCAL statement_timeout = 0")
                            return try await app.seed(scale, users: scale.users, on: connection)
                        }
                        return (index, summary)
                    }
                }
                var summaries = [String?](repeating: nil, count: apps.count)
                for try await (index, summary) in group { summaries[index] = summary }
                return summaries.compactMap { $0 }
            }
            return try await database.withTransaction { connection in
                _ = try await connection.query("SET LOCAL statement_timeout = 0")
                return try await finish(added, on: connection)
            }
        }
    }

    /// The shared accounts and friendships, after checking that there are none yet.
    private static func seedAccounts(_ scale: DemoScale, passwordHash hash: String, on connection: PostgresConnection) async throws {
        // The bench scale's bulk statements run for minutes; the pool's
        // statement timeout is meant for requests, not for this.
        _ = try await connection.query("SET LOCAL statement_timeout = 0")
        guard try await connection.query("SELECT count(*)::int FROM users")[0].decode(Int.self, at: 0) == 0 else {
            throw SeedError(description: "the database has users already; seed an empty database")
        }
        // The seed's rows refer to each other by the ids they will get
        // (user 1 befriends 2 to 11). A seed that failed before rolled its
        // rows back, not its sequences (nextval never is), so each empty
        // table's sequence starts again from its first value.
        _ = try await connection.query(
            """
            DO $$
            DECLARE
                owned record;
                empty boolean;
            BEGIN
                FOR owned IN
                    SELECT s.seqrelid::regclass AS sequence, d.refobjid::regclass AS owner, s.seqstart AS first
                    FROM pg_sequence s
                    JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = s.seqrelid
                                    AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i')
                LOOP
                    EXECUTE format('SELECT NOT EXISTS (SELECT FROM %s)', owned.owner) INTO empty;
                    IF empty THEN PERFORM setval(owned.sequence, owned.first, false); END IF;
                END LOOP;
            END $$
            """)
        let firstNames = [
            "Ana", "Bo", "Chen", "Dara", "Eli", "Fatima", "Gus", "Hana", "Ivan", "Jade", "Kofi", "Lena", "Milo", "Nia", "Omar", "Priya",
        ]
        let lastNames = ["Lima", "Berg", "Wu", "Okafor", "Novak", "Haddad", "Moreau", "Sato", "Ivanov", "Reyes", "Mensah", "Fischer"]
        _ = try await connection.query(
            """
            INSERT INTO users (username, email, password_hash, first_name, last_name, gender, birthday, biography,
                               home_latitude, home_longitude, email_verified_at)
            SELECT CASE WHEN i = 1 THEN 'demo' ELSE 'player' || i END,
                   CASE WHEN i = 1 THEN 'demo@example.com' ELSE 'player' || i || '@example.com' END,
                   $1, ($2::text[])[1 + i % array_length($2::text[], 1)], ($3::text[])[1 + (i / 7) % array_length($3::text[], 1)],
                   (ARRAY['FEMALE', 'MALE', 'NON_BINARY', 'FEMALE', 'MALE'])[1 + i % 5],
                   DATE '1965-01-01' + (\(pick("i || ':birthday'")) * 15000)::int,
                   'Plays for fun.', round((40.60 + \(pick("i || ':lat'")) * 0.25)::numeric, 6),
                   round((-74.05 + \(pick("i || ':lng'")) * 0.20)::numeric, 6), TIMESTAMPTZ '2026-01-01 00:00:00+00'
            FROM generate_series(1, $4::int) AS i
            """, [hash, firstNames, lastNames, scale.users])
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
        if scale == .demo {
            // Pictures for the demo account and the first players.
            for user in 1...min(8, scale.users) {
                let avatar = try await DemoPictures.store(user, owner: Int64(user), purpose: "avatar", on: connection)
                _ = try await connection.query("UPDATE users SET avatar_id = $2 WHERE id = $1", [Int64(user), avatar])
            }
        }
        // A friend request waiting for the demo account.
        if scale.users > 20 {
            _ = try await connection.query("INSERT INTO friend_requests (from_user, to_user) VALUES (20, 1)")
        }
        _ = try await DemoPlaces.seed(on: connection)
    }

    /// Fresh statistics (or the planner guesses from empty tables) and the summary.
    private static func finish(_ added: [String], on connection: PostgresConnection) async throws -> Summary {
        _ = try await connection.query("ANALYZE")
        let users = try await connection.query("SELECT count(*)::int FROM users")[0].decode(Int.self, at: 0)
        return Summary(users: users, apps: added)
    }
}
