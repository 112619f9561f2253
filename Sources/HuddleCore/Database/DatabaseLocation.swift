import Foundation
import HuddlePostgres
import HuddleRuntime

/// Where Huddle's data lives: the server `DATABASE_URL` names, or else a
/// private cluster under `.huddle/postgres` beside `Schema/`.
public struct DatabaseLocation: Sendable {
    public let configuration: PostgresConfiguration
    /// The private cluster, when no `DATABASE_URL` was given.
    public let privateCluster: PrivatePostgres?

    /// The server `configuration` names (no private cluster).
    package init(configuration: PostgresConfiguration) {
        self.init(configuration: configuration, privateCluster: nil)
    }

    private init(configuration: PostgresConfiguration, privateCluster: PrivatePostgres?) {
        self.configuration = configuration
        self.privateCluster = privateCluster
    }

    /// Resolves the location, initialising and starting the private cluster
    /// when it is the one (this blocks; call it before serving).
    public static func resolve(
        url: String? = ProcessInfo.processInfo.environment["DATABASE_URL"],
        packageRoot: URL = DatabaseLocation.packageRoot()
    ) throws -> DatabaseLocation {
        if let url, !url.isEmpty {
            return DatabaseLocation(configuration: PostgresConfiguration(url: url), privateCluster: nil)
        }
        let cluster = try PrivatePostgres(directory: packageRoot.appendingPathComponent(".huddle/postgres").path)
        return DatabaseLocation(configuration: PostgresConfiguration(url: cluster.url), privateCluster: cluster)
    }

    /// The folder holding `Schema/` (the working directory when there is none).
    public static func packageRoot() -> URL {
        SchemaDirectory.locate()?.deletingLastPathComponent()
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }

    /// Stops the private cluster when no other process uses it.
    public func stopPrivateCluster() {
        _ = try? privateCluster?.stopIfUnused()
    }

    /// Applies `migrations` (the schema's own, the shared core's then each
    /// mounted app's, by default) on a loop of its own, then registers the
    /// notice kinds of the shared core and `apps` (see `NotificationKind`);
    /// nil registers none (migrations of another schema). A database Huddle
    /// migrated before each app numbered its own is carried over first
    /// (`GlobalNumbering.huddle`).
    package func migrate(
        _ migrations: [Migration]? = nil, schema: SchemaDirectory, registering apps: [any App.Type]?
    ) async throws -> PostgresMigrator.Report {
        let numbering: GlobalNumbering? = migrations == nil ? .huddle : nil
        let migrations = try migrations ?? schema.migrations()
        let configuration = configuration
        let kinds = apps.map { Notifications.kinds(mounting: $0) }
        return try await EventLoop.withOwnThread { loop in
            let report = try await PostgresMigrator.migrate(
                migrations, carryingOver: numbering, configuration: configuration, on: loop)
            if let kinds {
                let connection = try await PostgresConnection.connect(configuration, on: loop)
                defer { connection.close() }
                try await Notifications.register(kinds, on: connection)
            }
            return report
        }
    }
}
