import HuddleRuntime

/// A row of `locations`.
struct LocationRecord: Identified {
    var id: Int64
    var name: String
    var latitude: Double
    var longitude: Double

    /// The columns `init(row:offset:)` reads, from `locations l`.
    static let columns = "l.id, l.name, l.latitude, l.longitude"

    init(row: PostgresRow, offset: Int = 0) throws {
        id = try row.decode(at: offset)
        name = try row.decode(at: offset + 1)
        latitude = try row.decode(at: offset + 2)
        longitude = try row.decode(at: offset + 3)
    }
}
