import Foundation
import HuddleCore
import HuddlePostgres

/// A row of `projects`.
final class ProjectRecord: Identified {
    let id: Int64
    /// Nil once the owner has deleted their account.
    let ownerID: Int64?
    let title: String
    let seed: String
    let isPrivate: Bool
    let pace: String
    let roundMinutes: Int
    let roundLimit: Int?
    let roundsCompleted: Int
    let completedAt: Date?
    let followerCount: Int
    let lastActivityAt: Date
    let createdAt: Date
    /// Its cover's key, `!`-marked when private (`PictureURLs.path(marked:)`).
    let cover: String?

    /// How many columns `columns` names: what a statement selects after them starts there.
    static var columnCount: Int { selection.count }

    /// The columns `init(row:)` reads, in order.
    enum Column: Int, PostgresColumnList {
        case id, ownerID, title, seed, isPrivate, pace, roundMinutes, roundLimit, roundsCompleted, completedAt, followerCount,
            lastActivityAt, createdAt, cover

        var expression: String? {
            switch self {
            case .cover: PictureURLs.markedKey(of: "p.cover_id")
            default: nil
            }
        }
    }
    static let selection = PostgresColumns<Column>(alias: "p")
    /// The select list, from `p`.
    static var columns: String { selection.list }

    init(row: PostgresRow) throws {
        let column = row.columns(Column.self)
        id = try column[.id]
        ownerID = try column[.ownerID]
        title = try column[.title]
        seed = try column[.seed]
        isPrivate = try column[.isPrivate]
        pace = try column[.pace]
        roundMinutes = try column[.roundMinutes]
        roundLimit = try column[.roundLimit]
        roundsCompleted = try column[.roundsCompleted]
        completedAt = try column[.completedAt]
        followerCount = try column[.followerCount]
        lastActivityAt = try column[.lastActivityAt]
        createdAt = try column[.createdAt]
        cover = try column[.cover]
    }

    /// The SQL condition that project `p` is visible to the viewer given as
    /// parameter `$n` (null for an anonymous one): public, or they are a member.
    static func visible(toViewerAt n: Int) -> String {
        "(NOT p.is_private OR \(existsPerRow("SELECT 1 FROM project_members m WHERE m.project_id = p.id AND m.user_id = $\(n)::bigint")))"
    }
}
