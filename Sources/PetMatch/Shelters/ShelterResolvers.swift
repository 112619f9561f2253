import Foundation
import GraphQL
import HuddleCore
import HuddlePostgres

/// Shelters: their fields, `shelter(id:)`, the search, and the viewer's own.
enum ShelterResolvers {
    static func bind(_ binder: inout SchemaBinder) {
        binder.field("Shelter", "id") { (shelter: ShelterRecord) in GlobalID.value("Shelter", shelter.id) }
        binder.field("Shelter", "name") { (shelter: ShelterRecord) in .scalar(.string(shelter.name)) }
        binder.field("Shelter", "email") { (shelter: ShelterRecord) in shelter.email.map { .scalar(.string($0)) } ?? .null }
        binder.field("Shelter", "phone") { (shelter: ShelterRecord) in shelter.phone.map { .scalar(.string($0)) } ?? .null }
        binder.field("Shelter", "address") { (shelter: ShelterRecord) in .object(ShelterAddress(shelter: shelter)) }
        binder.field("Shelter", "location") { (shelter: ShelterRecord) in
            .object(Coordinates(latitude: shelter.latitude, longitude: shelter.longitude))
        }
        binder.field("Shelter", "distanceKm") { (shelter: ShelterRecord) in shelter.distanceKm.map { .scalar(.float($0)) } ?? .null }
        binder.field("Shelter", "pets") { (shelter: ShelterRecord, input) in
            let page = try PageRequest(input)
            let status = input.argument("status")?.enumValue
            return input.request.petMatch.shelterPets(status: status).load(OwnedPage(owner: shelter.id, page: page)) { .object($0) }
        }
        binder.field("Shelter", "viewerIsStaff") { (shelter: ShelterRecord, input) in
            input.request.petMatch.viewerStaff.load(shelter.id) { .scalar(.boolean($0)) }
        }
        // Staff see each other; everyone else sees the shelter's contacts only.
        binder.field("Shelter", "staff") { (shelter: ShelterRecord, input) in
            let loaders = input.request.petMatch
            return loaders.viewerStaff.load(shelter.id) { isStaff in
                guard isStaff else { return .list([]) }
                return loaders.staff.load(shelter.id) { .list($0.map { .object($0) }) }
            }
        }
        binder.field("ShelterAddress", "street") { (address: ShelterAddress) in .scalar(.string(address.shelter.street)) }
        binder.field("ShelterAddress", "city") { (address: ShelterAddress) in .scalar(.string(address.shelter.city)) }
        binder.field("ShelterAddress", "state") { (address: ShelterAddress) in .scalar(.string(address.shelter.state)) }
        binder.field("ShelterAddress", "postcode") { (address: ShelterAddress) in .scalar(.string(address.shelter.postcode)) }
        binder.field("ShelterAddress", "country") { (address: ShelterAddress) in .scalar(.string(address.shelter.country)) }
        binder.bindConnection("ShelterConnection", edge: "ShelterEdge")

        binder.root("Query", "shelter") { input in
            guard let id = GlobalID.decode(input.string("id") ?? ""), id.type == "Shelter" else { return .null }
            return input.request.petMatch.shelters.load(id.id) { $0.map { .object($0) } ?? .null }
        }
        binder.root("Query", "shelters", search)
        binder.rootAsync("Query", "myShelters") { input in
            let viewer = try input.request.signedIn()
            let rows = try await input.request.database.query(
                """
                SELECT \(ShelterRecord.columns) FROM shelter_staff m JOIN shelters s ON s.id = m.shelter_id
                WHERE m.user_id = $1 ORDER BY lower(s.name), s.id
                """, [viewer])
            let loaders = input.request.petMatch
            return .list(
                try rows.map { row in
                    let shelter = try ShelterRecord(row: row)
                    loaders.viewerStaff.prime(shelter.id, true)
                    return .object(shelter)
                })
        }
        ShelterMutations.bind(&binder)
    }

    /// By name (a substring, ignoring case) and near a point (nearest first), else by name.
    private static func search(_ input: ResolverInput) throws -> Resolved {
        let page = try PageRequest(input)
        var parameters: [any PostgresEncodable] = []
        var conditions: [String] = []
        if let name = input.string("name") {
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard (1...100).contains(trimmed.count) else { throw APIError.badInput("\"name\" must be 1 to 100 characters.") }
            parameters.append(LikePattern.escaping(trimmed.lowercased()))
            conditions.append("lower(s.name) LIKE '%' || $\(parameters.count)::text || '%' ESCAPE '\\'")
        }
        let distanceArgument = input.argument("distanceKm")?.doubleValue
        var distance: String?
        if let near = input.argument("near"), !near.isNull {
            let (latitude, longitude) = try AccountInput.coordinates(
                latitude: near["latitude"]?.doubleValue ?? .nan, longitude: near["longitude"]?.doubleValue ?? .nan)
            let kilometres = try PreferenceResolvers.distance(distanceArgument ?? PetCriteria.defaultDistanceKm)
            parameters.append(contentsOf: [latitude, longitude, kilometres * 1000] as [any PostgresEncodable])
            let origin = "ll_to_earth($\(parameters.count - 2)::float8, $\(parameters.count - 1)::float8)"
            let metres = "$\(parameters.count)::float8"
            distance = "earth_distance(ll_to_earth(s.latitude, s.longitude), \(origin))"
            conditions.append("earth_box(\(origin), \(metres)) @> ll_to_earth(s.latitude, s.longitude)")
            conditions.append("\(distance!) <= \(metres)")
        } else if distanceArgument != nil {
            throw APIError.badInput("\"distanceKm\" goes with \"near\".")
        }
        let keys: [(expression: String, type: String)] =
            distance.map { [($0, "float8"), ("s.id", "bigint")] } ?? [("lower(s.name)", "text"), ("s.id", "bigint")]
        let query = KeysetQuery(
            columns: ShelterRecord.columns + (distance.map { ", \($0) / 1000" } ?? ""),
            from: "FROM shelters s WHERE " + (conditions.isEmpty ? "true" : conditions.joined(separator: " AND ")),
            parameters: parameters, keys: keys)
        let database = input.request.database
        let withDistance = distance != nil
        return .async {
            .object(
                try await query.page(page, on: database) { row in
                    try ShelterRecord(
                        row: row, distanceKm: withDistance ? try row.decode(Double.self, at: ShelterRecord.columnCount) : nil)
                })
        }
    }

}

/// A shelter's address, as its own object.
struct ShelterAddress: Sendable {
    let shelter: ShelterRecord
}
