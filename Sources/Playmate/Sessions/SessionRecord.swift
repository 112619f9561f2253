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

    /// The columns `init(row:offset:)` reads, in order, from `sports_sessions s`.
    enum Column: Int, PostgresColumnList {
        case id, sport, skillLevel, creatorID, locationID, occursAt, durationMinutes, capacity, occupied, createdAt, playerIDs
    }
    static let selection = PostgresColumns<Column>(alias: "s")
    /// The select list, from `s`.
    static var columns: String { selection.list }
    /// How many columns `columns` names: what a statement selects after them starts there.
    static var columnCount: Int { selection.count }

    init(row: PostgresRow, offset: Int = 0, distanceKm: Double? = nil) throws {
        self.distanceKm = distanceKm
        let column = row.columns(Column.self, at: offset)
        id = try column[.id]
        sport = try column[.sport]
        skillLevel = try column[.skillLevel]
        creatorID = try column[.creatorID]
        locationID = try column[.locationID]
        occursAt = try column[.occursAt]
        durationMinutes = try column[.durationMinutes]
        capacity = try column[.capacity]
        occupied = try column[.occupied]
        createdAt = try column[.createdAt]
        playerIDs = try column[.playerIDs]
    }
}
