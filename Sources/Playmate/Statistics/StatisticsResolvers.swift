import GraphQL
import HuddleCore
import HuddlePostgres
import HuddleRuntime

/// A player's numbers, one statement for all the users of a level.
struct UserStatistics: Sendable {
    var sessionsPerSport: [(sport: String, sessions: Int)] = []
    var sessionsPlayed = 0
    var hoursPlayed = 0.0
    var sessionsCreated = 0
    var userID: Int64
}

enum StatisticsResolvers {
    static func bind(_ binder: inout SchemaBinder) {
        binder.field("User", "statistics") { (user: UserRecord, input) in
            input.request.playmate.statistics.load(user.id) { .object($0) }
        }
        binder.field("UserStatistics", "sessionsPerSport") { (statistics: UserStatistics) in
            .list(statistics.sessionsPerSport.map { .object(SportCount(sport: $0.sport, sessions: $0.sessions)) })
        }
        binder.field("UserStatistics", "sessionsPlayed") { (statistics: UserStatistics) in .scalar(.int(statistics.sessionsPlayed)) }
        binder.field("UserStatistics", "hoursPlayed") { (statistics: UserStatistics) in .scalar(.float(statistics.hoursPlayed)) }
        binder.field("UserStatistics", "sessionsCreated") { (statistics: UserStatistics) in .scalar(.int(statistics.sessionsCreated)) }
        binder.field("UserStatistics", "friendCount") { (statistics: UserStatistics, input) in
            input.request.loaders.friendCounts.load(statistics.userID) { .scalar(.int($0)) }
        }
        binder.field("SportCount", "sport") { (count: SportCount) in .scalar(.enum(count.sport)) }
        binder.field("SportCount", "sessions") { (count: SportCount) in .scalar(.int(count.sessions)) }
    }

    struct SportCount: Sendable {
        var sport: String
        var sessions: Int
    }

    /// Per user of $1 and sport: sessions, sessions played, minutes
    /// played, and the sessions the user created. That last count is made
    /// once per user (a materialised CTE): in the select list it was made
    /// again for every sport's row, each time reading every session the
    /// user ever created.
    static let perSport = """
        WITH created AS MATERIALIZED (
            SELECT u.id AS user_id, (SELECT count(*) FROM sports_sessions c WHERE c.creator_id = u.id)::int AS sessions
            FROM unnest($1::bigint[]) AS u(id)
        )
        SELECT p.user_id, s.sport, count(*)::int,
               count(*) FILTER (WHERE s.occurs_at + make_interval(mins => s.duration_minutes) < now())::int,
               coalesce(sum(s.duration_minutes) FILTER (WHERE s.occurs_at + make_interval(mins => s.duration_minutes) < now()), 0)::int,
               created.sessions
        FROM session_players p JOIN sports_sessions s ON s.id = p.session_id JOIN created ON created.user_id = p.user_id
        WHERE p.user_id = ANY($1::bigint[])
        GROUP BY p.user_id, s.sport, created.sessions
        ORDER BY p.user_id, count(*) DESC, s.sport
        """

    /// The batch function of `Loaders.statistics`.
    static func load(_ ids: [Int64], on database: PostgresPool) async throws -> [Result<UserStatistics, any Error>] {
        let perSport = try await database.query(Self.perSport, [ids])
        var statistics = Dictionary(uniqueKeysWithValues: ids.map { ($0, UserStatistics(userID: $0)) })
        for row in perSport {
            let user = try row.decode(Int64.self, at: 0)
            statistics[user]?.sessionsPerSport.append((try row.decode(String.self, at: 1), try row.decode(Int.self, at: 2)))
            statistics[user]?.sessionsPlayed += try row.decode(Int.self, at: 3)
            statistics[user]?.hoursPlayed += Double(try row.decode(Int.self, at: 4)) / 60
            statistics[user]?.sessionsCreated = try row.decode(Int.self, at: 5)
        }
        return ids.map { .success(statistics[$0]!) }
    }
}
