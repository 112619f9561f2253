import GraphQL
import HabitBuddies
import ServerTestSupport
import Testing

/// Habit Buddies' screens, each at its largest page, against the default
/// operation limits (the server measures an operation before it runs).
@Suite struct ScreenCostTests {
    static let cost = ScreenCost(mounting: [HabitBuddies.self])

    static let screens: [String: String] = [
        "dashboard": """
        query Dashboard { habitDashboard {
          profile { timeZone today buddyCount maxBuddies }
          habits { id name status startedOn currentStreak longestStreak checkInCount lastCheckIn checkedInToday
                   completionRate milestones { days reachedOn } calendar { date done isFuture isBeforeStart } }
          buddies { since user { id username avatar } habits { name currentStreak checkedInToday }
                    scoresReceived(first: 5) { score } }
          nextMeeting { id startsAt endsAt timeZone status organizer { username } invitee { username } }
        } }
        """,
        "find a buddy": """
        query Candidates { buddyCandidates(first: 50) { cycling emptyReason
          candidates { user { id username avatar } sharedHabits timeZone hoursAhead recentActivity score previousSwipe } } }
        """,
        "meetings": """
        query Meetings { meetings(first: 100, includePast: true) { edges { node { id startsAt endsAt timeZone localStart durationMinutes
          status organizer { username } invitee { username } } } pageInfo { hasNextPage endCursor } } }
        """,
        "buddies": """
        query Buddies { buddies { since user { username avatar } habits { name currentStreak longestStreak completionRate }
          scoresReceived(first: 20) { score } scoresGiven(first: 20) { score } } }
        """,
    ]

    @Test(arguments: screens.keys.sorted())
    func everyScreenFitsTheDefaultLimits(_ screen: String) throws {
        try Self.cost.expectFits(screen, Self.screens[screen]!)
    }
}
