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

    /// The columns `init(row:)` reads, in order.
    enum Column: Int, PostgresColumnList {
        case id, name, email, phone, street, city, state, postcode, country, latitude, longitude
    }
    static let selection = PostgresColumns<Column>(alias: "s")
    /// The select list, from `s`.
    static var columns: String { selection.list }
    /// How many columns `columns` names: what a statement selects after them starts there.
    static var columnCount: Int { selection.count }

    /// The columns of a shelter row named `alias` (a table or a subquery that selected `columns`).
    static func columns(of alias: String) -> String { selection.list(from: alias) }

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
        let column = row.columns(Column.self, at: offset)
        id = try column[.id]
        name = try column[.name]
        email = try column[.email]
        phone = try column[.phone]
        street = try column[.street]
        city = try column[.city]
        state = try column[.state]
        postcode = try column[.postcode]
        country = try column[.country]
        latitude = try column[.latitude]
        longitude = try column[.longitude]
        self.distanceKm = distanceKm
    }
}
