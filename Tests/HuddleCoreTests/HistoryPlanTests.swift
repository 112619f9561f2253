import HuddleCore
import HuddlePostgres
import PostgresTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// A screen's statement reads what its page shows, not everything its
/// viewer has accumulated: checked on the generic plan (the server's) for
/// a viewer with a long history.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct HistoryPlanTests {
    @Test func unreadNoticesAreReadWithoutTheReadOnes() async throws {
        try await TestServer.with { server in
            _ = try await server.signUp("reader")
            let viewer = try await server.sql("SELECT id FROM users WHERE username = 'reader'")[0].decode(Int64.self, at: 0)
            _ = try await server.sql("INSERT INTO notification_kinds VALUES ('PLAN_CHECK', 'tests') ON CONFLICT DO NOTHING")
            // 3,000 notices read long ago, then 3 unread.
            _ = try await server.sql(
                """
                INSERT INTO notifications (user_id, kind, read_at) SELECT $1, 'PLAN_CHECK', now() FROM generate_series(1, 3000)
                """, [viewer])
            _ = try await server.sql(
                "INSERT INTO notifications (user_id, kind) SELECT $1, 'PLAN_CHECK' FROM generate_series(1, 3)", [viewer])
            _ = try await server.sql("ANALYZE notifications")
            let (sql, _) = try NotificationResolvers.list(of: viewer, unreadOnly: true).statement(for: PageRequest(first: 20))
            let plan = try await server.genericPlan(of: sql, arguments: "\(viewer), 21", analyze: true)
            #expect(PostgresConnection.rowsRemovedByFilter(in: plan) == 0, "\(plan)")
            #expect(plan.contains("notifications_unread"), "\(plan)")
        }
    }
}
