import Foundation
import HuddleRuntime

/// One SQL file among an app's migrations (`Schema/APP/migrations/NNNN_description.sql`).
/// Versions count per app: the shared core and each app number their own.
public struct Migration: Sendable, Equatable {
    /// Whose migrations these are: an app's folder name, or `shared`.
    public var app: String
    public var version: Int
    public var name: String
    public var sql: String
    /// Hexadecimal SHA-256 of the file's bytes.
    public var checksum: String

    public init(app: String, version: Int, name: String, sql: String) {
        self.app = app
        self.version = version
        self.name = name
        self.sql = sql
        checksum = Digest.sha256Hex(Array(sql.utf8))
    }

    /// `app/name`, as messages and `huddle migrate` show it.
    public var path: String { "\(app)/\(name)" }
}

/// Applies migrations in the order given (each app's in version order,
/// the shared core's first), each in its own transaction, and records them
/// by app and version, with their checksums, in `schema_migrations`.
///
/// Processes starting together take turns through an advisory lock, so
/// each migration runs once. A migration whose file changed (or vanished)
/// after it was applied stops everything: the database no longer matches
/// the files, and guessing is how data gets lost. Records of an app not
/// among those given are left alone (a server that mounts fewer apps).
public enum PostgresMigrator {
    public struct MigrationError: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    public struct Report: Sendable {
        /// Applied by this run, in order.
        public var applied: [Migration]
        /// Applied before and unchanged.
        public var unchanged: Int
        /// Whether this run carried the record over from one global numbering (`GlobalNumbering`).
        public var carriedOver = false
    }

    /// The `pg_advisory_lock` key that serialises migrators ("huddle" in ASCII).
    static let lockKey: Int64 = 0x6875_6464_6C65

    /// Reads the `NNNN_description.sql` files of `directory` as `app`'s, ordered by number.
    public static func migrations(in directory: String, app: String) throws -> [Migration] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".sql") }
        return try migrations(
            names.map { name in (name, try String(contentsOfFile: "\(directory)/\(name)", encoding: .utf8)) }, app: app,
            from: directory)
    }

    /// `app`'s migrations of `files` (name and SQL, from `origin`), checked and ordered by number.
    public static func migrations(_ files: [(name: String, sql: String)], app: String, from origin: String) throws -> [Migration] {
        var migrations: [Migration] = []
        for (file, sql) in files.sorted(by: { $0.name < $1.name }) {
            let stem = file.dropLast(4)
            guard let underscore = stem.firstIndex(of: "_"), stem[..<underscore].count == 4,
                let version = Int(stem[..<underscore]), version > 0, stem.index(after: underscore) != stem.endIndex
            else {
                throw MigrationError(description: "\(origin)/\(file): a migration is named NNNN_description.sql, from 0001")
            }
            if let previous = migrations.last, previous.version == version {
                throw MigrationError(description: "\(origin): two migrations numbered \(version): \(previous.name) and \(file)")
            }
            migrations.append(Migration(app: app, version: version, name: file, sql: sql))
        }
        return migrations
    }

    /// Applies what is not applied yet. A database still recorded in
    /// `numbering`'s one global sequence is carried over first.
    public static func migrate(
        _ migrations: [Migration], carryingOver numbering: GlobalNumbering? = nil, configuration: PostgresConfiguration,
        on loop: EventLoop
    ) async throws -> Report {
        var configuration = configuration
        // A migration may rewrite a big table; it is not a request.
        configuration.statementTimeout = nil
        let connection = try await PostgresConnection.connect(configuration, on: loop)
        defer { connection.close() }
        _ = try await connection.query("SELECT pg_advisory_lock($1)", [lockKey])
        do {
            var carried = false
            if let numbering { carried = try await numbering.carryOver(on: connection) }
            var report = try await applyLocked(migrations, connection)
            report.carriedOver = carried
            _ = try await connection.query("SELECT pg_advisory_unlock($1)", [lockKey])
            return report
        } catch {
            _ = try? await connection.query("SELECT pg_advisory_unlock($1)", [lockKey])
            throw error
        }
    }

    static let createRecord = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            app text NOT NULL CHECK (app ~ '^[a-z][a-z0-9_-]*$'),
            version integer NOT NULL CHECK (version > 0),
            name text NOT NULL,
            checksum text NOT NULL,
            applied_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (app, version)
        )
        """

    /// Whether `schema_migrations` exists in the one-sequence shape of
    /// before (no `app` column).
    static func recordIsGlobal(on connection: PostgresConnection) async throws -> Bool {
        let rows = try await connection.query(
            """
            SELECT to_regclass('schema_migrations') IS NOT NULL,
                   EXISTS (SELECT FROM pg_attribute WHERE attrelid = to_regclass('schema_migrations') AND attname = 'app' AND NOT attisdropped)
            """)
        return try rows[0].decode(Bool.self, at: 0) && !rows[0].decode(Bool.self, at: 1)
    }

    private static func applyLocked(_ migrations: [Migration], _ connection: PostgresConnection) async throws -> Report {
        if try await recordIsGlobal(on: connection) {
            throw MigrationError(
                description:
                    "schema_migrations numbers migrations in one sequence (an earlier Huddle's); this migrator records them per app and was not told how to carry that one over (run `huddle migrate` without --migrations once, which does)"
            )
        }
        _ = try await connection.query(createRecord)
        let apps = Set(migrations.map(\.app))
        let rows = try await connection.query("SELECT app, version, name, checksum FROM schema_migrations ORDER BY app, version")
        struct Key: Hashable {
            var app: String
            var version: Int
        }
        var applied: [Key: (name: String, checksum: String)] = [:]
        for row in rows {
            let key = Key(app: try row.decode(String.self, at: 0), version: try row.decode(Int.self, at: 1))
            guard apps.contains(key.app) else { continue }
            applied[key] = (try row.decode(String.self, at: 2), try row.decode(String.self, at: 3))
        }
        let byKey = Dictionary(migrations.map { (Key(app: $0.app, version: $0.version), $0) }, uniquingKeysWith: { first, _ in first })
        for (key, record) in applied.sorted(by: { ($0.key.app, $0.key.version) < ($1.key.app, $1.key.version) }) {
            guard let migration = byKey[key] else {
                throw MigrationError(description: "migration \(key.app)/\(record.name) was applied but its file is gone; restore it")
            }
            guard migration.checksum == record.checksum else {
                throw MigrationError(
                    description: """
                        migration \(migration.path) changed after it was applied (checksum \(record.checksum.prefix(12))…, \
                        now \(migration.checksum.prefix(12))…); restore the file and add a new migration instead
                        """)
            }
        }
        var report = Report(applied: [], unchanged: applied.count)
        for migration in migrations where applied[Key(app: migration.app, version: migration.version)] == nil {
            _ = try await connection.query("BEGIN")
            do {
                try await connection.execute(script: migration.sql)
                _ = try await connection.query(
                    "INSERT INTO schema_migrations (app, version, name, checksum) VALUES ($1, $2, $3, $4)",
                    [migration.app, migration.version, migration.name, migration.checksum]
                )
                _ = try await connection.query("COMMIT")
            } catch {
                _ = try? await connection.query("ROLLBACK")
                throw MigrationError(description: "migration \(migration.path) failed and was rolled back: \(error)")
            }
            report.applied.append(migration)
        }
        return report
    }
}
