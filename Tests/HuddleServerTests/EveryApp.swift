import HabitBuddies
import HuddleCore
import PetMatch
import Playmate
import Prolific
import ServerTestSupport

/// The apps `huddle serve` mounts: these tests run the server as it ships.
let everyApp: [any App.Type] = [Playmate.self, Prolific.self, PetMatch.self, HabitBuddies.self]

extension TestSchema {
    /// The folder on disk with every app mounted.
    static let everything = TestSchema.directory(mounting: everyApp)
}
