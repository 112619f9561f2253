import GraphQL
import HuddleCore
import HuddlePostgres
import HuddleRuntime
import Synchronization

/// petMatch: adoptable pets to swipe on, listed by shelters' staff.
package enum PetMatch: App {
    package static let schemaFolder = "petmatch"
    package static var schemaFiles: [(path: String, text: String)] { EmbeddedSchema.files }

    package static func bind(_ binder: inout SchemaBinder) {
        CatalogueResolvers.bind(&binder)
        ShelterResolvers.bind(&binder)
        PetResolvers.bind(&binder)
        PreferenceResolvers.bind(&binder)
        SwipeResolvers.bind(&binder)
        PetMatchInbox.bind(&binder)
    }

    package static let nodeTypes = [
        NodeType("Pet", PetRecord.self) { id, context in
            context.petMatch.pets.load(id) { $0.map { .object($0, typename: "Pet") } ?? .null }
        },
        NodeType("Shelter", ShelterRecord.self) { id, context in
            context.petMatch.shelters.load(id) { $0.map { .object($0, typename: "Shelter") } ?? .null }
        },
    ]

    package static let notificationKinds = PetMatchInbox.kinds
    package static let noticeStyles: [NotificationKind: NoticeStyle] = [
        .favoritePetStatusChanged: NoticeStyle(title: "petMatch: news of a pet you like"),
        .favoritePetUpdated: NoticeStyle(title: "petMatch", urgency: .low, promotional: true),
    ]

    package static let settings = [sheltersInMemory]

    /// The most shelters a process keeps to order the feed by distance itself (`ShelterDirectory`).
    static let sheltersInMemory = AppSetting(
        "shelters-in-memory", default: 20_000, range: 0...1_000_000,
        help:
            "petMatch: the most shelters a process keeps in memory to order pets by distance; past it, or at 0, PostgreSQL's index orders them"
    )

    package static func seed(_ scale: DemoScale, users: Int, on connection: PostgresConnection) async throws -> String? {
        try await PetMatchDemoData.seed(scale, users: users, on: connection)
    }

    /// Their feed preferences, swipes, favourites and staff memberships.
    package static func exportData(of user: Int64, on connection: PostgresConnection) async throws -> String? {
        try await connection.query(
            """
            SELECT jsonb_build_object(
              'preferences', (SELECT to_jsonb(p) FROM pet_preferences p WHERE p.user_id = $1),
              'preferredBreeds', (SELECT coalesce(jsonb_agg(b.breed_id ORDER BY b.breed_id), '[]') FROM pet_preference_breeds b
                                  WHERE b.user_id = $1),
              'swipes', (SELECT coalesce(jsonb_agg(to_jsonb(s) ORDER BY s.swiped_at, s.pet_id), '[]') FROM pet_swipes s WHERE s.user_id = $1),
              'favorites', (SELECT coalesce(jsonb_agg(to_jsonb(f) ORDER BY f.created_at, f.pet_id), '[]') FROM pet_favorites f
                            WHERE f.user_id = $1),
              'shelterStaff', (SELECT coalesce(jsonb_agg(to_jsonb(s) ORDER BY s.shelter_id), '[]') FROM shelter_staff s WHERE s.user_id = $1)
            )::text
            """, [user])[0].decode(String.self, at: 0)
    }

    /// A shelter keeps at least one staff member, so its last one cannot
    /// leave: the deletion says which shelters need another first. The
    /// rest (swipes, favourites, preferences, memberships) goes with the account.
    package static func prepareDeletion(of user: Int64, on connection: PostgresConnection) async throws {
        // Their shelters first, in id order: two staff members leaving at
        // once take turns, and the second then sees the first gone (the
        // next statement reads after the lock).
        _ = try await connection.query(
            "SELECT id FROM shelters WHERE id IN (SELECT shelter_id FROM shelter_staff WHERE user_id = $1) ORDER BY id FOR UPDATE", [user])
        let alone = try await connection.query(
            """
            SELECT sh.name FROM shelter_staff s JOIN shelters sh ON sh.id = s.shelter_id
            WHERE s.user_id = $1 AND NOT EXISTS (SELECT 1 FROM shelter_staff o WHERE o.shelter_id = s.shelter_id AND o.user_id <> $1)
            ORDER BY sh.name
            """, [user]
        ).map { try $0.decode(String.self, at: 0) }
        guard alone.isEmpty else {
            let names = alone.map { "\"\($0)\"" }.joined(separator: ", ")
            throw APIError.badInput(
                "You are the only staff member of \(names); add another staff member before deleting your account.")
        }
    }
}

/// petMatch's batching loaders of one operation.
final class PetMatchLoaders: RequestLoaders {
    private enum Slot: Int, CaseIterable {
        case pets, shelters, preferences, viewerSwipes, viewerFavorites, viewerStaff, staff
    }
    private let slots = LoaderSlots<Slot>()
    private let database: PostgresPool
    private let viewer: LoaderViewer
    /// Read by the loaders whose rows depend on who asks, when they are made.
    private var viewerID: Int64? { viewer.userID }
    private let shared: Loaders
    private let shelterPetPages = Mutex<[String: DataLoader<OwnedPage, ConnectionPage>]>([:])

    init(database: PostgresPool, viewer: LoaderViewer, shared: Loaders) {
        self.database = database
        self.viewer = viewer
        self.shared = shared
    }

