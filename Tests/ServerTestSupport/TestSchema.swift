import Foundation
import HabitBuddies
import HuddleCore
import PetMatch
import Playmate
import PostgresTestSupport
import Prolific
import RuntimeTestSupport
import TestSupport

/// The package's `Schema/` folder, with the apps `huddle` mounts.
package enum TestSchema {
    package static let apps: [any App.Type] = [Playmate.self, Prolific.self, PetMatch.self, HabitBuddies.self]

    package static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Schema")

    /// The folder on disk, every app mounted.
    package static let directory = SchemaDirectory(url: folder, mounting: apps)
}
