import Foundation
import HabitBuddies
import HuddleCore
import Playmate
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// The apps' settings: each takes the ends of its range and refuses a value
/// just past either, naming itself; `--set` wins over the environment.
struct AppSettingTests {
    static let declared = Playmate.settings + HabitBuddies.settings

    @Test(arguments: declared)
    func aSettingTakesItsLimitsAndRefusesJustOver(_ setting: AppSetting) throws {
        for value in [setting.range.lowerBound, setting.range.upperBound] {
            let settings = try AppSettings(Self.declared, environment: [:], assignments: ["\(setting.name)=\(value)"])
            #expect(settings[setting] == value)
        }
        for value in [setting.range.lowerBound - 1, setting.range.upperBound + 1] {
            #expect {
                try AppSettings(Self.declared, environment: [:], assignments: ["\(setting.name)=\(value)"])
            } throws: { error in
                "\(error)".contains(setting.name) && "\(error)".contains("\(setting.range.upperBound)")
            }
        }
        #expect(try AppSettings(Self.declared, environment: [:], assignments: [])[setting] == setting.defaultValue)
    }

    @Test func theCommandLineWinsOverTheEnvironment() throws {
        let setting = try #require(Self.declared.first { $0.name == "session-reminder-minutes" })
        #expect(setting.environmentVariable == "HUDDLE_SESSION_REMINDER_MINUTES")
        let fromEnvironment = try AppSettings(Self.declared, environment: ["HUDDLE_SESSION_REMINDER_MINUTES": "30"], assignments: [])
        #expect(fromEnvironment[setting] == 30)
        let both = try AppSettings(
            Self.declared, environment: ["HUDDLE_SESSION_REMINDER_MINUTES": "30"], assignments: ["session-reminder-minutes=45"])
        #expect(both[setting] == 45)
        #expect(throws: AppSettings.Invalid.self) {
            try AppSettings(Self.declared, environment: [:], assignments: ["session-reminders=45"])
        }
        #expect(throws: AppSettings.Invalid.self) {
            try AppSettings(Self.declared, environment: ["HUDDLE_MAX_BUDDIES": "three"], assignments: [])
        }
    }

    @Test func theServerRefusesToStartWithASettingOutOfRange() throws {
        let refused = try HuddleCommand.run(["serve", "--set", "session-reminder-minutes=10081"])
        #expect(refused.status == 2)
        #expect(
            refused.standardError.contains("session-reminder-minutes must be a whole number from 0 to 10080"), "\(refused.standardError)")
        let unknown = try HuddleCommand.run(["serve", "--set", "no-such-setting=1"])
        #expect(unknown.status == 2)
        #expect(unknown.standardError.contains("max-buddies"), "\(unknown.standardError)")
    }
}
