import Foundation
import HuddleCore
import HuddlePostgres

/// A row of `projects`.
final class ProjectRecord: Identified {
    let id: Int64
    let ownerID: Int64
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

    /// How many columns `columns` names.
    static let columnCount = 13

    static let columns = """
        p.id, p.owner_id, p.title, p.seed, p.is_private, p.pace, p.round_minutes, p.round_limit, p.rounds_completed, \
        p.completed_at, p.follower_count, p.last_activity_at, p.created_at
        """

    init(row: PostgresRow) throws {
        id = try row.decode(at: 0)
        ownerID = try row.decode(at: 1)
        title = try row.decode(at: 2)
        seed = try row.decode(at: 3)
        isPrivate = try row.decode(at: 4)
        pace = try row.decode(at: 5)
        roundMinutes = try row.decode(at: 6)
        roundLimit = try row.decode(at: 7)
        roundsCompleted = try row.decode(at: 8)
        completedAt = try row.decode(at: 9)
        followerCount = try row.decode(at: 10)
        lastActivityAt = try row.decode(at: 11)
        createdAt = try row.decode(at: 12)
    }

    /// The SQL condition that project `p` is visible to the viewer given as
    /// parameter `$n` (null for an anonymous one): public, or they are a member.
    static func visible(toViewerAt n: Int) -> String {
        "(NOT p.is_private OR EXISTS (SELECT 1 FROM project_members m WHERE m.project_id = p.id AND m.user_id = $\(n)::bigint))"
    }
}
