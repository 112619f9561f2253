import Foundation
import HuddleCore
import HuddlePostgres

/// A row of `shelters`.
final class ShelterRecord: Identified {
    let id: Int64
    let name: String
    let email: String?
    let phone: String?
    let street: String
    let city: String
    let state: String
    let postcode: String
    let country: String
    let latitude: Double
    let longitude: Double
    /// Kilometres from the point a list was searched near, when it was.
    let distanceKm: Double?

    /// How many columns `columns` names.
    static let columnCount = 11

    static let columns = columns(of: "s")

    /// The columns of a shelter row named `alias` (a table or a subquery that selected `columns`).
    static func columns(of alias: String) -> String {
        ["id", "name", "email", "phone", "street", "city", "state", "postcode", "country", "latitude", "longitude"]
            .map { "\(alias).\($0)" }.joined(separator: ", ")
    }

    private init(_ shelter: ShelterRecord, distanceKm: Double?) {
        (id, name, email, phone, street, city) = (shelter.id, shelter.name, shelter.email, shelter.phone, shelter.street, shelter.city)
        (state, postcode, country, latitude, longitude) = (
            shelter.state, shelter.postcode, shelter.country, shelter.latitude, shelter.longitude
        )
        self.distanceKm = distanceKm
    }

    /// The same shelter, `distanceKm` from the point a list was searched near.
    func located(distanceKm: Double) -> ShelterRecord { ShelterRecord(self, distanceKm: distanceKm) }

    init(row: PostgresRow, offset: Int = 0, distanceKm: Double? = nil) throws {
        id = try row.decode(at: offset)
        name = try row.decode(at: offset + 1)
        email = try row.decode(at: offset + 2)
        phone = try row.decode(at: offset + 3)
        street = try row.decode(at: offset + 4)
        city = try row.decode(at: offset + 5)
        state = try row.decode(at: offset + 6)
        postcode = try row.decode(at: offset + 7)
        country = try row.decode(at: offset + 8)
        latitude = try row.decode(at: offset + 9)
        longitude = try row.decode(at: offset + 10)
        self.distanceKm = distanceKm
    }
}
