import HuddleCore
import HuddlePostgres
import HuddleRuntime

/// A row of `locations` (a class: copies cost one retain).
final class LocationRecord: Identified {
    let id: Int64
    let name: String
    let latitude: Double
    let longitude: Double

    /// The columns `init(row:offset:)` reads, in order, from `locations l`.
    enum Column: Int, PostgresColumnList {
        case id, name, latitude, longitude
    }
    static let selection = PostgresColumns<Column>(alias: "l")
    /// The select list, from `l`.
    static var columns: String { selection.list }

    init(row: PostgresRow, offset: Int = 0) throws {
        let column = row.columns(Column.self, at: offset)
        id = try column[.id]
        name = try column[.name]
        latitude = try column[.latitude]
        longitude = try column[.longitude]
    }
}
