import ArgumentParser
import Foundation
import HuddleCore
import HuddlePostgres
import HuddleRuntime

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Apply the database migrations in Schema/migrations.",
        discussion: """
            Applies each NNNN_description.sql not applied yet, in order, each in \
            a transaction, and records it with its checksum in schema_migrations. \
            Refuses to run (exit 1) when an applied file has changed or is gone. \
            Uses DATABASE_URL, or the private cluster under .huddle/postgres when \
            it is not set. Processes migrating at once take turns (advisory lock).
            """
    )

    @Option(help: "The folder of migration files (default: the schema's migrations/).")
    var migrations: String?

    @OptionGroup var schema: SchemaFolderOption

    func run() async throws {
        let location = try DatabaseLocation.resolveForCommand()
        defer { location.stopPrivateCluster() }
        do {
            // The apps' notice kinds go with Huddle's own migrations, not with a folder given instead.
            let report = try await location.migrate(
                try migrations.map { try PostgresMigrator.migrations(in: $0) }, schema: try schema.directory(),
                registering: migrations == nil ? mountedApps : nil)
            for migration in report.applied { print("applied \(migration.name)") }
            print("\(report.applied.count) applied, \(report.unchanged) already applied")
        } catch {
            FileHandle.standardError.write(Data("huddle: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }
}
