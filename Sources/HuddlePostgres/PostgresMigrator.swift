import Foundation
import HuddleRuntime

/// One SQL file of `Schema/migrations`: `NNNN_description.sql`.
public struct Migration: Sendable, Equatable {
    public var version: Int
    public var name: String
    public var sql: String
    /// Hexadecimal SHA-256 of the file's bytes.
    public var checksum: String

    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
        checksum = Digest.sha256Hex(Array(sql.utf8))
    }
}

/// Applies migrations in order, each in its own transaction, and records
/// them with their checksums in `schema_migrations`.
///
/// Processes starting together take turns through an advisory lock, so
/// each migration runs once. A migration whose file changed (or vanished)
/// after it was applied stops everything: the database no longer matches
/// the files, and guessing is how data gets lost.
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
    }

    /// The `pg_advisory_lock` key that serialises migrators ("huddle" in ASCII).
    static let lockKey: Int64 = 0x6875_6464_6C65

    /// Reads `NNNN_description.sql` files from `directory`, ordered by number.
    public static func migrations(in directory: String) throws -> [Migration] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".sql") }
        return try migrations(
            names.map { name in (name, try String(contentsOfFile: "\(directory)/\(name)", encoding: .utf8)) }, from: directory)
    }

    /// The migrations of `files` (name and SQL, from `origin`), checked and ordered by number.
    public static func migrations(_ files: [(name: String, sql: String)], from origin: String) throws -> [Migration] {
        var migrations: [Migration] = []
        for (file, sql) in files.sorted(by: { $0.name < $1.name }) {
            let stem = file.dropLast(4)
            guard let underscore = stem.firstIndex(of: "_"), stem[..<underscore].count == 4,
                let version = Int(stem[..<underscore]), stem.index(after: underscore) != stem.endIndex
            else {
                throw MigrationError(description: "\(origin)/\(file): a migration is named NNNN_description.sql")
            }
            if let previous = migrations.last, previous.version == version {
                throw MigrationError(description: "\(origin): two migrations numbered \(version): \(previous.name) and \(file)")
            }
            migrations.append(Migration(version: version, name: file, sql: sql))
        }
        return migrations
    }

    /// Applies what is not applied yet.
    public static func migrate(
        _ migrations: [Migration], configuration: PostgresConfiguration, on loop: EventLoop
    ) async throws -> Report {
        var configuration = configuration
        // A migration may rewrite a big table; it is not a request.
        configuration.statementTimeout = nil
        let connection = try await PostgresConnection.connect(configuration, on: loop)
        defer { connection.close() }
        _ = try await connection.query("SELECT pg_advisory_lock($1)", [lockKey])
        do {
            let report = try await applyLocked(migrations, connection)
            _ = try await connection.query("SELECT pg_advisory_unlock($1)", [lockKey])
            return report
        } catch {
            _ = try? await connection.query("SELECT pg_advisory_unlock($1)", [lockKey])
            throw error
        }
    }

    private static func applyLocked(_ migrations: [Migration], _ connection: PostgresConnection) async throws -> Report {
        _ = try await connection.query(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version integer PRIMARY KEY,
                name text NOT NULL,
                checksum text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """)
        let rows = try await connection.query("SELECT version, name, checksum FROM schema_migrations ORDER BY version")
        var applied: [Int: (name: String, checksum: String)] = [:]
        for row in rows {
            applied[try row.decode(Int.self, at: 0)] = (try row.decode(String.self, at: 1), try row.decode(String.self, at: 2))
        }
        let byVersion = Dictionary(migrations.map { ($0.version, $0) }, uniquingKeysWith: { first, _ in first })
        for (version, record) in applied.sorted(by: { $0.key < $1.key }) {
            guard let migration = byVersion[version] else {
                throw MigrationError(description: "migration \(record.name) was applied but its file is gone; restore it")
            }
            guard migration.checksum == record.checksum else {
                throw MigrationError(
                    description: """
                        migration \(migration.name) changed after it was applied (checksum \(record.checksum.prefix(12))…, \
                        now \(migration.checksum.prefix(12))…); restore the file and add a new migration instead
                        """)
            }
        }
        var report = Report(applied: [], unchanged: applied.count)
        for migration in migrations where applied[migration.version] == nil {
            _ = try await connection.query("BEGIN")
            do {
                try await connection.execute(script: migration.sql)
                _ = try await connection.query(
                    "INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)",
                    [migration.version, migration.name, migration.checksum]
                )
                _ = try await connection.query("COMMIT")
            } catch {
                _ = try? await connection.query("ROLLBACK")
                throw MigrationError(description: "migration \(migration.name) failed and was rolled back: \(error)")
            }
            report.applied.append(migration)
        }
        return report
    }
}
