import GraphQL
import HuddleCore
import HuddleRuntime

/// A ranked suggestion.
struct Suggestion: Sendable {
    var session: SessionRecord
    var score: Double
    var sportWeight: Double
    var friends: Int
    var preferredGenders: Int
    var preferredAgeGroups: Int
    /// Where the search was measured from.
    var origin: (latitude: Double, longitude: Double)
}

/// `sessionSuggestions`' answer.
struct Suggestions: Sendable {
    var found: [Suggestion]
    /// Given when `found` is empty; otherwise the first suggestion's.
    var origin: Coordinates?
    var emptyReason: String?
}

/// Playmate's recommendation algorithm, as one statement: keep upcoming
/// sessions with room within the radius of the user's origin, drop the
/// sports the quiz says they do not want (and sessions they are in), then
/// rank by
///
///     5.2·sportWeight + 2.3·friendsInSession
///       + 1.2·playersInPreferredGenders + 1.9·playersInPreferredAgeGroups
///
/// where sportWeight = ½·[sport among the quiz's sports played]
///                   + ½·(share of the sessions the user has played, i.e. that
///                        have started, that were of the sport).
/// The origin is the user's home location, else their latest session's place.
enum SuggestedSessions {
    static let maxRadiusKm = 500.0
    static let maxFirst = 50

    static func bind(_ binder: inout SchemaBinder) {
        binder.rootAsync("Query", "suggestedSessions") { input in
            .list(try await suggestions(input).map { .object($0) })
        }
        binder.rootAsync("Query", "sessionSuggestions") { input in
            let found = try await suggestions(input)
            // Asked for none, none is no news.
            guard found.isEmpty, input.int("first") != 0 else {
                return .object(Suggestions(found: found, origin: nil, emptyReason: nil))
            }
            // None: a second statement says where the search was, if anywhere.
            let rows = try await input.request.database.query(originSQL, [try input.request.signedIn()])
            guard let row = rows.first, let latitude: Double = try row.decode(at: 0), let longitude: Double = try row.decode(at: 1) else {
                return .object(Suggestions(found: [], origin: nil, emptyReason: "NO_LOCATION"))
            }
            return .object(
                Suggestions(found: [], origin: Coordinates(latitude: latitude, longitude: longitude), emptyReason: "NONE_NEARBY"))
        }
        binder.field("SessionSuggestions", "suggestions") { (suggestions: Suggestions) in .list(suggestions.found.map { .object($0) }) }
        binder.field("SessionSuggestions", "origin") { (suggestions: Suggestions) in
            if let origin = suggestions.origin { return .object(origin) }
            guard let first = suggestions.found.first else { return .null }
            return .object(Coordinates(latitude: first.origin.latitude, longitude: first.origin.longitude))
        }
        binder.field("SessionSuggestions", "emptyReason") { (suggestions: Suggestions) in
            suggestions.emptyReason.map { .scalar(.enum($0)) } ?? .null
        }
        binder.field("SuggestedSession", "session") { (suggestion: Suggestion) in .object(suggestion.session) }
        binder.field("SuggestedSession", "score") { (suggestion: Suggestion) in .scalar(.float(suggestion.score)) }
        binder.field("SuggestedSession", "sportWeight") { (suggestion: Suggestion) in .scalar(.float(suggestion.sportWeight)) }
        binder.field("SuggestedSession", "friendsInSession") { (suggestion: Suggestion) in .scalar(.int(suggestion.friends)) }
        binder.field("SuggestedSession", "playersInPreferredGenders") { (suggestion: Suggestion) in
            .scalar(.int(suggestion.preferredGenders))
        }
        binder.field("SuggestedSession", "playersInPreferredAgeGroups") { (suggestion: Suggestion) in
            .scalar(.int(suggestion.preferredAgeGroups))
        }
    }

    /// The viewer's suggestions, best first, after checking the arguments.
    private static func suggestions(_ input: ResolverInput) async throws -> [Suggestion] {
        let viewer = try input.request.signedIn()
        let first = input.int("first") ?? 10
        guard (0...maxFirst).contains(first) else {
            throw APIError.badInput("\"first\" must be between 0 and \(maxFirst); it is \(first).")
        }
        let radius = input.argument("radiusKm")?.doubleValue ?? 25
        guard radius > 0, radius <= maxRadiusKm else {
            throw APIError.badInput("\"radiusKm\" must be more than 0 and at most \(Int(maxRadiusKm)).")
        }
        let rows = try await input.request.database.query(sql, [viewer, radius * 1000, first])
        let extra = SessionRecord.columnCount
        return try rows.map { row in
            Suggestion(
                session: try SessionRecord(row: row), score: try row.decode(at: extra), sportWeight: try row.decode(at: extra + 1),
                friends: try row.decode(at: extra + 2), preferredGenders: try row.decode(at: extra + 3),
                preferredAgeGroups: try row.decode(at: extra + 4),
                origin: (try row.decode(at: extra + 5), try row.decode(at: extra + 6)))
        }
    }

