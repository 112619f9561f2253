import HuddleCore
import HuddlePostgres
import PostgresTestSupport
import ServerTestSupport
import TestSupport
import Testing

@testable import HabitBuddies

/// The next meeting and the list of meetings to come read the meetings to
/// come, not every meeting a person ever had: checked on the generic plan
/// (the server's) for someone with a thousand meetings behind them.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct MeetingPlanTests {
    @Test func meetingsToComeAreReadWithoutThePastOnes() async throws {
        try await TestServer.with(mounting: [HabitBuddies.self]) { server in
            try await TestDatabase.withPool(url: server.databaseURL) { pool, _ in
                try await pool.withTransaction { connection in
                    // The table as it is, indexes included, without its
                    // triggers (which refuse a meeting in the past) and
                    // foreign keys, in this transaction only.
                    _ = try await connection.query(
                        "CREATE TEMP TABLE buddy_meetings (LIKE public.buddy_meetings INCLUDING ALL) ON COMMIT DROP")
                    // Person 1's thousand meetings, a day apart: two to come
                    // (tomorrow's, and the one starting now), the rest past;
                    // and 2,000 other people with one each.
                    _ = try await connection.query(
                        """
                        INSERT INTO buddy_meetings (organizer_id, buddy_id, starts_at, time_zone, duration_minutes, description, status)
                        SELECT 1, 2, now() - day * interval '1 day', 'UTC', 30, '', 'ACCEPTED' FROM generate_series(-1, 999) day
                        """)
                    _ = try await connection.query(
                        """
                        INSERT INTO buddy_meetings (organizer_id, buddy_id, starts_at, time_zone, duration_minutes, description, status)
                        SELECT person, person + 1, now() + interval '1 day', 'UTC', 30, '', 'ACCEPTED' FROM generate_series(3, 4000, 2) person
                        """)
                    _ = try await connection.query("ANALYZE buddy_meetings")
                    let next = try await connection.genericPlan(of: MeetingRecord.nextOfEach, arguments: "'{1}'", analyze: true)
                    let (listed, _) = try MeetingRecord.list(of: 1, includingPast: false).statement(for: PageRequest(first: 20))
                    let list = try await connection.genericPlan(of: listed, arguments: "1, 21", analyze: true)
                    for plan in [next, list] {
                        #expect(PostgresConnection.rowsRemovedByFilter(in: plan) <= 1, "\(plan)")
                    }
                }
            }
        }
    }
}
