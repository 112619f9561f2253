import ArgumentParser
import Foundation
import HuddleCore
import HuddlePostgres
import HuddleRuntime

struct Seed: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Fill an empty database with deterministic Playmate data.",
        discussion: """
            demo (the default): 40 players (sign in as demo / \(DemoData.password)), 12 places, 60 sessions. \
            bench: 10,000 players, 2,000 places, 20,000 sessions with 2 to 10 players each. \
            Applies the migrations first. Uses DATABASE_URL, or the private cluster under .huddle/postgres. \
            Refuses a database that has users already.
            """
    )

    @Option(help: "demo or bench.")
    var scale: String = "demo"

    @OptionGroup var schema: SchemaFolderOption

    func validate() throws {
        guard DemoScale(rawValue: scale) != nil else { throw ValidationError("--scale must be demo or bench") }
    }

    func run() async throws {
        let location = try DatabaseLocation.resolveForCommand()
        defer { location.stopPrivateCluster() }
        do {
            _ = try await location.migrate(schema: try schema.directory(), registering: mountedApps)
            let configuration = location.configuration
            let scale = DemoScale(rawValue: scale)!
            let summary = try await EventLoop.withOwnThread { loop in
                let pool = PostgresPool(configuration, on: loop)
                do {
                    let summary = try await DemoData.seed(scale, apps: mountedApps, into: pool)
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
