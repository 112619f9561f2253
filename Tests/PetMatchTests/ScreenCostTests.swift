import GraphQL
import PetMatch
import ServerTestSupport
import Testing

/// petMatch's screens, each at its largest page, against the default
/// operation limits (the server measures an operation before it runs).
@Suite struct ScreenCostTests {
    static let cost = ScreenCost(mounting: [PetMatch.self])

    static let screens: [String: String] = [
        "swipe": """
        query Swipe { petMatches(first: 100) { emptyReason pageInfo { hasNextPage endCursor }
          edges { node { id name ageGroup gender size description photos distanceKm primaryBreed { name } secondaryBreed { name }
                         shelter { name phone email address { city } } } } } }
        """,
        "favorites": """
        query Favorites { favoritePets(first: 100) { edges { isSuper favoritedAt node { id name status photos(size: THUMBNAIL)
          shelter { name phone email } } } pageInfo { hasNextPage endCursor } } }
        """,
        "search": """
        query Search { pets(first: 100, orderBy: DISTANCE, filter: {type: DOG, near: {latitude: 40.7, longitude: -74.0}, distanceKm: 50}) {
          edges { node { id name photos distanceKm primaryBreed { name } shelter { name } } } pageInfo { hasNextPage endCursor } }
          searchPlaces(query: "brooklyn", first: 50) { name latitude longitude } }
        """,
        "shelters": """
        query Shelters { shelters(first: 100, near: {latitude: 40.7, longitude: -74.0}, distanceKm: 50) {
          edges { node { id name phone email distanceKm address { city } staff { username } } } }
          myShelters { id name staff { username } } }
        """,
        "catalogue": """
        query Catalogue { petTypes { type name coats colors breeds { id name } } petPreferences { type sizes distanceKm location { latitude longitude } } }
        """,
    ]

    @Test(arguments: screens.keys.sorted())
    func everyScreenFitsTheDefaultLimits(_ screen: String) throws {
        try Self.cost.expectFits(screen, Self.screens[screen]!)
    }
}
