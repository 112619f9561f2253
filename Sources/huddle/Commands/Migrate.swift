import ArgumentParser
import Foundation
import HuddleCore
import HuddlePostgres
import HuddleRuntime

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Apply the database migrations of the shared core and each app (Schema/*/migrations).",
        discussion: """
            Applies each NNNN_description.sql not applied yet, the shared core's \
            first, then each app's; each app numbers its own. Each runs in a \
            transaction and is recorded by app and version, with its checksum, in \
            schema_migrations. A database migrated before each app numbered its \
            own is carried over once, running nothing again. \
            Refuses to run (exit 1) when an applied file has changed or is gone. \
            Uses DATABASE_URL, or the private cluster under .huddle/postgres when \
            it is not set. Processes migrating at once take turns (advisory lock).
            """
    )

    @Option(
        help: """
            A folder of migration files to apply instead, recorded under its app's name (the folder's, or its parent's when it is \
            named migrations).
            """)
    var migrations: String?

    @OptionGroup var schema: SchemaFolderOption

    func run() async throws {
        let location = try DatabaseLocation.resolveForCommand()
        defer { location.stopPrivateCluster() }
        do {
            // The apps' notice kinds go with Huddle's own migrations, not with a folder given instead.
            let report = try await location.migrate(
                try migrations.map { try PostgresMigrator.migrations(in: $0, app: Self.app(ofFolder: $0)) }, schema: try schema.directory(),
                registering: migrations == nil ? mountedApps : nil)
            if report.carriedOver { print("carried over from one numbering to each app's own; nothing ran again") }
            for migration in report.applied { print("applied \(migration.path)") }
            print("\(report.applied.count) applied, \(report.unchanged) already applied")
        } catch {
            FileHandle.standardError.write(Data("huddle: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }

    /// `Schema/prolific/migrations` is prolific's; any other folder is its own name's (in the characters app names take).
    static func app(ofFolder path: String) -> String {
        let folder = URL(fileURLWithPath: path).standardizedFileURL
        let name =
            folder.lastPathComponent == "migrations" ? folder.deletingLastPathComponent().lastPathComponent : folder.lastPathComponent
        // schema_migrations takes app names of lower-case letters, digits, - and _, from a letter.
        let cleaned = String(name.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") ? $0 : "-" })
        return cleaned.first?.isLetter == true ? cleaned : "m" + cleaned
    }
}
