import GraphQL
import HuddleCore
import HuddlePostgres

/// A pet's uploaded photos: added from an upload, removed, put in a new
/// order, by its shelter's staff. An uploaded photo belongs to the pet; the
/// database removes its picture with it (`pet_photos_remove_media`).
enum PetPhotoMutations {
    static func bind(_ binder: inout SchemaBinder) {
        binder.rootAsync("Mutation", "addPetPhoto", add)
        binder.rootAsync("Mutation", "removePetPhoto", remove)
        binder.rootAsync("Mutation", "reorderPetPhotos", reorder)
    }

    private static func add(_ input: ResolverInput) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let id = try input.id("petId", of: "Pet")
        let upload = input.string("file") ?? ""
        return try await PetMatchErrors.translating {
            try await input.request.database.withTransaction { connection in
                let current = try await PetMutations.locked(id, by: viewer, on: connection)
                let count = try await photoCount(id, on: connection)
                guard count < PetMutations.maxPhotos else {
                    throw APIError.badInput("A pet has at most \(PetMutations.maxPhotos) photos.")
                }
                guard let picture = try await Uploads.claim(upload, by: viewer, for: "pet-photo", keepingOwner: false, on: connection)
                else { throw APIError.badInput(Uploads.notClaimable) }
                _ = try await connection.query(
                    "INSERT INTO pet_photos (pet_id, position, media_id) VALUES ($1, $2, $3)", [id, count, picture.id])
                return .object(try await changed(id, by: viewer, saying: "\(current.name) has a new photo.", on: connection))
            }
        }
    }

    private static func remove(_ input: ResolverInput) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let id = try input.id("petId", of: "Pet")
        let position = input.argument("position")?.intValue ?? -1
        return try await PetMatchErrors.translating {
            try await input.request.database.withTransaction { connection in
                _ = try await PetMutations.locked(id, by: viewer, on: connection)
                let count = try await photoCount(id, on: connection)
                guard (0..<count).contains(position) else {
                    throw APIError.badInput("The pet has no photo at position \(position).")
                }
                try await arrange(id, of: count, keeping: (0..<count).filter { $0 != position }, on: connection)
                return .object(try await changed(id, by: viewer, saying: nil, on: connection))
            }
        }
    }

    private static func reorder(_ input: ResolverInput) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let id = try input.id("petId", of: "Pet")
        let order = input.argument("order")?.listValue?.compactMap(\.intValue) ?? []
        return try await PetMatchErrors.translating {
            try await input.request.database.withTransaction { connection in
                _ = try await PetMutations.locked(id, by: viewer, on: connection)
                let count = try await photoCount(id, on: connection)
                guard order.sorted() == Array(0..<count) else {
                    throw APIError.badInput("The order must name each of the pet's \(count) photos' positions (0 to \(count - 1)) once.")
                }
                try await arrange(id, of: count, keeping: order, on: connection)
                return .object(try await changed(id, by: viewer, saying: nil, on: connection))
            }
        }
    }

    /// How many photos the pet has, read after its row was locked (a
    /// subquery of the locking statement would see them as before the wait).
    private static func photoCount(_ pet: Int64, on connection: PostgresConnection) async throws -> Int {
        try await connection.query("SELECT count(*)::int FROM pet_photos WHERE pet_id = $1", [pet])[0].decode(Int.self, at: 0)
    }

    /// The pet's `count` photos become those now at `positions`, in that
    /// order, in one statement; a photo left out goes, and its picture with
    /// it. The sort makes every old row leave before the first new one
    /// arrives, whatever the plan (the key on positions is checked row by
    /// row); a count other than `count` (a change the lock did not hold
    /// back) undoes it all.
    private static func arrange(_ pet: Int64, of count: Int, keeping positions: [Int], on connection: PostgresConnection) async throws {
        let counted = try await connection.query(
            """
            WITH old AS (DELETE FROM pet_photos WHERE pet_id = $1 RETURNING position, url, media_id),
            new AS (
              INSERT INTO pet_photos (pet_id, position, url, media_id)
              SELECT $1, w.n - 1, o.url, o.media_id
              FROM unnest($2::int[]) WITH ORDINALITY AS w(position, n) JOIN old o ON o.position = w.position
              ORDER BY w.n
              RETURNING 1)
            SELECT (SELECT count(*) FROM old)::int, (SELECT count(*) FROM new)::int
            """, [pet, positions])[0]
        guard try counted.decode(Int.self, at: 0) == count, try counted.decode(Int.self, at: 1) == positions.count else {
            throw APIError.badInput("The pet's photos changed meanwhile; look at them again and try again.")
        }
    }

    /// The pet after a change by `user` (its edit time moves on), with its
    /// favouriters told when `message` says what changed.
    private static func changed(_ id: Int64, by user: Int64, saying message: String?, on connection: PostgresConnection) async throws
        -> PetRecord
    {
        _ = try await connection.query("UPDATE pets SET updated_by = $2 WHERE id = $1", [id, user])
        let updated = try await PetMutations.load(id, on: connection)
        if let message {
            try await PetMutations.tellFavoriters(of: updated, kind: .favoritePetUpdated, actor: user, message: message, on: connection)
        }
        return updated
    }
}
