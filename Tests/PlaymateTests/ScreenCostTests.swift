import Foundation
import GraphQL
import HuddleCore
import Playmate
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// The default operation limits measured against the queries Playmate's
/// screens send: every screen fits with room to spare, and the attacks
/// that took the server's time (issues 18 and 20) are refused before any
/// resolver runs. The figures here are the ones docs/operations.md's "Limits" gives.
@Suite struct ScreenCostTests {
    static let screens: [String: String] = [
        "home": """
        query Home {
          me { username friendCount statistics { sessionsPlayed hoursPlayed sessionsPerSport { sport sessions } } }
          mySessions(first: 5) { edges { node { id sport occursAt location { name } players { username profileImageUrl } } } }
          sessionSuggestions(first: 50) { emptyReason suggestions { score session { id sport occursAt openSpots location { name } } } }
          notifications(first: 10, unreadOnly: true) { edges { node { kind message actor { username } } } }
          unreadNotificationCount
        }
        """,
        "feed": """
        query Feed { sportsSessions(first: 100) { edges { cursor node { id sport skillLevel occursAt durationMinutes capacity occupied
          creator { id username firstName lastName } players { id username } location { name latitude longitude } } }
          pageInfo { hasNextPage endCursor } } }
        """,
        "nearby": """
        query Nearby {
          sportsSessions(first: 20, orderBy: DISTANCE, filter: {sports: [TENNIS], hasOpenSpots: true, near: {latitude: 40.78, longitude: -73.97, radiusKm: 5}}) {
            edges { cursor node { id sport skillLevel occursAt durationMinutes distanceKm openSpots capacity location { name latitude longitude } creator { username } players { id username profileImageUrl } } }
            pageInfo { hasNextPage endCursor }
          }
        }
        """,
        "place search": """
        query Places($q: String!) { searchPlaces(query: $q, first: 50) { name region countryCode postalCode latitude longitude }
          searchLocations(query: $q, first: 50) { id name latitude longitude } }
        """,
        "profile": """
        query Profile($username: String!) {
          userByUsername(username: $username) {
            id username firstName lastName biography profileImageUrl isFriend friendCount
            statistics { sessionsPlayed hoursPlayed sessionsCreated friendCount sessionsPerSport { sport sessions } }
            friends(first: 20) { edges { node { id username profileImageUrl } } pageInfo { hasNextPage endCursor } }
          }
        }
        """,
        "session": """
        query Session($id: ID!) {
          sportsSession(id: $id) {
            id sport skillLevel occursAt durationMinutes capacity occupied openSpots viewerIsPlayer
            location { name latitude longitude } creator { id username }
            players { id username profileImageUrl isFriend }
          }
          me { friends(first: 50) { edges { node { id username } } } }
        }
        """,
    ]

    static let cost = ScreenCost(mounting: [Playmate.self])

    func measure(_ query: String, variables: [GraphQLValue.Member] = []) throws -> OperationCost {
        try Self.cost.measure(query, variables: variables)
    }

    @Test(arguments: screens.keys.sorted())
    func everyScreenFitsTheDefaultLimits(_ screen: String) throws {
        try Self.cost.expectFits(
            screen, Self.screens[screen]!,
            variables: [.init("username", .string("demo")), .init("id", .string("x")), .init("q", .string("brook"))])
    }

    @Test func friendsOfFriendsFitsTheDepthLimit() throws {
        let measured = try measure(
            "{ me { friends(first: 20) { edges { node { friends(first: 20) { edges { node { username } } } } } } } }")
        #expect(measured.depth == 8)
        #expect(ExecutionLimits.default.refusal(of: measured) == nil)
    }

    @Test func friendsOfFriendsEightDeepIsRefusedForItsCost() throws {
        var query = "id"
        for _ in 0..<8 { query = "friends(first: 100) { edges { node { \(query) } } }" }
        let measured = try measure("{ me { \(query) } }")
        #expect(ExecutionLimits.default.refusal(of: measured)?.extensions.first?.value == .string("COST_LIMIT_EXCEEDED"))
    }

    @Test func playersOfFriendsFourDeepIsRefusedForItsCost() throws {
        let measured = try measure(
            """
            { sportsSessions(first: 100) { edges { node { players { friends(first: 100) { edges { node {
              friends(first: 100) { edges { node { id } } } } } } } } } } }
            """)
        #expect(ExecutionLimits.default.refusal(of: measured) != nil)
    }
}
