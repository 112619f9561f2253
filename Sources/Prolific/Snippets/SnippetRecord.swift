import Foundation
import HuddleCore
import HuddlePostgres

/// A row of `snippets`, with its count when it was read with one (a
/// round's ranked snippets).
final class SnippetRecord: Identified {
    let id: Int64
    let roundID: Int64
    let projectID: Int64
    let authorID: Int64
    let text: String
    let isEnding: Bool
    let createdAt: Date
    let count: SnippetCount?

    /// How many columns `columns` names.
    static let columnCount = 7

    static let columns = "s.id, s.round_id, s.project_id, s.author_id, s.text, s.is_ending, s.created_at"

    /// A row of `columns`, with its count when it was read with one.
    init(row: PostgresRow, count: SnippetCount? = nil) throws {
        id = try row.decode(at: 0)
        roundID = try row.decode(at: 1)
        projectID = try row.decode(at: 2)
        authorID = try row.decode(at: 3)
        text = try row.decode(at: 4)
        isEnding = try row.decode(at: 5)
        createdAt = try row.decode(at: 6)
        self.count = count
    }
}

/// A snippet's voters and weighted score, and whether it won its round.
struct SnippetCount: Sendable {
    var votes: Int
    var score: Double
    var isWinner: Bool
}
