import Foundation
import TestSupport
import Testing

/// Every command's help answers, and says what the command does now: seed
/// fills every mounted app's data, not only Playmate's.
@Suite struct HelpTextTests {
    @Test(arguments: [
        "serve", "migrate", "seed", "format", "validate", "execute", "schema", "persist", "outbox", "push", "places", "version",
    ])
    func everyCommandAnswersHelp(_ command: String) throws {
        let outcome = try HuddleCommand.run([command, "--help"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.hasPrefix("OVERVIEW: "), "\(outcome.standardOutput)")
    }

    @Test func seedSaysItFillsEveryApp() throws {
        let help = try HuddleCommand.run(["seed", "--help"]).standardOutput
        #expect(help.hasPrefix("OVERVIEW: Fill an empty database with deterministic demo data for every app."), "\(help)")
        #expect(!help.contains("Playmate data"))
    }
}
