import HuddleCore
import HuddlePostgres
import HuddleRuntime

/// A row of `locations` (a class: copies cost one retain).
final class LocationRecord: Identified {
    let id: Int64
    let name: String
    let latitude: Double
    let longitude: Double

    /// The columns `init(row:offset:)` reads, from `locations l`.
    static let columns = "l.id, l.name, l.latitude, l.longitude"

    init(row: PostgresRow, offset: Int = 0) throws {
        id = try row.decode(at: offset)
        name = try row.decode(at: offset + 1)
        latitude = try row.decode(at: offset + 2)
        longitude = try row.decode(at: offset + 3)
    }
}
