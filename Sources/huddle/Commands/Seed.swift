import ArgumentParser
import Foundation
import HuddleCore
import HuddlePostgres
import HuddleRuntime

struct Seed: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Fill an empty database with deterministic demo data for every app.",
        discussion: """
            demo (the default): 40 accounts (sign in as demo / \(DemoData.password)) and a small set of each app's data. \
            bench: 10,000 accounts and each app's data at the size its benchmark reads (docs/performance.md). \
            --apps seeds only the named apps' data beside the shared accounts, as a benchmark that reads one app needs. \
            Applies the migrations first. Uses DATABASE_URL, or the private cluster under .huddle/postgres. \
            Refuses a database that has users already.
            """
    )

    @Option(help: "demo or bench.")
    var scale: String = "demo"

    @Option(
        help: "Only these apps' data, comma-separated (\(mountedApps.map { $0.schemaFolder }.joined(separator: ", "))); all by default.")
    var apps: String?

    @OptionGroup var schema: SchemaFolderOption

    func validate() throws {
        guard DemoScale(rawValue: scale) != nil else { throw ValidationError("--scale must be demo or bench") }
        _ = try seededApps()
    }

    /// The mounted apps `--apps` names, in mounting order.
    private func seededApps() throws -> [any App.Type] {
        guard let apps else { return mountedApps }
        let names = Set(apps.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
        let unknown = names.subtracting(mountedApps.map { $0.schemaFolder })
        guard unknown.isEmpty else {
            throw ValidationError(
                "--apps: no app named \(unknown.sorted().joined(separator: ", ")); the apps are \(mountedApps.map { $0.schemaFolder }.joined(separator: ", "))"
            )
        }
        return mountedApps.filter { names.contains($0.schemaFolder) }
    }

    func run() async throws {
        let location = try DatabaseLocation.resolveForCommand()
        defer { location.stopPrivateCluster() }
        do {
            _ = try await location.migrate(schema: try schema.directory(), registering: mountedApps)
            let configuration = location.configuration
            let scale = DemoScale(rawValue: scale)!
            let seeded = try seededApps()
            let summary = try await EventLoop.withOwnThread { loop in
                let pool = PostgresPool(configuration, on: loop)
                do {
                    let summary = try await DemoData.seed(scale, apps: seeded, into: pool)
                    await pool.close()
                    return summary
                } catch {
                    await pool.close()
                    throw error
                }
            }
            print("seeded \(summary)")
        } catch {
            FileHandle.standardError.write(Data("huddle: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }
}
