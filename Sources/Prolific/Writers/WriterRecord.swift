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
    var followers = 0
    var following = 0

    /// The columns `init(row:)` reads, in order.
    enum Column: Int, PostgresColumnList {
        case userID, karma, projectsCreated, snippetsSubmitted, roundsWon, followers, following
    }
    static let selection = PostgresColumns<Column>(alias: "w")
    /// The select list, from `w`.
    static var columns: String { selection.list }

    init(userID: Int64) {
        self.userID = userID
    }

    init(row: PostgresRow) throws {
        let column = row.columns(Column.self)
        userID = try column[.userID]
        karma = try column[.karma]
        projectsCreated = try column[.projectsCreated]
        snippetsSubmitted = try column[.snippetsSubmitted]
        roundsWon = try column[.roundsWon]
        followers = try column[.followers]
        following = try column[.following]
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
