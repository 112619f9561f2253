import Foundation
import HuddleCore
import HuddlePostgres

/// A row of `rounds`.
final class RoundRecord: Identified {
    let id: Int64
    let projectID: Int64
    let number: Int
    let startedAt: Date
    let endsAt: Date
    let completedAt: Date?
    let winnerID: Int64?
    let extensions: Int

    /// How many columns `columns` names.
    static let columnCount = 8

    static let columns = "r.id, r.project_id, r.number, r.started_at, r.ends_at, r.completed_at, r.winner_id, r.extensions"

    init(row: PostgresRow) throws {
        id = try row.decode(at: 0)
        projectID = try row.decode(at: 1)
        number = try row.decode(at: 2)
        startedAt = try row.decode(at: 3)
        endsAt = try row.decode(at: 4)
        completedAt = try row.decode(at: 5)
        winnerID = try row.decode(at: 6)
        extensions = try row.decode(at: 7)
    }
}
