import HuddleCore
import HuddlePostgres

/// A user's Prolific totals (`prolific_writers`, kept by the karma
/// ledger's trigger); zeros for a user who has done nothing yet.
struct WriterRecord: Sendable {
    var userID: Int64
    var karma = 0
    var projectsCreated = 0
    var snippetsSubmitted = 0
    var roundsWon = 0

    static let columns = "w.user_id, w.karma, w.projects_created, w.snippets_submitted, w.rounds_won"

    init(userID: Int64) {
        self.userID = userID
    }

    /// The totals of `userID` from four columns (karma, projects, snippets,
    /// wins) starting at `offset`.
    init(userID: Int64, row: PostgresRow, offset: Int) throws {
        self.userID = userID
        karma = try row.decode(at: offset)
        projectsCreated = try row.decode(at: offset + 1)
        snippetsSubmitted = try row.decode(at: offset + 2)
        roundsWon = try row.decode(at: offset + 3)
    }

    init(row: PostgresRow) throws {
        userID = try row.decode(at: 0)
        karma = try row.decode(at: 1)
        projectsCreated = try row.decode(at: 2)
        snippetsSubmitted = try row.decode(at: 3)
        roundsWon = try row.decode(at: 4)
    }
}

/// A badge's level and progress.
struct Badge: Sendable {
    enum Kind: String, CaseIterable {
        case contributor = "CONTRIBUTOR"
        case bigHitWriter = "BIG_HIT_WRITER"
        case creator = "CREATOR"

        /// The counts for levels 1, 2 and 3 (the SDL's docs repeat them).
        var levels: [Int] {
            switch self {
            case .contributor: [1, 10, 50]
            case .bigHitWriter: [1, 5, 25]
            case .creator: [1, 5, 20]
            }
        }

        func progress(of writer: WriterRecord) -> Int {
            switch self {
            case .contributor: writer.snippetsSubmitted
            case .bigHitWriter: writer.roundsWon
            case .creator: writer.projectsCreated
            }
        }
    }

    var kind: Kind
    var progress: Int

    var level: Int { kind.levels.filter { progress >= $0 }.count }
    var nextLevelAt: Int? { kind.levels.first { progress < $0 } }

    static func all(of writer: WriterRecord) -> [Badge] {
        Kind.allCases.map { Badge(kind: $0, progress: $0.progress(of: writer)) }
    }
}
