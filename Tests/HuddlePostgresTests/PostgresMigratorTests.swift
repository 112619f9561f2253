import Foundation
import HuddlePostgres
import HuddleRuntime
import PostgresTestSupport
import RuntimeTestSupport
import TestSupport
import Testing

/// Migrations: in order, once, each in a transaction, refused when an
/// applied file changed.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct PostgresMigratorTests {

    @Test func migrationsApplyInOrderOnceAndAreRecorded() async throws {
        try await TestDatabase.withScratchDatabase { url in
            try await TestDatabase.withMigrations(TestDatabase.gameMigrations) { directory async throws in
                let migrations = try PostgresMigrator.migrations(in: directory, app: "game")
                #expect(migrations.map(\.version) == [1, 2])
                let running = RunningLoop()
                let configuration = TestDatabase.configuration(url: url)
                let first = try await PostgresMigrator.migrate(migrations, configuration: configuration, on: running.loop)
                #expect(first.applied.map(\.name) == ["0001_players.sql", "0002_scores.sql"])
                #expect(first.unchanged == 0)
                let second = try await PostgresMigrator.migrate(migrations, configuration: configuration, on: running.loop)
                #expect(second.applied.isEmpty)
                #expect(second.unchanged == 2)

                let pool = PostgresPool(configuration, on: running.loop)
                let recorded = try await pool.query(
                    "SELECT version, name, checksum FROM schema_migrations WHERE app = 'game' ORDER BY version")
                #expect(try recorded.map { try $0.decode(String.self, at: 2) } == migrations.map(\.checksum))
                #expect(try await pool.query("SELECT count(*)::int FROM players")[0].decode(Int.self, at: 0) == 2)
                await pool.close()
                await running.stop()
            }
        }
    }

    @Test func aChangedOrMissingAppliedMigrationIsRefused() async throws {
        try await TestDatabase.withScratchDatabase { url in
            try await TestDatabase.withMigrations(TestDatabase.gameMigrations) { directory async throws in
                let running = RunningLoop()
                let configuration = TestDatabase.configuration(url: url)
                _ = try await PostgresMigrator.migrate(
                    try PostgresMigrator.migrations(in: directory, app: "game"), configuration: configuration, on: running.loop)

                try (TestDatabase.gameMigrations["0001_players.sql"]! + "\n-- edited").write(
                    toFile: "\(directory)/0001_players.sql", atomically: true, encoding: .utf8)
                try "CREATE TABLE later (id int);".write(toFile: "\(directory)/0003_later.sql", atomically: true, encoding: .utf8)
                await #expect {
                    _ = try await PostgresMigrator.migrate(
                        try PostgresMigrator.migrations(in: directory, app: "game"), configuration: configuration, on: running.loop)
                } throws: { String(describing: $0).contains("game/0001_players.sql changed after it was applied") }

                try TestDatabase.gameMigrations["0001_players.sql"]!.write(
                    toFile: "\(directory)/0001_players.sql", atomically: true, encoding: .utf8)
                try FileManager.default.removeItem(atPath: "\(directory)/0002_scores.sql")
                await #expect {
                    _ = try await PostgresMigrator.migrate(
                        try PostgresMigrator.migrations(in: directory, app: "game"), configuration: configuration, on: running.loop)
                } throws: { String(describing: $0).contains("game/0002_scores.sql was applied but its file is gone") }

                // Refused means nothing ran: 0003 was not applied.
                let pool = PostgresPool(configuration, on: running.loop)
                #expect(try await pool.query("SELECT to_regclass('later') IS NULL")[0].decode(Bool.self, at: 0))
                await pool.close()
                await running.stop()
            }
        }
    }

    @Test func aFailingMigrationIsRolledBackWhole() async throws {
        try await TestDatabase.withScratchDatabase { url in
            var files = TestDatabase.gameMigrations
            files["0003_broken.sql"] = "CREATE TABLE half (id int); INSERT INTO half VALUES (1); SELECT 1/0;"
            try await TestDatabase.withMigrations(files) { directory async throws in
                let running = RunningLoop()
                let configuration = TestDatabase.configuration(url: url)
                await #expect {
                    _ = try await PostgresMigrator.migrate(
                        try PostgresMigrator.migrations(in: directory, app: "game"), configuration: configuration, on: running.loop)
                } throws: { String(describing: $0).contains("game/0003_broken.sql failed and was rolled back: division by zero") }
                let pool = PostgresPool(configuration, on: running.loop)
                #expect(try await pool.query("SELECT to_regclass('half') IS NULL")[0].decode(Bool.self, at: 0))
                #expect(try await pool.query("SELECT max(version)::int FROM schema_migrations")[0].decode(Int.self, at: 0) == 2)
                await pool.close()
                await running.stop()
            }
        }
    }

    @Test func processesMigratingTogetherApplyEachMigrationOnce() async throws {
        try await TestDatabase.withScratchDatabase { url in
            try await TestDatabase.withMigrations(TestDatabase.gameMigrations) { directory async throws in
                let migrations = try PostgresMigrator.migrations(in: directory, app: "game")
                let loops = (0..<4).map { _ in RunningLoop() }
                let reports = try await withThrowingTaskGroup(of: PostgresMigrator.Report.self) { group in
                    for running in loops {
                        group.addTask {
                            try await PostgresMigrator.migrate(
                                migrations, configuration: TestDatabase.configuration(url: url), on: running.loop)
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(reports.map(\.applied.count).reduce(0, +) == 2)
                #expect(reports.filter { $0.applied.count == 2 }.count == 1)
                for running in loops { await running.stop() }
            }
        }
    }

    @Test func migrationFilesMustBeNumbered() async throws {
        try await TestDatabase.withMigrations(["create_things.sql": "SELECT 1;"]) { directory in
            #expect { try PostgresMigrator.migrations(in: directory, app: "game") } throws: {
                String(describing: $0).contains("a migration is named NNNN_description.sql, from 0001")
            }
        }
        try await TestDatabase.withMigrations(["0000_zero.sql": "SELECT 1;"]) { directory in
            #expect { try PostgresMigrator.migrations(in: directory, app: "game") } throws: {
                String(describing: $0).contains("from 0001")
            }
        }
        try await TestDatabase.withMigrations(["0001_a.sql": "SELECT 1;", "0001_b.sql": "SELECT 2;"]) { directory in
            #expect { try PostgresMigrator.migrations(in: directory, app: "game") } throws: {
                String(describing: $0).contains("two migrations numbered 1")
            }
        }
    }

    /// Each app numbers its own: two apps' 0001s are two migrations, and a
    /// server that mounts fewer apps leaves the others' records alone.
    @Test func eachAppNumbersItsOwnMigrations() async throws {
        try await TestDatabase.withScratchDatabase { url in
            let running = RunningLoop()
            let configuration = TestDatabase.configuration(url: url)
            let shared = try PostgresMigrator.migrations(
                [("0001_players.sql", TestDatabase.gameMigrations["0001_players.sql"]!)], app: "shared", from: "test")
            let scores = try PostgresMigrator.migrations(
                [("0001_scores.sql", TestDatabase.gameMigrations["0002_scores.sql"]!)], app: "scores", from: "test")
            let both = try await PostgresMigrator.migrate(shared + scores, configuration: configuration, on: running.loop)
            #expect(both.applied.map(\.path) == ["shared/0001_players.sql", "scores/0001_scores.sql"])

            let sharedOnly = try await PostgresMigrator.migrate(shared, configuration: configuration, on: running.loop)
            #expect(sharedOnly.applied.isEmpty)
            #expect(sharedOnly.unchanged == 1)

            let pool = PostgresPool(configuration, on: running.loop)
            let recorded = try await pool.query("SELECT app, version FROM schema_migrations ORDER BY app")
            #expect(
                try recorded.map { "\(try $0.decode(String.self, at: 0))/\(try $0.decode(Int.self, at: 1))" } == ["scores/1", "shared/1"])
            await #expect {
                _ = try await pool.query("INSERT INTO schema_migrations (app, version, name, checksum) VALUES ('Bad App', 1, 'x', 'y')")
            } throws: { String(describing: $0).contains("schema_migrations_app_check") }
            await pool.close()
            await running.stop()
        }
    }
}
