import Foundation
import HuddleCore
import HuddlePostgres

/// A row of `snippets`, with its count when it was read with one (a
/// round's ranked snippets).
final class SnippetRecord: Identified {
    let id: Int64
    let roundID: Int64
    let projectID: Int64
    /// Nil once the author has deleted their account.
    let authorID: Int64?
    let text: String
    let isEnding: Bool
    let createdAt: Date
    /// Its picture's key, `!`-marked when private (`PictureURLs.path(marked:)`).
    let picture: String?
    let count: SnippetCount?

    /// How many columns `columns` names: what a statement selects after them starts there.
    static var columnCount: Int { selection.count }

    /// The columns `init(row:)` reads, in order.
    enum Column: Int, PostgresColumnList {
        case id, roundID, projectID, authorID, text, isEnding, createdAt, picture

        /// The picture as `KEY`, or `!KEY` for a private one.
        var expression: String? {
            switch self {
            case .picture: PictureURLs.markedKey(of: "s.picture_id")
            default: nil
            }
        }
    }
    static let selection = PostgresColumns<Column>(alias: "s")
    /// The select list, from `s`.
    static var columns: String { selection.list }

    /// A row of `columns`, with its count when it was read with one.
    init(row: PostgresRow, count: SnippetCount? = nil) throws {
        let column = row.columns(Column.self)
        id = try column[.id]
        roundID = try column[.roundID]
        projectID = try column[.projectID]
        authorID = try column[.authorID]
        text = try column[.text]
        isEnding = try column[.isEnding]
        createdAt = try column[.createdAt]
        picture = try column[.picture]
        self.count = count
    }
}

/// A snippet's voters and weighted score, and whether it won its round.
struct SnippetCount: Sendable {
    var votes: Int
    var score: Double
    var isWinner: Bool
}
