import HuddleCore
import HuddlePostgres
import PostgresTestSupport
import TestSupport
import Testing

/// A viewer's flags over a page (do they follow, favour, play in each of
/// these) cost a lookup per row of the page, however many rows the viewer
/// has: the generic plan of `viewer = $1 AND id = ANY($2)` read all of them
/// through an index that leads with the viewer.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct ViewerSetPlanTests {
    @Test func aHeavyViewersFlagsReadOnlyThePagesRows() async throws {
        try await TestDatabase.withPool { pool, _ in
            try await pool.withTransaction { connection in
                // As project_follows is indexed: by (thing, user), and by user for their list.
                _ = try await connection.query(
                    """
                    CREATE TEMP TABLE follows (
                        thing_id bigint NOT NULL, user_id bigint NOT NULL, created_at timestamptz NOT NULL,
                        PRIMARY KEY (thing_id, user_id)) ON COMMIT DROP
                    """)
                _ = try await connection.query("CREATE INDEX ON follows (user_id, created_at DESC, thing_id DESC)")
                // User 1 follows 3,000 things; 3,000 others a few each.
                _ = try await connection.query(
                    "INSERT INTO follows SELECT t, 1, now() - t * interval '1 minute' FROM generate_series(1, 3000) t")
                _ = try await connection.query(
                    """
                    INSERT INTO follows SELECT t, u, now() FROM generate_series(1, 3000) t, generate_series(2, 3000) u
                    WHERE (t * 7 + u) % 499 = 0
                    """)
                _ = try await connection.query("ANALYZE follows")
                let sql = Loaders.viewerSetStatement(in: "follows", viewerColumn: "user_id", idColumn: "thing_id")
                let found = try await connection.query(sql, [Int64(1), [Int64(5), 6, 7, 8_000]]).map { try $0.decode(Int64.self, at: 0) }
                #expect(Set(found) == [5, 6, 7])
                let plan = try await connection.genericPlan(of: sql, arguments: "1, '{5,6,7,8000}'", analyze: true)
                // At most the page's one id not followed is filtered out.
                #expect(PostgresConnection.rowsRemovedByFilter(in: plan) <= 1, "\(plan)")
            }
        }
    }
}
