import HabitBuddies
import HuddleCore
import PetMatch
import Playmate
import Prolific

/// The apps this server serves, beside what they share. Adding an app is
/// its target, its folder under `Schema/`, its migrations, and a line here.
let mountedApps: [any App.Type] = [
    Playmate.self,
    Prolific.self,
    PetMatch.self,
    HabitBuddies.self,
]
