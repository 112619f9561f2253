import Foundation
import HuddleCore
import HuddlePostgres
import PostgresTestSupport
import ServerTestSupport
import TestSupport
import Testing

@testable import Playmate

/// A user's sessions by start (`mySessions`, and the place suggestions
/// start from) are read from the index of players by start: a page of
/// them, or the latest one, reads that many rows, not every session the
/// user ever played. Checked on the generic plans (the server's) for
/// someone with a thousand sessions behind them.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct PlayedSessionsPlanTests {
    @Test func aPageOfAUsersSessionsReadsThatPage() async throws {
        try await TestServer.with(mounting: [Playmate.self]) { server in
            let token = try await server.signUp("veteran").token
            let user = try await server.sql("SELECT id FROM users WHERE username = 'veteran'")[0].decode(Int64.self, at: 0)
            _ = try await server.sql("INSERT INTO locations (name, latitude, longitude) VALUES ('Park', 40.0, -74.0)")
            // A thousand sessions a day apart, the last three to come. The
            // trigger copies each start into the player's row.
            _ = try await server.sql(
                """
                WITH made AS (
                    INSERT INTO sports_sessions (sport, skill_level, creator_id, location_id, latitude, longitude, occurs_at,
                                                 duration_minutes, capacity)
                    SELECT 'TENNIS', 'ANY', $1::bigint, l.id, l.latitude, l.longitude, now() - day * interval '1 day', 60, 4
                    FROM locations l, generate_series(-3, 996) AS day RETURNING id
                )
                INSERT INTO session_players (session_id, user_id) SELECT id, $1::bigint FROM made
                """, [user])
            // And someone else's five thousand over the same days and the
            // month to come, so that reading every session by start is no
            // shortcut either.
            _ = try await server.signUp("regular")
            _ = try await server.sql(
                """
                WITH made AS (
                    INSERT INTO sports_sessions (sport, skill_level, creator_id, location_id, latitude, longitude, occurs_at,
                                                 duration_minutes, capacity)
                    SELECT 'GOLF', 'ANY', u.id, l.id, l.latitude, l.longitude, now() + interval '30 days' - hour * interval '5 hours',
                           60, 4
                    FROM users u, locations l, generate_series(1, 5000) AS hour WHERE u.username = 'regular' RETURNING id, creator_id
                )
                INSERT INTO session_players (session_id, user_id) SELECT id, creator_id FROM made
                """)
            _ = try await server.sql("ANALYZE session_players")
            _ = try await server.sql("ANALYZE sports_sessions")
            let copied = try await server.sql(
                """
                SELECT count(*)::int FROM session_players p JOIN sports_sessions s ON s.id = p.session_id
                WHERE p.user_id = $1 AND p.occurs_at = s.occurs_at
                """, [user])
            #expect(try copied[0].decode(Int.self, at: 0) == 1_000)

            let answer = try await server.graphql(
                "{ mySessions(first: 2) { edges { node { occursAt } } pageInfo { hasNextPage } } }", token: token)
            #expect(answer["data"]["mySessions"]["edges"].array.count == 2, "\(answer)")
            #expect(answer["data"]["mySessions"]["pageInfo"]["hasNextPage"].bool == true, "\(answer)")

            let (page, _) = try SessionResolvers.sessions(playedBy: user, from: nil, to: nil).statement(for: PageRequest(first: 2))
            let pagePlan = try await server.genericPlan(of: page, arguments: "\(user), NULL, NULL, 3", analyze: true)
            let origin = try await server.genericPlan(of: SuggestedSessions.originSQL, arguments: "\(user)", analyze: true)
            let past = Date(timeIntervalSinceNow: -500 * 86_400)
            let (pastPage, _) = try SessionResolvers.sessions(playedBy: user, from: past, to: nil).statement(for: PageRequest(first: 20))
            let pastPlan = try await server.genericPlan(
                of: pastPage, arguments: "\(user), now() - interval '500 days', NULL, 21", analyze: true)
            for plan in [pagePlan, origin, pastPlan] {
                #expect(PostgresConnection.rowsRemovedByFilter(in: plan) <= 1, "\(plan)")
                #expect(PostgresConnection.mostRowsReturned(in: plan) <= 21, "\(plan)")
            }
        }
    }

    /// A player added while the session's start is being changed waits for
    /// the change and copies the new start, rather than failing the foreign
    /// key with the old one (which the join would report as no such session).
    @Test func aPlayerAddedWhileTheStartChangesGetsTheNewStart() async throws {
        try await TestServer.with(mounting: [Playmate.self]) { server in
            _ = try await server.signUp("rescheduled")
            let user = try await server.sql("SELECT id FROM users WHERE username = 'rescheduled'")[0].decode(Int64.self, at: 0)
            _ = try await server.sql("INSERT INTO locations (name, latitude, longitude) VALUES ('Court', 40.0, -74.0)")
            let session = try await server.sql(
                """
                INSERT INTO sports_sessions (sport, skill_level, creator_id, location_id, latitude, longitude, occurs_at, duration_minutes,
                                             capacity)
                SELECT 'TENNIS', 'ANY', $1::bigint, l.id, l.latitude, l.longitude, now() + interval '2 days', 60, 4 FROM locations l
                RETURNING id
                """, [user])[0].decode(Int64.self, at: 0)
            let joining = try await TestDatabase.withPool(url: server.databaseURL) { pool, _ in
                try await pool.withTransaction { connection in
                    _ = try await connection.query(
                        "UPDATE sports_sessions SET occurs_at = occurs_at + interval '1 day' WHERE id = $1", [session])
                    let joining = Task {
                        try await server.sql("INSERT INTO session_players (session_id, user_id) VALUES ($1, $2)", [session, user])
                    }
                    // The change commits only once the insert waits on it.
                    for _ in 0..<600 {
                        // A transaction sees one snapshot of the activity unless it asks again.
                        _ = try await connection.query("SELECT pg_stat_clear_snapshot()")
                        let waiting = try await connection.query(
                            """
                            SELECT count(*)::int FROM pg_stat_activity
                            WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO session_players%'
                            """)
                        if try waiting[0].decode(Int.self, at: 0) > 0 { break }
                        try await Task.sleep(for: .milliseconds(50))
                    }
                    return joining
                }
            }
            _ = try await joining.value
            let copied = try await server.sql(
                """
                SELECT p.occurs_at = s.occurs_at FROM session_players p JOIN sports_sessions s ON s.id = p.session_id
                WHERE p.session_id = $1 AND p.user_id = $2
                """, [session, user])
            #expect(try copied[0].decode(Bool.self, at: 0))
        }
    }
}
