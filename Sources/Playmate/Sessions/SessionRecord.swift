import Foundation
import HuddleCore
import HuddlePostgres
import HuddleRuntime

/// A row of `sports_sessions`, with its distance when a search near a point
/// found it. A class, so that the executor's copies cost one retain.
final class SessionRecord: Identified {
    let id: Int64
    let sport: String
    let skillLevel: String
    let creatorID: Int64
    let locationID: Int64
    let occursAt: Date
    let durationMinutes: Int
    let capacity: Int
    let occupied: Int
    let createdAt: Date
    /// The players' ids in the order they joined (kept by the database with `occupied`).
    let playerIDs: [Int64]
    let distanceKm: Double?

    /// The columns `init(row:offset:)` reads, from `sports_sessions s`.
    static let columns = """
        s.id, s.sport, s.skill_level, s.creator_id, s.location_id, s.occurs_at, s.duration_minutes, \
        s.capacity, s.occupied, s.created_at, s.player_ids
        """
    /// How many columns `columns` names: what a query selects after them starts here.
    static let columnCount = 11

    init(row: PostgresRow, offset: Int = 0, distanceKm: Double? = nil) throws {
        self.distanceKm = distanceKm
        id = try row.decode(at: offset)
        sport = try row.decode(at: offset + 1)
        skillLevel = try row.decode(at: offset + 2)
        creatorID = try row.decode(at: offset + 3)
        locationID = try row.decode(at: offset + 4)
        occursAt = try row.decode(at: offset + 5)
        durationMinutes = try row.decode(at: offset + 6)
        capacity = try row.decode(at: offset + 7)
        occupied = try row.decode(at: offset + 8)
        createdAt = try row.decode(at: offset + 9)
        playerIDs = try row.decode(at: offset + 10)
    }
}