    var pets: DataLoader<Int64, PetRecord?> {
        slots.loader(.pets) { Loaders.byID(database, PetRecord.columns, from: "pets", as: "p") { try PetRecord(row: $0) } }
    }
    var shelters: DataLoader<Int64, ShelterRecord?> {
        slots.loader(.shelters) { Loaders.byID(database, ShelterRecord.columns, from: "shelters", as: "s") { try ShelterRecord(row: $0) } }
    }
    var preferences: DataLoader<Int64, PreferencesRecord?> {
        slots.loader(.preferences) { [database] in
            DataLoader { ids in
                let rows = try await database.query(PreferencesRecord.select, [ids])
                var found: [Int64: PreferencesRecord] = [:]
                for row in rows {
                    let preferences = try PreferencesRecord(row: row)
                    found[preferences.userID] = preferences
                }
                return ids.map { .success(found[$0]) }
            }
        }
    }
    /// The viewer's swipe on each pet.
    var viewerSwipes: DataLoader<Int64, String?> {
        slots.loader(.viewerSwipes) { [database, viewerID] in
            DataLoader { ids in
                guard let viewerID else { return ids.map { _ in .success(nil) } }
                var found: [Int64: String] = [:]
                for row in try await database.query(
                    "SELECT pet_id, direction FROM pet_swipes WHERE user_id = $1 AND pet_id = ANY($2::bigint[])", [viewerID, ids])
                {
                    found[try row.decode(Int64.self, at: 0)] = try row.decode(String.self, at: 1)
                }
                return ids.map { .success(found[$0]) }
            }
        }
    }
    /// Whether each pet is among the viewer's favourites.
    var viewerFavorites: DataLoader<Int64, Bool> {
        slots.loader(.viewerFavorites) {
            Loaders.viewerSet(database, viewerID, in: "pet_favorites", viewerColumn: "user_id", idColumn: "pet_id")
        }
    }
    /// Whether the viewer is on each shelter's staff.
    var viewerStaff: DataLoader<Int64, Bool> {
        slots.loader(.viewerStaff) {
            Loaders.viewerSet(database, viewerID, in: "shelter_staff", viewerColumn: "user_id", idColumn: "shelter_id")
        }
    }
    /// Each shelter's staff, by username.
    var staff: DataLoader<Int64, [UserRecord]> {
        slots.loader(.staff) { [database, shared] in
            DataLoader { ids in
                let rows = try await database.query(
                    """
                    SELECT \(UserRecord.columns), m.shelter_id FROM shelter_staff m JOIN users u ON u.id = m.user_id
                    WHERE m.shelter_id = ANY($1::bigint[]) ORDER BY m.shelter_id, lower(u.username)
                    """, [ids])
                return try Loaders.grouped(ids, rows) { row in
                    let user = try UserRecord(row: row)
                    shared.prime(user)
                    return (try row.decode(Int64.self, at: rows.columnCount - 1), user)
                }
            }
        }
    }

    /// Gives the loaders what a list's statement read with its pets (their
    /// shelters), and what a feed page knows of the viewer (unswiped).
    func prime(pets: [PetRecord], shelters: [ShelterRecord], unseen: Bool) {
        for shelter in shelters { self.shelters.prime(shelter.id, shelter) }
        guard unseen else { return }
        for pet in pets {
            viewerSwipes.prime(pet.id, nil)
            viewerFavorites.prime(pet.id, false)
        }
    }

    /// Shelters' pages of pets, newest first, of one status or all (nil).
    func shelterPets(status: String?) -> DataLoader<OwnedPage, ConnectionPage> {
        shelterPetPages.withLock { loaders in
            if let loader = loaders[status ?? ""] { return loader }
            let database = database
            let loader = KeysetQuery.loader(on: database) {
                KeysetQuery(
                    columns: PetRecord.columns,
                    from: "FROM pets p WHERE p.shelter_id = owner.id AND ($1::text IS NULL OR p.status = $1::text)",
                    parameters: [status], keys: [("p.published_at", "timestamptz"), ("p.id", "bigint")], descending: true)
            } node: {
                try PetRecord(row: $0)
            }
            loaders[status ?? ""] = loader
            return loader
        }
    }
}

extension RequestContext {
    /// The operation's petMatch loaders.
    var petMatch: PetMatchLoaders { loaders(PetMatchLoaders.self) }
}

/// The database's refusals (its first migration's SQLSTATEs PM001-PM005), as
/// answers a client can act on. The resolvers check first; these are for a
/// write that raced a change (a status change under a swipe).
enum PetMatchErrors {
    static func translate(_ error: any Error) -> any Error {
        guard let database = error as? PostgresError else { return error }
        switch database.sqlState {
        case "PM001": return APIError.badInput("This pet is no longer up for adoption.")
        case "PM002": return APIError.forbidden("Only the shelter's staff can change its pets.")
        case "PM003": return APIError.badInput("A pet stays with its shelter.")
        case "PM004": return APIError.badInput("Only a pet swiped right is a favourite.")
        case "PM005": return APIError.badInput("A shelter keeps at least one staff member.")
        default: return error
        }
    }

    /// Runs `body`, translating the database's refusals.
    static func translating<T>(_ body: () async throws -> T) async throws -> T {
        try await APIError.translating(translate, body)
    }
}

extension Array where Element: Hashable {
    /// The elements without repeats, in their first order.
    var uniqued: [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
