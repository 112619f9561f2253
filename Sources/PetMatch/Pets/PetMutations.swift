import Foundation
import GraphQL
import HuddleCore
import HuddlePostgres

/// Listing and editing pets: their shelter's staff only. Everyone who
/// favourited a pet hears of a change to it.
enum PetMutations {
    static func bind(_ binder: inout SchemaBinder) {
        binder.rootAsync("Mutation", "createPet", create)
        binder.rootAsync("Mutation", "updatePet", update)
        binder.rootAsync("Mutation", "setPetStatus", setStatus)
        PetPhotoMutations.bind(&binder)
    }

    static let maxPhotos = 12
    static let maxDescription = 4000

    private static func create(_ input: ResolverInput) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let fields = input.argument("input") ?? .null
        let shelter = try GlobalID.id(of: "Shelter", fields["shelterId"]?.stringValue ?? "", argument: "input.shelterId")
        let catalogue = try await Catalogue.shared(input.request.primaryDatabase)
        let type = fields["type"]?.enumValue ?? ""
        var pet = PetFields(type: type)
        try pet.read(fields, catalogue: catalogue, creating: true)
        return try await PetMatchErrors.translating {
            try await input.request.database.withTransaction { connection in
                try await ShelterMutations.requireStaff(viewer, of: shelter, on: connection)
                let rows = try await connection.query(
                    """
                    INSERT INTO pets (shelter_id, name, type, primary_breed_id, secondary_breed_id, size, age_group, gender, coat, color,
                                      description, updated_by)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id
                    """,
                    [
                        shelter, pet.name, type, pet.primaryBreed, pet.secondaryBreed, pet.size, pet.ageGroup, pet.gender, pet.coat,
                        pet.color,
                        pet.description, viewer,
                    ])
                let id = try rows[0].decode(Int64.self, at: 0)
                try await replacePhotos(of: id, with: pet.photos ?? [], on: connection)
                return .object(try await load(id, on: connection))
            }
        }
    }

    private static func update(_ input: ResolverInput) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let id = try input.id("id", of: "Pet")
        let fields = input.argument("input") ?? .null
        let catalogue = try await Catalogue.shared(input.request.primaryDatabase)
        return try await PetMatchErrors.translating {
            try await input.request.database.withTransaction { connection in
                let current = try await locked(id, by: viewer, on: connection)
                var pet = PetFields(current)
                try pet.read(fields, catalogue: catalogue, creating: false)
                _ = try await connection.query(
                    """
                    UPDATE pets SET name = $2, primary_breed_id = $3, secondary_breed_id = $4, size = $5, age_group = $6, gender = $7,
                                    coat = $8, color = $9, description = $10, updated_by = $11
                    WHERE id = $1
                    """,
                    [
                        id, pet.name, pet.primaryBreed, pet.secondaryBreed, pet.size, pet.ageGroup, pet.gender, pet.coat, pet.color,
                        pet.description, viewer,
                    ])
                if let photos = pet.photos { try await replacePhotos(of: id, with: photos, on: connection) }
                let updated = try await load(id, on: connection)
                try await tellFavoriters(
                    of: updated, kind: .favoritePetUpdated, actor: viewer, message: "\(updated.name)'s details changed.", on: connection)
                return .object(updated)
            }
        }
    }

    private static func setStatus(_ input: ResolverInput) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let id = try input.id("id", of: "Pet")
        let status = input.argument("status")?.enumValue ?? ""
        return try await PetMatchErrors.translating {
            try await input.request.database.withTransaction { connection in
                let current = try await locked(id, by: viewer, on: connection)
                guard current.status != status else { return .object(current) }
                _ = try await connection.query("UPDATE pets SET status = $2, updated_by = $3 WHERE id = $1", [id, status, viewer])
                let updated = try await load(id, on: connection)
                let message =
                    switch status {
                    case "ADOPTED": "\(updated.name) has been adopted."
                    case "PENDING": "\(updated.name)'s adoption is pending."
                    default: "\(updated.name) is up for adoption again."
                    }
                try await tellFavoriters(of: updated, kind: .favoritePetStatusChanged, actor: viewer, message: message, on: connection)
                return .object(updated)
            }
        }
    }

    static func load(_ id: Int64, on database: some PostgresQuerying) async throws -> PetRecord {
        let rows = try await database.query("SELECT \(PetRecord.columns) FROM pets p WHERE p.id = $1", [id])
        guard let row = rows.first else { throw APIError.notFound("No pet has that id.") }
        return try PetRecord(row: row)
    }

    /// The pet, locked for a change by `user`, who must be on its shelter's staff.
    static func locked(_ id: Int64, by user: Int64, on connection: PostgresConnection) async throws -> PetRecord {
        let rows = try await connection.query(
            """
            SELECT \(PetRecord.columns), EXISTS (SELECT 1 FROM shelter_staff m WHERE m.shelter_id = p.shelter_id AND m.user_id = $2)
            FROM pets p WHERE p.id = $1 FOR UPDATE OF p
            """, [id, user])
        guard let row = rows.first else { throw APIError.notFound("No pet has that id.") }
        guard try row.decode(Bool.self, at: PetRecord.columnCount) else {
            throw APIError.forbidden("Only the shelter's staff can change its pets.")
        }
        return try PetRecord(row: row)
    }

    private static func replacePhotos(of pet: Int64, with photos: [String], on connection: PostgresConnection) async throws {
        _ = try await connection.query("DELETE FROM pet_photos WHERE pet_id = $1", [pet])
        guard !photos.isEmpty else { return }
        _ = try await connection.query(
            "INSERT INTO pet_photos (pet_id, position, url) SELECT $1, n - 1, url FROM unnest($2::text[]) WITH ORDINALITY AS p(url, n)",
            [pet, photos])
    }

    /// A notice for everyone who has the pet among their favourites, in one statement.
    static func tellFavoriters(
        of pet: PetRecord, kind: NotificationKind, actor: Int64, message: String, on connection: PostgresConnection
    ) async throws {
        let users = try await connection.query("SELECT user_id FROM pet_favorites WHERE pet_id = $1 AND user_id <> $2", [pet.id, actor])
            .map { try $0.decode(Int64.self, at: 0) }
        try await Notifications.record(
            kind, forEach: users, actor: actor, subject: NodeReference("Pet", pet.id), scope: NodeReference("Shelter", pet.shelterID),
            message: message, on: connection)
    }
}

