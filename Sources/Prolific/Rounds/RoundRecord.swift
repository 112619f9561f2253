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

    /// How many columns `columns` names: what a statement selects after them starts there.
    static var columnCount: Int { selection.count }

    /// The columns `init(row:)` reads, in order.
    enum Column: Int, PostgresColumnList {
        case id, projectID, number, startedAt, endsAt, completedAt, winnerID, extensions
    }
    static let selection = PostgresColumns<Column>(alias: "r")
    /// The select list, from `r`.
    static var columns: String { selection.list }

    init(row: PostgresRow) throws {
        let column = row.columns(Column.self)
        id = try column[.id]
        projectID = try column[.projectID]
        number = try column[.number]
        startedAt = try column[.startedAt]
        endsAt = try column[.endsAt]
        completedAt = try column[.completedAt]
        winnerID = try column[.winnerID]
        extensions = try column[.extensions]
    }
}
