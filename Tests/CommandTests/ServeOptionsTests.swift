import Foundation
import TestSupport
import Testing

/// `huddle serve` refuses what it cannot use before it starts anything:
/// a number in the environment that is not one (rather than ignoring it),
/// and a negative number given to an option (rather than taking it for an
/// option of its own).
@Suite struct ServeOptionsTests {
    @Test(arguments: [
        ("HUDDLE_PORT", "abc", "HUDDLE_PORT=abc is not a whole number"),
        ("HUDDLE_WORKERS", "two", "HUDDLE_WORKERS=two is not a whole number"),
        ("HUDDLE_MAX_COST", "1e3", "HUDDLE_MAX_COST=1e3 is not a whole number"),
        ("HUDDLE_SEND_TIMEOUT", "soon", "HUDDLE_SEND_TIMEOUT=soon is not a number"),
        ("HUDDLE_MAX_CONNECTIONS", "many", "HUDDLE_MAX_CONNECTIONS=many is not a whole number"),
    ])
    func aNumberInTheEnvironmentThatIsNotOneIsRefused(_ variable: String, _ value: String, _ message: String) throws {
        let outcome = try HuddleCommand.run(["serve", "--no-migrate"], environment: [variable: value])
        #expect(outcome.status == 2, "\(outcome.standardError)")
        #expect(outcome.standardError.hasPrefix("Error: \(message)\n"), "\(outcome.standardError)")
    }

    @Test(arguments: [
        (["--max-cost", "-1"], "--max-cost must be 0 or more"),
        (["--port", "-5"], "--port must be between 0 and 65535"),
        (["--send-timeout", "-2"], "--send-timeout must be between 0 and 3600 seconds"),
        (["--max-connections", "0"], "--max-connections must be 1 or more"),
    ])
    func aNegativeNumberIsReadAsTheOptionsValue(_ arguments: [String], _ message: String) throws {
        let outcome = try HuddleCommand.run(["serve"] + arguments)
        #expect(outcome.status == 2, "\(outcome.standardError)")
        #expect(outcome.standardError.hasPrefix("Error: \(message)\n"), "\(outcome.standardError)")
    }
}