    /// The place suggestions are searched near: the home location, else the latest session's.
    static let originSQL = """
        SELECT coalesce(u.home_latitude, latest.latitude) AS latitude, coalesce(u.home_longitude, latest.longitude) AS longitude
        FROM users u LEFT JOIN LATERAL (
            SELECT s.latitude, s.longitude FROM session_players p JOIN sports_sessions s ON s.id = p.session_id
            WHERE p.user_id = u.id ORDER BY p.occurs_at DESC, p.session_id DESC LIMIT 1
        ) AS latest ON true
        WHERE u.id = $1
        """

    static let sql = """
        WITH quiz AS (
            SELECT coalesce(q.sports_played, '{}') AS played, coalesce(q.sports_not_wanted, '{}') AS not_wanted,
                   coalesce(q.preferred_genders, '{}') AS genders, coalesce(q.preferred_age_groups, '{}') AS ages
            FROM (SELECT 1) AS one LEFT JOIN quiz_results q ON q.user_id = $1
        ), origin AS (\(originSQL)
        ), history AS (
            SELECT s.sport, count(*)::float8 / sum(count(*)) OVER () AS share
            FROM session_players p JOIN sports_sessions s ON s.id = p.session_id WHERE p.user_id = $1 AND s.occurs_at < now() GROUP BY s.sport
        ), ranked AS (
            SELECT s.*, x.sport_weight, x.friends, x.genders, x.ages, origin.latitude AS origin_latitude, origin.longitude AS origin_longitude,
                   5.2 * x.sport_weight + 2.3 * x.friends + 1.2 * x.genders + 1.9 * x.ages AS score
            FROM sports_sessions s CROSS JOIN quiz CROSS JOIN origin
            LEFT JOIN history h ON h.sport = s.sport
            CROSS JOIN LATERAL (
                SELECT 0.5 * (CASE WHEN s.sport = ANY (quiz.played) THEN 1 ELSE 0 END) + 0.5 * coalesce(h.share, 0) AS sport_weight,
                       count(*) FILTER (WHERE p.user_id IN (SELECT f.friend_id FROM friendships f WHERE f.user_id = $1))::int AS friends,
                       count(*) FILTER (WHERE u.gender = ANY (quiz.genders))::int AS genders,
                       count(*) FILTER (WHERE CASE
                           WHEN u.birthday IS NULL THEN NULL
                           WHEN age(u.birthday) < interval '18 years' THEN 'UNDER_18'
                           WHEN age(u.birthday) < interval '25 years' THEN 'AGE_18_24'
                           WHEN age(u.birthday) < interval '35 years' THEN 'AGE_25_34'
                           WHEN age(u.birthday) < interval '45 years' THEN 'AGE_35_44'
                           WHEN age(u.birthday) < interval '55 years' THEN 'AGE_45_54'
                           ELSE 'AGE_55_PLUS' END = ANY (quiz.ages))::int AS ages
                FROM session_players p JOIN users u ON u.id = p.user_id
                WHERE p.session_id = s.id
            ) AS x
            WHERE origin.latitude IS NOT NULL
              AND s.occurs_at > now() AND s.occupied < s.capacity
              AND earth_box(ll_to_earth(origin.latitude, origin.longitude), $2::float8) @> ll_to_earth(s.latitude, s.longitude)
              AND earth_distance(ll_to_earth(origin.latitude, origin.longitude), ll_to_earth(s.latitude, s.longitude)) <= $2::float8
              AND NOT (s.sport = ANY (quiz.not_wanted))
              AND NOT EXISTS (SELECT 1 FROM session_players mine WHERE mine.session_id = s.id AND mine.user_id = $1)
        )
        SELECT \(SessionRecord.columns), s.score::float8, s.sport_weight::float8, s.friends, s.genders, s.ages,
               s.origin_latitude::float8, s.origin_longitude::float8
        FROM ranked s ORDER BY s.score DESC, s.occurs_at, s.id LIMIT $3
        """
}
