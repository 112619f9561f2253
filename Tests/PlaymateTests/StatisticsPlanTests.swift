import HuddleCore
import HuddlePostgres
import PostgresTestSupport
import ServerTestSupport
import TestSupport
import Testing

@testable import Playmate

/// A user's statistics count the sessions they created once, not once
/// for each sport they played (each count reading every session they ever
/// created).
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct StatisticsPlanTests {
    @Test func theSessionsCreatedAreCountedOncePerUser() async throws {
        try await TestServer.with(mounting: [Playmate.self]) { server in
            let token = try await server.signUp("counted").token
            let user = try await server.sql("SELECT id FROM users WHERE username = 'counted'")[0].decode(Int64.self, at: 0)
            _ = try await server.sql("INSERT INTO locations (name, latitude, longitude) VALUES ('Park', 40.0, -74.0)")
            // Three sports, two sessions each, all created and played by the user.
            for sport in ["SOCCER", "TENNIS", "GOLF", "SOCCER", "TENNIS", "GOLF"] {
                _ = try await server.sql(
                    """
                    WITH made AS (
                        INSERT INTO sports_sessions (sport, skill_level, creator_id, location_id, latitude, longitude, occurs_at,
                                                     duration_minutes, capacity)
                        SELECT $1, 'ANY', $2::bigint, l.id, l.latitude, l.longitude, now() + interval '1 day', 60, 4
                        FROM locations l LIMIT 1 RETURNING id
                    )
                    INSERT INTO session_players (session_id, user_id) SELECT id, $2::bigint FROM made
                    """, [sport, user])
            }
            let answer = try await server.graphql(
                "{ me { statistics { sessionsCreated sessionsPerSport { sport sessions } } } }", token: token)
            #expect(answer["data"]["me"]["statistics"]["sessionsCreated"].int == 6, "\(answer)")
            #expect(answer["data"]["me"]["statistics"]["sessionsPerSport"].array.count == 3, "\(answer)")

            let plan = try await server.genericPlan(of: StatisticsResolvers.perSport, arguments: "'{\(user)}'", analyze: true)
            let counts = plan.split(separator: "\n").filter { $0.contains("sports_sessions c") }
            #expect(!counts.isEmpty, "\(plan)")
            #expect(counts.allSatisfy { $0.contains("loops=1)") }, "\(plan)")
        }
    }
}
