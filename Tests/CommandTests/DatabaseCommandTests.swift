import Foundation
import HuddleCore
import HuddlePostgres
import HuddleRuntime
import HuddleServer
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// `huddle migrate` and /readyz, as users meet them.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct DatabaseCommandTests {
    @Test func migrateAppliesReportsAndRefusesAChangedFile() async throws {
        try await TestDatabase.withScratchDatabase { url in
            try await TestDatabase.withMigrations(TestDatabase.gameMigrations) { directory in
                let environment = ["DATABASE_URL": url]
                // Recorded under the folder's name, made fit for an app's.
                let app = URL(fileURLWithPath: directory).lastPathComponent.lowercased()
                let first = try HuddleCommand.run(["migrate", "--migrations", directory], environment: environment)
                #expect(first.status == 0, "\(first.standardError)")
                #expect(
                    first.standardOutput
                        == "applied \(app)/0001_players.sql\napplied \(app)/0002_scores.sql\n2 applied, 0 already applied\n")
                let second = try HuddleCommand.run(["migrate", "--migrations", directory], environment: environment)
                #expect(second.standardOutput == "0 applied, 2 already applied\n")

                try "SELECT 1;".write(toFile: "\(directory)/0002_scores.sql", atomically: true, encoding: .utf8)
                let refused = try HuddleCommand.run(["migrate", "--migrations", directory], environment: environment)
                #expect(refused.status == 1)
                #expect(refused.standardError.contains("migration \(app)/0002_scores.sql changed after it was applied"))
            }
        }
    }

    @Test func readinessFollowsTheDatabase() async throws {
        let running = RunningLoop()
        let request = HTTPRequest(head: HTTPRequestHead(method: "GET", target: "/readyz", version: .http11, headers: []))

        let pool = PostgresPool(TestDatabase.configuration(), on: running.loop)
        let ready = await Routes(metrics: Metrics(), database: pool).respond(to: request)
        #expect(ready.status == 200)
        #expect(String(decoding: ready.body, as: UTF8.self) == "ready\n")

        var unreachable = PostgresConfiguration(url: "host=/nonexistent/socket/dir user=huddle dbname=huddle")
        unreachable.acquireTimeout = .milliseconds(200)
        let downPool = PostgresPool(unreachable, on: running.loop)
        let logged = Log()
        let logger = Logger(level: .warning) { logged.append($0) }
        let down = await Routes(metrics: Metrics(), database: downPool, logger: logger).respond(to: request)
        #expect(down.status == 503)
        // Why goes to the log; the caller is not shown socket paths or libpq's text.
        #expect(String(decoding: down.body, as: UTF8.self) == "database unavailable\n")
        #expect(logged.all.count == 1)
        #expect(logged.all.first?.contains("no PostgreSQL connection came free within") == true)
        #expect(logged.all.first?.contains("/nonexistent/socket/dir") == true)

        await pool.close()
        await downPool.close()
        await running.stop()
    }
}
