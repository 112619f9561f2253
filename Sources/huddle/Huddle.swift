import ArgumentParser
import Foundation

@main
struct Huddle: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "huddle",
        abstract: "Huddle: one GraphQL back end for four social apps.",
        version: Version.line,
        subcommands: [
            Serve.self, Migrate.self, Seed.self, Format.self, ValidateCommand.self, ExecuteCommand.self, SchemaCommand.self,
            PersistCommand.self, OutboxCommand.self, PushCommand.self, PlacesCommand.self,
            Version.self,
        ]
    )

    /// As ArgumentParser's, except that usage errors exit 2 (not 64), the
    /// status the commands document and scripts expect.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}
