import Foundation
import GraphQL
import HuddleCore
import HuddlePostgres

/// Someone to swipe on, with why they rank where they do.
final class CandidateRecord: Sendable {
    let userID: Int64
    let sharedHabits: [String]
    let timeZone: String
    let hoursAhead: Double
    let recentActivity: Double
    let score: Double
    let previousSwipe: String?

    init(row: PostgresRow) throws {
        userID = try row.decode(at: 0)
        sharedHabits = try row.decode(at: 1)
        timeZone = try row.decode(at: 2)
        hoursAhead = try row.decode(at: 3)
        recentActivity = try row.decode(at: 4)
        score = try row.decode(at: 5)
        previousSwipe = try row.decode(at: 6)
    }
}

/// What `buddyCandidates` answers.
struct CandidateList: Sendable {
    var candidates: [CandidateRecord]
    var cycling: Bool
    var emptyReason: String?
}

/// Find a buddy: users looking for buddies who share an active habit with
/// the viewer, ranked by
///
///     score = 3 × shared habits + 2 × (1 − min(|hours apart|, 12) / 12) + days active of the last 7 / 7
///
/// (ties: lower user id first), leaving out the viewer, their buddies,
/// anyone at the cap and anyone already swiped. When everyone has been
/// swiped and the viewer is still short of buddies, those not matched come
/// round again, least recently swiped first (the document's "loop through
/// existing profiles to make sure the user chooses at least one buddy").
enum BuddyCandidates {
    static let maxCandidates = 50

    static func bind(_ binder: inout SchemaBinder) {
        binder.rootAsync("Query", "buddyCandidates", candidates)
        binder.field("BuddyCandidates", "candidates") { (list: CandidateList) in .list(list.candidates.map { .object($0) }) }
        binder.field("BuddyCandidates", "cycling") { (list: CandidateList) in .scalar(.boolean(list.cycling)) }
        binder.field("BuddyCandidates", "emptyReason") { (list: CandidateList) in list.emptyReason.map { .scalar(.enum($0)) } ?? .null }
        binder.field("BuddyCandidate", "user") { (candidate: CandidateRecord, input) in
            input.request.loaders.users(for: input.info).load(candidate.userID) { $0.map { .object($0) } ?? .null }
        }
        binder.field("BuddyCandidate", "sharedHabits") { (candidate: CandidateRecord) in
            .list(candidate.sharedHabits.map { .scalar(.string($0)) })
        }
        binder.field("BuddyCandidate", "timeZone") { (candidate: CandidateRecord) in .scalar(.string(candidate.timeZone)) }
        binder.field("BuddyCandidate", "hoursAhead") { (candidate: CandidateRecord) in .scalar(.float(candidate.hoursAhead)) }
        binder.field("BuddyCandidate", "recentActivity") { (candidate: CandidateRecord) in .scalar(.float(candidate.recentActivity)) }
        binder.field("BuddyCandidate", "score") { (candidate: CandidateRecord) in .scalar(.float(candidate.score)) }
        binder.field("BuddyCandidate", "previousSwipe") { (candidate: CandidateRecord) in
            candidate.previousSwipe.map { .scalar(.enum($0)) } ?? .null
        }
    }

    /// The ranked candidates: those never swiped (`$3` false) or, cycling,
    /// those swiped and not matched (`$3` true). `$1` the viewer, `$2` the
    /// cap, `$4` how many.
    static let statement = """
        WITH me AS (SELECT user_id, time_zone FROM habit_profiles WHERE user_id = $1),
        mine AS (SELECT match_key FROM habits WHERE user_id = $1 AND status = 'ACTIVE'),
        shared AS (
            SELECT h.user_id, array_agg(DISTINCT coalesce(c.name, h.custom_name) ORDER BY coalesce(c.name, h.custom_name)) AS names
            FROM mine JOIN habits h ON h.match_key = mine.match_key AND h.status = 'ACTIVE' AND h.user_id <> $1
            LEFT JOIN habit_catalogue c ON c.id = h.catalogue_id
            GROUP BY h.user_id
        ),
        ranked AS (
            SELECT s.user_id, s.names, p.time_zone, sw.direction, sw.swiped_at,
                   extract(epoch FROM (now() AT TIME ZONE p.time_zone) - (now() AT TIME ZONE me.time_zone))::float8 / 3600 AS hours,
                   (SELECT count(DISTINCT ci.day) FROM habits ah JOIN habit_check_ins ci ON ci.habit_id = ah.id
                    WHERE ah.user_id = s.user_id AND ci.day > (now() AT TIME ZONE p.time_zone)::date - 7)::float8 / 7 AS activity
            FROM shared s CROSS JOIN me
            JOIN habit_profiles p ON p.user_id = s.user_id AND p.looking_for_buddies
            LEFT JOIN buddy_swipes sw ON sw.user_id = $1 AND sw.candidate_id = s.user_id
            WHERE (sw.user_id IS NOT NULL) = $3
              AND NOT EXISTS (SELECT 1 FROM buddy_pairs b WHERE b.first_id = least(s.user_id, $1) AND b.second_id = greatest(s.user_id, $1))
              AND NOT EXISTS (SELECT 1 FROM buddy_matches b WHERE b.first_id = least(s.user_id, $1) AND b.second_id = greatest(s.user_id, $1))
              AND habit_buddy_count(s.user_id) < $2
        )
        SELECT user_id, names, time_zone, hours, activity,
               3 * cardinality(names) + 2 * (1 - least(abs(hours), 12) / 12) + activity AS score, direction
        FROM ranked
        ORDER BY CASE WHEN $3 THEN swiped_at END, score DESC, user_id
        LIMIT $4
        """

    private static func candidates(_ input: ResolverInput) async throws -> Resolved {
        let viewer = try input.request.signedIn()
        let first = input.int("first") ?? 10
        guard (0...maxCandidates).contains(first) else { throw APIError.badInput("\"first\" must be between 0 and \(maxCandidates).") }
        let cap = input.request.settings[HabitBuddies.maxBuddies]
        let database = input.request.database
        let state = try await database.query(
            """
            SELECT habit_buddy_count(p.user_id), EXISTS (SELECT 1 FROM habits h WHERE h.user_id = p.user_id AND h.status = 'ACTIVE')
            FROM habit_profiles p WHERE p.user_id = $1
            """, [viewer])
        guard let row = state.first, try row.decode(Bool.self, at: 1) else {
            return .object(CandidateList(candidates: [], cycling: false, emptyReason: "NO_HABITS"))
        }
        guard try row.decode(Int.self, at: 0) < cap else {
            return .object(CandidateList(candidates: [], cycling: false, emptyReason: "BUDDY_LIMIT_REACHED"))
        }
        let fresh = try await database.query(statement, [viewer, cap, false, first]).map { try CandidateRecord(row: $0) }
        if !fresh.isEmpty || first == 0 { return .object(CandidateList(candidates: fresh, cycling: false, emptyReason: nil)) }
        let again = try await database.query(statement, [viewer, cap, true, first]).map { try CandidateRecord(row: $0) }
        return .object(CandidateList(candidates: again, cycling: !again.isEmpty, emptyReason: again.isEmpty ? "NO_CANDIDATES" : nil))
    }
}
