import Foundation
import GraphQL
import HuddleCore
import HuddlePostgres
import HuddleRuntime

/// A row of `quiz_results`.
struct QuizRecord: Sendable {
    var sportsPlayed: [String]
    var sportsNotWanted: [String]
    var preferredGenders: [String]
    var preferredAgeGroups: [String]
    var updatedAt: Date

    /// The columns `init(row:)` reads, in order.
    enum Column: Int, PostgresColumnList {
        case sportsPlayed, sportsNotWanted, preferredGenders, preferredAgeGroups, updatedAt
    }
    static let selection = PostgresColumns<Column>(alias: "q")
    /// The select list, from `q`.
    static var columns: String { selection.list }

    init(row: PostgresRow) throws {
        let column = row.columns(Column.self)
        sportsPlayed = try column[.sportsPlayed]
        sportsNotWanted = try column[.sportsNotWanted]
        preferredGenders = try column[.preferredGenders]
        preferredAgeGroups = try column[.preferredAgeGroups]
        updatedAt = try column[.updatedAt]
    }
}

/// The preferences quiz: taken once, retaken any time.
enum QuizResolvers {
    static func bind(_ binder: inout SchemaBinder) {
        binder.field("QuizResult", "sportsPlayed") { (quiz: QuizRecord) in .list(quiz.sportsPlayed.map { .scalar(.enum($0)) }) }
        binder.field("QuizResult", "sportsNotWanted") { (quiz: QuizRecord) in .list(quiz.sportsNotWanted.map { .scalar(.enum($0)) }) }
        binder.field("QuizResult", "preferredGenders") { (quiz: QuizRecord) in .list(quiz.preferredGenders.map { .scalar(.enum($0)) }) }
        binder.field("QuizResult", "preferredAgeGroups") { (quiz: QuizRecord) in .list(quiz.preferredAgeGroups.map { .scalar(.enum($0)) }) }
        binder.field("QuizResult", "updatedAt") { (quiz: QuizRecord) in Instant.value(quiz.updatedAt) }

        binder.rootAsync("Query", "myQuizResult") { input in
            let viewer = try input.request.signedIn()
            let rows = try await input.request.database.query(
                "SELECT \(QuizRecord.columns) FROM quiz_results q WHERE q.user_id = $1", [viewer])
            return try rows.first.map { .object(try QuizRecord(row: $0)) } ?? .null
        }
        binder.rootAsync("Mutation", "saveQuizResult") { input in
            let viewer = try input.request.signedIn()
            let answers = input.argument("input") ?? .null
            func names(_ field: String) -> [String] {
                Array(Set(answers[field]?.listValue?.compactMap(\.enumValue) ?? [])).sorted()
            }
            let played = names("sportsPlayed"), notWanted = names("sportsNotWanted")
            let overlap = Set(played).intersection(notWanted)
            guard overlap.isEmpty else {
                throw APIError.badInput("A sport cannot be both played and not wanted: \(overlap.sorted().joined(separator: ", ")).")
            }
            let rows = try await input.request.database.query(
                """
                INSERT INTO quiz_results AS q (user_id, sports_played, sports_not_wanted, preferred_genders, preferred_age_groups)
                VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT (user_id) DO UPDATE SET sports_played = $2, sports_not_wanted = $3, preferred_genders = $4,
                    preferred_age_groups = $5, updated_at = now()
                RETURNING \(QuizRecord.columns)
                """, [viewer, played, notWanted, names("preferredGenders"), names("preferredAgeGroups")])
            return .object(try QuizRecord(row: rows[0]))
        }
    }
}
