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
                guard current.photos.count < PetMutations.maxPhotos else {
                    throw APIError.badInput("A pet has at most \(PetMutations.maxPhotos) photos.")
                }
                guard let picture = try await Uploads.claim(upload, by: viewer, for: "pet-photo", keepingOwner: false, on: connection)
                else { throw APIError.badInput(Uploads.notClaimable) }
                _ = try await connection.query(
                    "INSERT INTO pet_photos (pet_id, position, media_id) VALUES ($1, $2, $3)", [id, current.photos.count, picture.id])
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
                let current = try await PetMutations.locked(id, by: viewer, on: connection)
                guard current.photos.indices.contains(position) else {
                    throw APIError.badInput("The pet has no photo at position \(position).")
                }
                try await arrange(id, keeping: current.photos.indices.filter { $0 != position }, on: connection)
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
                let current = try await PetMutations.locked(id, by: viewer, on: connection)
                guard order.sorted() == Array(current.photos.indices) else {
                    throw APIError.badInput(
                        "The order must name each of the pet's \(current.photos.count) photos' positions (0 to \(current.photos.count - 1)) once."
                    )
                }
                try await arrange(id, keeping: order, on: connection)
                return .object(try await changed(id, by: viewer, saying: nil, on: connection))
            }
        }
    }

    /// The pet's photos become those now at `positions`, in that order, in
    /// one statement; a photo left out goes, and its picture with it.
    private static func arrange(_ pet: Int64, keeping positions: [Int], on connection: PostgresConnection) async throws {
        _ = try await connection.query(
            """
            WITH old AS (DELETE FROM pet_photos WHERE pet_id = $1 RETURNING position, url, media_id)
            INSERT INTO pet_photos (pet_id, position, url, media_id)
            SELECT $1, w.n - 1, o.url, o.media_id FROM unnest($2::int[]) WITH ORDINALITY AS w(position, n) JOIN old o ON o.position = w.position
            """, [pet, positions])
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
