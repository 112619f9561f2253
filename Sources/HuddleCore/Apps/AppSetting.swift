import Foundation

/// A setting an app reads (the cap on buddies, how long before a session
/// its players are reminded): a name, a safe default and the values it may
/// take. Operators set it with `huddle serve --set NAME=VALUE` or the
/// environment variable `HUDDLE_` + the name in capitals with underscores.
package struct AppSetting: Sendable, Hashable {
    /// Lowercase words joined by hyphens (`max-buddies`).
    package let name: String
    package let defaultValue: Int
    package let range: ClosedRange<Int>
    package let help: String

    package init(_ name: String, default defaultValue: Int, range: ClosedRange<Int>, help: String) {
        precondition(range.contains(defaultValue), "\(name)'s default is outside its range")
        self.name = name
        self.defaultValue = defaultValue
        self.range = range
        self.help = help
    }

    /// `HUDDLE_MAX_BUDDIES` for `max-buddies`.
    package var environmentVariable: String {
        "HUDDLE_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
    }
}

/// The values of the mounted apps' settings, each its default unless set.
package struct AppSettings: Sendable {
    private var values: [String: Int] = [:]

    package init() {}

    /// The settings the shared core and `apps` declare.
    package static func declared(mounting apps: [any App.Type]) -> [AppSetting] {
        ([Shared.self] + apps).flatMap { $0.settings }
    }

    package subscript(_ setting: AppSetting) -> Int { values[setting.name] ?? setting.defaultValue }

    /// A setting's value, from the environment (`environmentVariable`) and
    /// then the `NAME=VALUE` assignments, which win; throws a message naming
    /// the setting for an unknown name or a value outside its range.
    package init(_ declared: [AppSetting], environment: [String: String], assignments: [String]) throws(Invalid) {
        let byName = Dictionary(declared.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        func set(_ setting: AppSetting, _ text: String, from source: String) throws(Invalid) {
            guard let value = Int(text.trimmingCharacters(in: .whitespaces)), setting.range.contains(value) else {
                throw Invalid(
                    description:
                        "\(source): \(setting.name) must be a whole number from \(setting.range.lowerBound) to \(setting.range.upperBound)")
            }
            values[setting.name] = value
        }
        for setting in declared {
            if let text = environment[setting.environmentVariable] { try set(setting, text, from: setting.environmentVariable) }
        }
        for assignment in assignments {
            let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let setting = byName[parts[0]] else {
                throw Invalid(
                    description:
                        "--set \(assignment): expected NAME=VALUE with NAME one of \(declared.map(\.name).sorted().joined(separator: ", "))"
                )
            }
            try set(setting, parts[1], from: "--set")
        }
    }

    package struct Invalid: Error, CustomStringConvertible {
        package var description: String
    }
}