/// A pet's editable fields, read from `CreatePetInput` or `UpdatePetInput`
/// over what it has, and checked against the catalogue.
struct PetFields {
    var type: String
    var name = ""
    var primaryBreed: Int64 = 0
    var secondaryBreed: Int64?
    var size = ""
    var ageGroup = ""
    var gender = ""
    var coat: String?
    var color: String?
    var description = ""
    /// Nil: left as they are.
    var photos: [String]?

    init(type: String) { self.type = type }

    init(_ pet: PetRecord) {
        type = pet.type
        name = pet.name
        primaryBreed = pet.primaryBreedID
        secondaryBreed = pet.secondaryBreedID
        size = pet.size
        ageGroup = pet.ageGroup
        gender = pet.gender
        coat = pet.coat
        color = pet.color
        description = pet.description
    }

    /// Takes the fields `input` gives; `creating` requires the required ones.
    mutating func read(_ input: GraphQLValue, catalogue: Catalogue, creating: Bool) throws {
        guard let details = catalogue.type(type) else { throw APIError.badInput("\(type) is not a pet type.") }
        if let text = input["name"]?.stringValue {
            name = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard (1...60).contains(name.count) else { throw APIError.badInput("\"name\" must be 1 to 60 characters.") }
        }
        func breed(_ field: String) throws -> Int64? {
            guard let value = input[field], !value.isNull else { return nil }
            return try catalogue.breeds([value], ofType: type, argument: "input.\(field)").first
        }
        if input["primaryBreedId"] != nil { primaryBreed = try breed("primaryBreedId") ?? primaryBreed }
        if input["secondaryBreedId"] != nil { secondaryBreed = try breed("secondaryBreedId") }
        if secondaryBreed == primaryBreed { throw APIError.badInput("The second breed must differ from the first.") }
        size = input["size"]?.enumValue ?? size
        ageGroup = input["ageGroup"]?.enumValue ?? ageGroup
        gender = input["gender"]?.enumValue ?? gender
        if let value = input["coat"] { coat = value.enumValue }
        if let coat, !details.coats.contains(coat) {
            throw APIError.badInput(
                "A \(details.name.lowercased()) has no \(coat) coat; it has \(details.coats.isEmpty ? "none" : details.coats.joined(separator: ", "))."
            )
        }
        if let value = input["color"] { color = value.stringValue }
        if let color, !details.colors.contains(color) {
            throw APIError.badInput("\(color.debugDescription) is not a colour of \(type); see petTypes { colors }.")
        }
        if let text = input["description"]?.stringValue {
            description = try AccountInput.text(text, "description", limit: PetMutations.maxDescription)
        }
        if let list = input["photos"]?.listValue {
            guard list.count <= PetMutations.maxPhotos else {
                throw APIError.badInput("A pet has at most \(PetMutations.maxPhotos) photos.")
            }
            photos = try list.map { try AccountInput.url($0.stringValue ?? "", "photos") }
        }
        if creating, primaryBreed == 0 { throw APIError.badInput("\"primaryBreedId\" is required.") }
    }
}
