import Foundation
import HabitBuddies
import HuddleCore
import PetMatch
import Playmate
import Prolific

/// The package's `Schema/` folder, with the apps `huddle` mounts.
enum TestSchema {
    static let apps: [any App.Type] = [Playmate.self, Prolific.self, PetMatch.self, HabitBuddies.self]

    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Schema")

    /// The folder on disk, every app mounted.
    static let directory = SchemaDirectory(url: folder, mounting: apps)
}
