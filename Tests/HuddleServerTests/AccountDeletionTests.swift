import Foundation
import HuddleCore
import HuddlePostgres
import HuddleRuntime
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Deleting an account with every app mounted, from the demo data (which
/// gives a user something in each app): afterwards no table holds the
/// user's id in a column that names a user, nor their name or address anywhere.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct AccountDeletionTests {
    @Test func noTableKeepsTheUsersPersonalDataAfterward() async throws {
        try await TestServer.with(mounting: everyApp) { server in
            // Seeding runs on its pool's loop, as `huddle seed` runs it.
            try await EventLoop.withOwnThread { [databaseURL = server.databaseURL] loop in
                let pool = PostgresPool(TestDatabase.configuration(url: databaseURL), on: loop)
                do {
                    _ = try await DemoData.seed(.demo, apps: everyApp, into: pool)
                    await pool.close()
                } catch {
                    await pool.close()
                    throw error
                }
            }
            // The busiest user who is no shelter's only staff member.
            let busiest = try await server.sql(
                """
                SELECT u.id, u.username, u.email FROM users u
                WHERE NOT EXISTS (
                    SELECT 1 FROM shelter_staff s WHERE s.user_id = u.id
                      AND NOT EXISTS (SELECT 1 FROM shelter_staff o WHERE o.shelter_id = s.shelter_id AND o.user_id <> u.id))
                ORDER BY (SELECT count(*) FROM snippets WHERE author_id = u.id) + (SELECT count(*) FROM votes WHERE voter_id = u.id)
                       + (SELECT count(*) FROM session_players WHERE user_id = u.id) + (SELECT count(*) FROM habits WHERE user_id = u.id)
                       + (SELECT count(*) FROM pet_swipes WHERE user_id = u.id) DESC, u.id
                LIMIT 1
                """)[0]
            let id = try busiest.decode(Int64.self, at: 0)
            let username = try busiest.decode(String.self, at: 1)
            let email = try busiest.decode(String.self, at: 2)
            let logIn = try await server.graphql(
                "mutation($u: String!, $p: String!) { logIn(username: $u, password: $p) { token } }",
                ["u": username, "p": DemoData.password])
            let token = try #require(logIn["data"]["logIn"]["token"].string, "\(logIn)")
            let snippets = try await server.sql("SELECT count(*)::int FROM snippets WHERE author_id = $1", [id])[0].decode(Int.self, at: 0)
            let deleted = try await server.graphql(
                "mutation($p: String!) { deleteAccount(password: $p) }", ["p": DemoData.password], token: token)
            #expect(deleted["data"]["deleteAccount"].bool == true, "\(deleted)")

            // Every column that references users.
            let references = try await server.sql(
                """
                SELECT c.conrelid::regclass::text, a.attname FROM pg_constraint c
                JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY(c.conkey)
                WHERE c.contype = 'f' AND c.confrelid = 'users'::regclass ORDER BY 1, 2
                """
            ).map { (try $0.decode(String.self, at: 0), try $0.decode(String.self, at: 1)) }
            #expect(references.count > 20)
            for (table, column) in references {
                let count = try await server.sql("SELECT count(*)::int FROM \(table) WHERE \(column) = $1", [id])[0].decode(Int.self, at: 0)
                #expect(count == 0, "\(table).\(column) still names the user")
            }
            // Their name and address nowhere, in any table's rows.
            let tables = try await server.sql(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"
            ).map { try $0.decode(String.self, at: 0) }
            for table in tables {
                let count = try await server.sql(
                    "SELECT count(*)::int FROM \(table) t WHERE to_jsonb(t)::text LIKE '%' || $1 || '%' OR to_jsonb(t)::text LIKE '%' || $2 || '%'",
                    ["\"\(username)\"", email])[0].decode(Int.self, at: 0)
                #expect(count == 0, "\(table) still holds the name or the address")
            }
            // What others depend on stays: the snippets, now by no one.
            let kept = try await server.sql("SELECT count(*)::int FROM snippets WHERE author_id IS NULL")[0].decode(Int.self, at: 0)
            #expect(kept == snippets)
        }
    }
}
