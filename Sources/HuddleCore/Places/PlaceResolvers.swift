import Foundation
import GraphQL
import HuddlePostgres
import HuddleRuntime

/// `searchPlaces`: the gazetteer, searched as a user types.
enum PlaceResolvers {
    static let maxFirst = 50
    static let maxQueryLength = 100

    static func bind(_ binder: inout SchemaBinder) {
        binder.rootAsync("Query", "searchPlaces") { input in
            let text = (input.string("query") ?? "").trimmingCharacters(in: .whitespaces)
            let first = input.int("first") ?? 10
            guard (0...maxFirst).contains(first) else {
                throw APIError.badInput("\"first\" must be between 0 and \(maxFirst); it is \(first).")
            }
            guard (1...maxQueryLength).contains(text.count) else {
                throw APIError.badInput("\"query\" is 1 to \(maxQueryLength) characters.")
            }
            let country = input.string("countryCode")?.uppercased()
            if let country, country.utf8.count != 2 || !country.utf8.allSatisfy({ (65...90).contains($0) }) {
                throw APIError.badInput("\"countryCode\" is two letters, ISO 3166-1 (US, FR).")
            }
            // Beginnings as ranges, so the pattern-order indexes serve them.
            let name = text.lowercased()
            let code = text.uppercased()
            let rows = try await input.request.database.query(
                """
                WITH found AS (
                    SELECT p.*, (p.search_name ~>=~ $1 AND p.search_name ~<~ $2)
                                OR (p.postal_code ~>=~ $3 AND p.postal_code ~<~ $4) AS begins
                    FROM places p
                    WHERE ($5::text IS NULL OR p.country_code = $5)
                      AND ((p.search_name ~>=~ $1 AND p.search_name ~<~ $2)
                           OR (p.postal_code ~>=~ $3 AND p.postal_code ~<~ $4)
                           OR p.search_name % $1)
                )
                SELECT \(PlaceRecord.columns) FROM found p
                ORDER BY p.begins DESC, p.population DESC NULLS LAST, similarity(p.search_name, $1) DESC, p.id
                LIMIT $6
                """, [name, PrefixRange.upperBound(of: name), code, PrefixRange.upperBound(of: code), country, first])
            return .list(try rows.map { .object(try PlaceRecord(row: $0)) })
        }
        binder.field("Place", "name") { (place: PlaceRecord) in .scalar(.string(place.name)) }
        binder.field("Place", "region") { (place: PlaceRecord) in place.region.map { .scalar(.string($0)) } ?? .null }
        binder.field("Place", "countryCode") { (place: PlaceRecord) in .scalar(.string(place.countryCode)) }
        binder.field("Place", "postalCode") { (place: PlaceRecord) in place.postalCode.map { .scalar(.string($0)) } ?? .null }
        binder.field("Place", "latitude") { (place: PlaceRecord) in .scalar(.float(place.latitude)) }
        binder.field("Place", "longitude") { (place: PlaceRecord) in .scalar(.float(place.longitude)) }
        binder.field("Place", "population") { (place: PlaceRecord) in
            // GraphQL's Int is 32 bits; no place has more people than that.
            place.population.map { .scalar(.int(Int(min($0, Int64(Int32.max))))) } ?? .null
        }
        binder.field("Place", "timeZone") { (place: PlaceRecord) in place.timeZone.map { .scalar(.string($0)) } ?? .null }
    }
}

/// A row of `places`, as the Place type shows it.
package struct PlaceRecord: Sendable {
    package var name: String
    package var region: String?
    package var countryCode: String
    package var postalCode: String?
    package var latitude: Double
    package var longitude: Double
    package var population: Int64?
    package var timeZone: String?

    package enum Column: Int, PostgresColumnList {
        case name, region, countryCode, postalCode, latitude, longitude, population, timeZone
    }
    package static let selection = PostgresColumns<Column>(alias: "p")
    package static var columns: String { selection.list }

    package init(row: PostgresRow) throws {
        let column = row.columns(Column.self)
        name = try column[.name]
        region = try column[.region]
        countryCode = try column[.countryCode]
        postalCode = try column[.postalCode]
        latitude = try column[.latitude]
        longitude = try column[.longitude]
        population = try column[.population]
        timeZone = try column[.timeZone]
    }
}
