import Foundation
import HuddleCore
import HuddlePostgres
import HuddleRuntime
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// A database that Huddle migrated before each app numbered its own
/// migrations is carried over to the record per app once, with nothing run
/// again, and ends with the schema a new database gets. The fixture is
/// that database as `huddle migrate` left it (pg_dump of a build from
/// before the split; the data of its empty tables left out, and public on
/// its search path, without which earthdistance's indexes do not restore).
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct MigrationCarryOverTests {
    static let fixture: String = {
        let url = Bundle.module.url(forResource: "Fixtures/database-before-per-app-migrations", withExtension: "sql")!
        return try! String(contentsOf: url, encoding: .utf8)
    }()

    /// A scratch database restored from the fixture, changed by `prepare`.
    static func withDatabaseBeforeTheSplit<T: Sendable>(
        prepare: String = "", _ body: (String, PostgresPool) async throws -> T
    ) async throws -> T {
        try await TestDatabase.withScratchDatabase { url in
            let running = RunningLoop()
            // The dump sets search_path for its session: a connection of its own.
            let restore = try await PostgresConnection.connect(TestDatabase.configuration(url: url), on: running.loop)
            try await restore.execute(script: fixture)
            restore.close()
            let pool = PostgresPool(TestDatabase.configuration(url: url), on: running.loop)
            do {
                if !prepare.isEmpty { _ = try await pool.query(prepare) }
                let value = try await body(url, pool)
                await pool.close()
                await running.stop()
                return value
            } catch {
                await pool.close()
                await running.stop()
                throw error
            }
        }
    }

    /// Every table, column (in order), constraint, index, function, trigger
    /// and extension of the public schema, each as PostgreSQL prints it.
    static func shape(of pool: PostgresPool) async throws -> [String] {
        let rows = try await pool.query(
            """
            SELECT kind || ' ' || name || ': ' || definition FROM (
                SELECT 'column' AS kind, c.relname || '.' || a.attname AS name,
                       format_type(a.atttypid, a.atttypmod) || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END
                       || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '') || ' identity ' || a.attidentity::text
                       || ' at ' || row_number() OVER (PARTITION BY c.oid ORDER BY a.attnum) AS definition
                FROM pg_attribute a
                JOIN pg_class c ON c.oid = a.attrelid
                LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
                WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'v', 'm') AND a.attnum > 0 AND NOT a.attisdropped
                UNION ALL
                SELECT 'constraint', conrelid::regclass || '.' || conname, pg_get_constraintdef(oid)
                FROM pg_constraint WHERE connamespace = 'public'::regnamespace
                UNION ALL
                SELECT 'index', i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid)
                FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relnamespace = 'public'::regnamespace
                UNION ALL
                SELECT 'function', p.oid::regprocedure::text, pg_get_functiondef(p.oid)
                FROM pg_proc p
                WHERE p.pronamespace = 'public'::regnamespace
                  AND NOT EXISTS (SELECT FROM pg_depend e WHERE e.objid = p.oid AND e.deptype = 'e')
                UNION ALL
                SELECT 'trigger', tgrelid::regclass || '.' || tgname, pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal
                UNION ALL
                SELECT 'extension', extname, extversion FROM pg_extension
            ) shape
            ORDER BY 1
            """)
        // A dump and restore regroups a chain of ANDs ((a AND b) AND c comes
        // back as a AND b AND c), so checks are compared without their parentheses.
        return try rows.map { row in
            let line = try row.decode(String.self, at: 0)
            return line.hasPrefix("constraint ") ? line.filter { $0 != "(" && $0 != ")" } : line
        }
    }

    @Test func aDatabaseOfTheOneNumberingIsCarriedOverOnceAndRunsNothingAgain() async throws {
        try await Self.withDatabaseBeforeTheSplit(
            prepare: "INSERT INTO users (username, email, password_hash) VALUES ('kept', 'kept@example.com', 'x')"
        ) { url, pool in
            // The 14 files the old numbering's 13 became are carried, and
            // run nothing again; what was added since applies as usual.
            let files = try TestSchema.everything.migrations().sorted { ($0.app, $0.version) < ($1.app, $1.version) }
            let isCarried = { (file: Migration) in
                GlobalNumbering.huddle.after.contains { $0.app == file.app && $0.version == file.version }
            }
            let carried = files.filter(isCarried).count
            #expect(carried == 14)
            // The way users do it: the binary.
            let first = try HuddleCommand.run(["migrate"], environment: ["DATABASE_URL": url])
            #expect(first.status == 0, "\(first.standardError)")
            #expect(
                first.standardOutput
                    == "carried over from one numbering to each app's own; nothing ran again\n"
                    + (try TestSchema.everything.migrations()).filter { !isCarried($0) }.map { "applied \($0.path)\n" }.joined()
                    + "\(files.count - carried) applied, \(carried) already applied\n")
            let second = try HuddleCommand.run(["migrate"], environment: ["DATABASE_URL": url])
            #expect(second.standardOutput == "0 applied, \(files.count) already applied\n")

            #expect(try await pool.query("SELECT count(*)::int FROM users WHERE username = 'kept'")[0].decode(Int.self, at: 0) == 1)
            let recorded = try await pool.query("SELECT app, version, name, checksum FROM schema_migrations ORDER BY app, version")
            #expect(try recorded.map { try $0.decode(String.self, at: 0) } == files.map(\.app))
            #expect(try recorded.map { try $0.decode(Int.self, at: 1) } == files.map(\.version))
            #expect(try recorded.map { try $0.decode(String.self, at: 2) } == files.map(\.name))
            #expect(try recorded.map { try $0.decode(String.self, at: 3) } == files.map(\.checksum))
            // The old record is kept beside it, renamed, for going back.
            #expect(
                try await pool.query("SELECT count(*)::int FROM \(GlobalNumbering.keptAs)")[0].decode(Int.self, at: 0) == 13)
            // Each carried record keeps when its SQL was applied; only the newer ones ran now.
            #expect(
                try await pool.query("SELECT count(*)::int FROM schema_migrations WHERE applied_at > now() - interval '1 minute'")[0]
                    .decode(Int.self, at: 0) == files.count - carried)
        }
    }

    /// The files split among the apps build what the one numbering built.
    @Test func theCarriedDatabaseHasTheShapeOfANewOne() async throws {
        let carried = try await Self.withDatabaseBeforeTheSplit { url, pool in
            let migrated = try HuddleCommand.run(["migrate"], environment: ["DATABASE_URL": url])
            #expect(migrated.status == 0, "\(migrated.standardError)")
            // The old record, kept for going back, is the one table a new database lacks.
            return try await Self.shape(of: pool).filter { !$0.contains(GlobalNumbering.keptAs) }
        }
        let fresh = try await TestDatabase.withScratchDatabase { url in
            let migrated = try HuddleCommand.run(["migrate"], environment: ["DATABASE_URL": url])
            #expect(migrated.status == 0, "\(migrated.standardError)")
            let running = RunningLoop()
            let pool = PostgresPool(TestDatabase.configuration(url: url), on: running.loop)
            let shape = try await Self.shape(of: pool)
            await pool.close()
            await running.stop()
            return shape
        }
        #expect(carried.count > 300)
        #expect(carried.filter { !fresh.contains($0) } == [])
        #expect(fresh.filter { !carried.contains($0) } == [])
    }

    @Test(arguments: [
        (
            "DELETE FROM schema_migrations WHERE version = 13",
            "has not applied 0013_shelter_changes.sql of the numbering before per-app migrations; migrate it to the end of that numbering (0013_shelter_changes.sql) with the last Huddle before per-app migrations"
        ),
        (
            "UPDATE schema_migrations SET checksum = 'edited' WHERE version = 9",
            "records 0009_prolific.sql (number 9), which is not a file of the numbering before per-app migrations as released; remove its row"
        ),
        (
            "INSERT INTO schema_migrations (version, name, checksum) VALUES (14, '0014_local.sql', 'x')",
            "records 0014_local.sql (number 14), which is not a file of the numbering before per-app migrations as released; remove its row"
        ),
    ])
    func anythingButTheReleasedNumberingIsRefusedAndLeftAsItWas(change: String, reason: String) async throws {
        try await Self.withDatabaseBeforeTheSplit(prepare: change) { url, pool in
            let refused = try HuddleCommand.run(["migrate"], environment: ["DATABASE_URL": url])
            #expect(refused.status == 1)
            #expect(refused.standardError.contains(reason), "\(refused.standardError)")
            #expect(
                try await pool.query(
                    "SELECT count(*)::int FROM pg_attribute WHERE attrelid = 'schema_migrations'::regclass AND attname = 'app'")[0]
                    .decode(Int.self, at: 0) == 0)
        }
    }

    /// A carried migration counts as applied, and applied files never
    /// change: the numbering's record of them is the files as they are.
    @Test func theCarriedRecordIsTheFilesAsTheyAre() throws {
        let files = try SchemaDirectory.embedded(mounting: everyApp).migrations()
        for after in GlobalNumbering.huddle.after {
            let file = files.first { $0.app == after.app && $0.name == after.name }
            #expect(file?.version == after.version, "\(after.app)/\(after.name)")
            #expect(file?.checksum == after.checksum, "\(after.app)/\(after.name) changed after it was carried over")
        }
        #expect(Set(GlobalNumbering.huddle.after.flatMap(\.from)) == Set(1...13))
    }
}
