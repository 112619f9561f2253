import Foundation
import GraphQL
import HuddleCore
import HuddlePostgres

/// Pets: their fields, `pet(id:)` and the search like Petfinder's /animals.
enum PetResolvers {
    static func bind(_ binder: inout SchemaBinder) {
        binder.field("Pet", "id") { (pet: PetRecord) in GlobalID.value("Pet", pet.id) }
        binder.field("Pet", "name") { (pet: PetRecord) in .scalar(.string(pet.name)) }
        binder.field("Pet", "type") { (pet: PetRecord) in .scalar(.enum(pet.type)) }
        binder.field("Pet", "isMixed") { (pet: PetRecord) in .scalar(.boolean(pet.secondaryBreedID != nil)) }
        binder.field("Pet", "size") { (pet: PetRecord) in .scalar(.enum(pet.size)) }
        binder.field("Pet", "ageGroup") { (pet: PetRecord) in .scalar(.enum(pet.ageGroup)) }
        binder.field("Pet", "gender") { (pet: PetRecord) in .scalar(.enum(pet.gender)) }
        binder.field("Pet", "coat") { (pet: PetRecord) in pet.coat.map { .scalar(.enum($0)) } ?? .null }
        binder.field("Pet", "color") { (pet: PetRecord) in pet.color.map { .scalar(.string($0)) } ?? .null }
        binder.field("Pet", "description") { (pet: PetRecord) in .scalar(.string(pet.description)) }
        binder.field("Pet", "photos") { (pet: PetRecord, input: ResolverInput) in
            let size = input.argument("size")?.enumValue, format = input.argument("format")?.enumValue
            return .list(
                pet.photos.map { photo in
                    guard photo.hasPrefix("media:") else { return .scalar(.string(photo)) }
                    return .scalar(.string(PictureResolvers.path(key: String(photo.dropFirst(6)), size: size, format: format)))
                })
        }
        binder.field("Pet", "status") { (pet: PetRecord) in .scalar(.enum(pet.status)) }
        binder.field("Pet", "publishedAt") { (pet: PetRecord) in Instant.value(pet.publishedAt) }
        binder.field("Pet", "statusChangedAt") { (pet: PetRecord) in Instant.value(pet.statusChangedAt) }
        binder.field("Pet", "updatedAt") { (pet: PetRecord) in Instant.value(pet.updatedAt) }
        binder.field("Pet", "distanceKm") { (pet: PetRecord) in pet.distanceKm.map { .scalar(.float($0)) } ?? .null }
        binder.field("Pet", "primaryBreed") { (pet: PetRecord, input) in
            try Catalogue.with(input.request.primaryDatabase) { catalogue in
                catalogue.breeds[pet.primaryBreedID].map { .object($0) } ?? .null
            }
        }
        binder.field("Pet", "secondaryBreed") { (pet: PetRecord, input) in
            guard let breed = pet.secondaryBreedID else { return .null }
            return try Catalogue.with(input.request.primaryDatabase) { catalogue in catalogue.breeds[breed].map { .object($0) } ?? .null }
        }
        binder.field("Pet", "shelter") { (pet: PetRecord, input) in
            input.request.petMatch.shelters.load(pet.shelterID) { $0.map { .object($0) } ?? .null }
        }
        binder.field("Pet", "viewerSwipe") { (pet: PetRecord, input) in
            input.request.petMatch.viewerSwipes.load(pet.id) { $0.map { .scalar(.enum($0)) } ?? .null }
        }
        binder.field("Pet", "viewerFavorite") { (pet: PetRecord, input) in
            input.request.petMatch.viewerFavorites.load(pet.id) { .scalar(.boolean($0)) }
        }
        binder.bindConnection("PetConnection", edge: "PetEdge")

        binder.root("Query", "pet") { input in
            guard let id = GlobalID.decode(input.string("id") ?? ""), id.type == "Pet" else { return .null }
            return input.request.petMatch.pets.load(id.id) { $0.map { .object($0) } ?? .null }
        }
        binder.root("Query", "pets", search)
        PetMutations.bind(&binder)
    }

    /// `pets(filter:orderBy:first:after:)`.
    private static func search(_ input: ResolverInput) throws -> Resolved {
        let page = try PageRequest(input)
        let filter = input.argument("filter") ?? .null
        let byDistance = input.argument("orderBy")?.enumValue == "DISTANCE"
        var criteria = PetCriteria()
        criteria.type = filter["type"]?.enumValue
        criteria.sizes = filter["sizes"]?.listValue?.compactMap(\.enumValue) ?? []
        criteria.ageGroups = filter["ageGroups"]?.listValue?.compactMap(\.enumValue) ?? []
        criteria.genders = filter["genders"]?.listValue?.compactMap(\.enumValue) ?? []
        if let statuses = filter["statuses"]?.listValue, !statuses.isEmpty { criteria.statuses = statuses.compactMap(\.enumValue) }
        let distance = filter["distanceKm"]?.doubleValue
        if let near = filter["near"], !near.isNull {
            criteria.near = try AccountInput.coordinates(
                latitude: near["latitude"]?.doubleValue ?? .nan, longitude: near["longitude"]?.doubleValue ?? .nan)
            criteria.distanceKm = try PreferenceResolvers.distance(distance ?? PetCriteria.defaultDistanceKm)
        } else if byDistance {
            throw APIError.badInput("orderBy: DISTANCE needs filter.near.")
        } else if distance != nil {
            throw APIError.badInput("\"distanceKm\" goes with \"near\".")
        }
        let breeds = filter["breeds"]?.listValue ?? []
        let context = input.request
        let base = criteria
        return .async {
            var criteria = base
            let catalogue = try await Catalogue.shared(context.primaryDatabase)
            criteria.breeds = try catalogue.breeds(breeds, ofType: criteria.type, argument: "filter.breeds")
            var query = PetListQuery(
                criteria: criteria, unseenBy: nil, adoptableOnly: criteria.statuses == ["ADOPTABLE"], byDistance: byDistance)
            if byDistance {
                query.directory = try await ShelterDirectory.shared(
                    context.primaryDatabase, listener: context.listener, limit: context.settings[PetMatch.sheltersInMemory])
            }
            let (connection, pets, shelters) = try await query.page(page, on: context.database)
            context.petMatch.prime(pets: pets, shelters: shelters, unseen: false)
            return .object(connection)
        }
    }
}
