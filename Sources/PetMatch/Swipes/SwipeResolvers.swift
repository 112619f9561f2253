import Foundation
import GraphQL
import HuddleCore
import HuddlePostgres

/// A page of the swipe feed, and why it is empty when it is.
struct PetMatchPage: Sendable {
    var page: ConnectionPage
    /// NO_MATCHES or ALL_SEEN for an empty page.
    var emptyReason: String?
}

/// A favourite: the pet, and how and when it was favourited.
final class FavoriteRecord: Sendable {
    let pet: PetRecord
    let isSuper: Bool
    let favoritedAt: Date

    init(pet: PetRecord, isSuper: Bool, favoritedAt: Date) {
        self.pet = pet
        self.isSuper = isSuper
        self.favoritedAt = favoritedAt
    }
}

/// What `swipePet` answers.
struct SwipeResult: Sendable {
    var petID: Int64
    var direction: String
}

/// The swipe feed, swipes and favourites: each the viewer's own.
enum SwipeResolvers {
    /// The most pets one `removeFavoritePets` takes.
    static let maxRemovals = 100

    static func bind(_ binder: inout SchemaBinder) {
        binder.field("PetMatchConnection", "edges") { (page: PetMatchPage) in .list(page.page.edges.map { .object($0) }) }
        binder.field("PetMatchConnection", "pageInfo") { (page: PetMatchPage) in .object(page.page) }
        binder.field("PetMatchConnection", "emptyReason") { (page: PetMatchPage) in page.emptyReason.map { .scalar(.enum($0)) } ?? .null }
        binder.root("Query", "petMatches", matches)

        binder.field("FavoritePetConnection", "edges") { (page: ConnectionPage) in .list(page.edges.map { .object($0) }) }
        binder.field("FavoritePetConnection", "pageInfo") { (page: ConnectionPage) in .object(page) }
        binder.field("FavoritePetEdge", "cursor") { (edge: ConnectionPage.Edge) in .scalar(.string(edge.cursor)) }
        binder.field("FavoritePetEdge", "node") { (edge: ConnectionPage.Edge) in .object((edge.node as! FavoriteRecord).pet) }
        binder.field("FavoritePetEdge", "isSuper") { (edge: ConnectionPage.Edge) in
            .scalar(.boolean((edge.node as! FavoriteRecord).isSuper))
        }
        binder.field("FavoritePetEdge", "favoritedAt") { (edge: ConnectionPage.Edge) in
            Instant.value((edge.node as! FavoriteRecord).favoritedAt)
        }
        binder.root("Query", "favoritePets", favorites)

        binder.field("SwipeResult", "direction") { (result: SwipeResult) in .scalar(.enum(result.direction)) }
        binder.field("SwipeResult", "isFavorite") { (result: SwipeResult) in .scalar(.boolean(result.direction != "LEFT")) }
        binder.field("SwipeResult", "pet") { (result: SwipeResult, input) in
            input.request.petMatch.pets.load(result.petID) { $0.map { .object($0) } ?? .null }
        }
        binder.rootAsync("Mutation", "swipePet", swipe)
        binder.rootAsync("Mutation", "removeFavoritePets", removeFavorites)
    }

    /// Adoptable pets matching the viewer's preferences that they have not
    /// swiped: the preferences (one statement), then the page (one more).
    private static func matches(_ input: ResolverInput) throws -> Resolved {
        let viewer = try input.request.signedIn()
        let page = try PageRequest(input)
        let context = input.request
        return context.petMatch.preferences.load(viewer) { preferences in
            guard let preferences else { throw APIError.unauthenticated() }
            return .async {
                let criteria = preferences.criteria
                var query = PetListQuery(criteria: criteria, unseenBy: viewer, adoptableOnly: true, byDistance: criteria.near != nil)
                if query.byDistance {
                    query.directory = try await ShelterDirectory.shared(
                        context.primaryDatabase, listener: context.listener, limit: context.settings[PetMatch.sheltersInMemory])
                }
                let (connection, pets, shelters) = try await query.page(page, on: context.database)
                context.petMatch.prime(pets: pets, shelters: shelters, unseen: true)
                guard connection.edges.isEmpty else { return .object(PetMatchPage(page: connection, emptyReason: nil)) }
                // Empty: is there anything for these preferences at all?
                var any = query
                any.unseenBy = nil
                let (matching, _, _) = try await any.page(PageRequest(first: 1), on: context.database)
                return .object(PetMatchPage(page: connection, emptyReason: matching.edges.isEmpty ? "NO_MATCHES" : "ALL_SEEN"))
            }
        }
    }

    /// The viewer's favourites: super likes first, then newest.
    private static func favorites(_ input: ResolverInput) throws -> Resolved {
        let viewer = try input.request.signedIn()
        let page = try PageRequest(input)
        let query = KeysetQuery(
            columns: PetRecord.columns + ", f.is_super, f.created_at",
            from: "FROM pet_favorites f JOIN pets p ON p.id = f.pet_id WHERE f.user_id = $1",
            parameters: [viewer], keys: [("f.is_super", "boolean"), ("f.created_at", "timestamptz"), ("f.pet_id", "bigint")],
            descending: true)
        let context = input.request
        return .async {
            let connection = try await query.page(page, on: context.database) { row in
                FavoriteRecord(
                    pet: try PetRecord(row: row), isSuper: try row.decode(at: PetRecord.columnCount),
                    favoritedAt: try row.decode(at: PetRecord.columnCount + 1))
            }
            for edge in connection.edges {
                let favorite = edge.node as! FavoriteRecord
                context.petMatch.pets.prime(favorite.pet.id, favorite.pet)
                context.petMatch.viewerFavorites.prime(favorite.pet.id, true)
                context.petMatch.viewerSwipes.prime(favorite.pet.id, favorite.isSuper ? "SUPER" : "RIGHT")
            }
            return .object(connection)
        }
    }

    private static func swipe(_ input: ResolverInput) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let pet = try input.id("petId", of: "Pet")
        let direction = input.argument("direction")?.enumValue ?? ""
        do {
            // One row per (user, pet) whatever the race; the trigger refuses a
            // pet no longer adoptable and keeps the favourites.
            _ = try await input.request.database.query(
                """
                INSERT INTO pet_swipes (user_id, pet_id, direction) VALUES ($1, $2, $3)
                ON CONFLICT (user_id, pet_id) DO UPDATE SET direction = EXCLUDED.direction, swiped_at = now()
                """, [viewer, pet, direction])
        } catch let error as PostgresError where error.kind == .foreignKeyViolation {
            throw APIError.notFound("No pet has that id.")
        } catch {
            throw PetMatchErrors.translate(error)
        }
        input.request.petMatch.viewerSwipes.prime(pet, direction)
        input.request.petMatch.viewerFavorites.prime(pet, direction != "LEFT")
        return .object(SwipeResult(petID: pet, direction: direction))
    }

    private static func removeFavorites(_ input: ResolverInput) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let list = input.argument("petIds")?.listValue ?? []
        guard list.count <= maxRemovals else { throw APIError.badInput("Remove at most \(maxRemovals) favourites at a time.") }
        let pets = try list.map { try GlobalID.id(of: "Pet", $0.stringValue ?? "", argument: "petIds") }
        let rows = try await input.request.database.query(
            "DELETE FROM pet_favorites WHERE user_id = $1 AND pet_id = ANY($2::bigint[]) RETURNING pet_id", [viewer, pets])
        let removed = Set(try rows.map { try $0.decode(Int64.self, at: 0) })
        return .list(pets.filter { removed.contains($0) }.uniqued.map { GlobalID.value("Pet", $0) })
    }
}
