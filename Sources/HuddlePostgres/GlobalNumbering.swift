import Foundation
import HuddleRuntime

/// Carries a database whose migrations were recorded in one global
/// sequence (`schema_migrations (version PRIMARY KEY, name, checksum,
/// applied_at)`) over to the record per app, without running any SQL of
/// the migrations: the files of the old sequence were split among the apps,
/// and a database that had applied all of them has applied all of those.
///
/// Only a database that applied exactly the old sequence, file for file
/// (name and checksum), is carried; anything else is refused with the
/// reason, since marking migrations applied that were not is how a schema
/// and its record part ways. The old record is kept, renamed (`keptAs`):
/// a binary of the old numbering refuses the new record, and renaming the
/// old one back is how an operator goes back.
public struct GlobalNumbering: Sendable {
    /// A file of the old sequence, as it was applied.
    public struct Before: Sendable {
        public var version: Int
        public var name: String
        public var checksum: String

        public init(_ version: Int, _ name: String, checksum: String) {
            self.version = version
            self.name = name
            self.checksum = checksum
        }
    }

    /// A migration of the per-app record that holds SQL of old files.
    public struct After: Sendable {
        public var app: String
        public var version: Int
        public var name: String
        public var checksum: String
        /// The versions of the old sequence its SQL comes from.
        public var from: [Int]

        public init(_ app: String, _ version: Int, _ name: String, checksum: String, from: [Int]) {
            self.app = app
            self.version = version
            self.name = name
            self.checksum = checksum
            self.from = from
        }
    }

    public var before: [Before]
    public var after: [After]
    /// What an operator whose database stopped short of `before`'s end should do, for the refusal.
    public var advice: String
    /// Where the old record is kept: renamed, not dropped, so that going
    /// back to a binary of the old numbering is a rename away.
    public static let keptAs = "schema_migrations_before_apps"

    public init(before: [Before], after: [After], advice: String) {
        self.before = before
        self.after = after
        self.advice = advice
    }

    /// Replaces a global record by the per-app one in one transaction;
    /// false when the record is already per app (or there is none).
    func carryOver(on connection: PostgresConnection) async throws -> Bool {
        guard try await PostgresMigrator.recordIsGlobal(on: connection) else { return false }
        _ = try await connection.query("BEGIN")
        do {
            let rows = try await connection.query(
                "SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY version FOR UPDATE")
            var appliedAt: [Int: Date] = [:]
            for row in rows {
                let version = try row.decode(Int.self, at: 0)
                let name = try row.decode(String.self, at: 1)
                let checksum = try row.decode(String.self, at: 2)
                guard let known = before.first(where: { $0.version == version }), known.name == name, known.checksum == checksum else {
                    throw PostgresMigrator.MigrationError(
                        description:
                            "schema_migrations records \(name) (number \(version)), which is not a file of the numbering before per-app migrations as released; remove its row, or apply what it did by hand as a new migration of the app it belongs to, then migrate again"
                    )
                }
                appliedAt[version] = try row.decode(Date.self, at: 3)
            }
            let missing = before.filter { appliedAt[$0.version] == nil }
            guard missing.isEmpty else {
                throw PostgresMigrator.MigrationError(
                    description:
                        "the database has not applied \(missing.map(\.name).joined(separator: ", ")) of the numbering before per-app migrations; \(advice)"
                )
            }
            _ = try await connection.query("ALTER TABLE schema_migrations RENAME TO \(Self.keptAs)")
            _ = try await connection.query("ALTER INDEX IF EXISTS schema_migrations_pkey RENAME TO \(Self.keptAs)_pkey")
            _ = try await connection.query(PostgresMigrator.createRecord)
            for migration in after {
                _ = try await connection.query(
                    "INSERT INTO schema_migrations (app, version, name, checksum, applied_at) VALUES ($1, $2, $3, $4, $5)",
                    [
                        migration.app, migration.version, migration.name, migration.checksum,
                        migration.from.compactMap { appliedAt[$0] }.max(),
                    ]
                )
            }
            _ = try await connection.query("COMMIT")
            return true
        } catch {
            _ = try? await connection.query("ROLLBACK")
            throw error
        }
    }
}
