import Foundation
import GraphQL
import HuddleCore
import HuddlePostgres

/// One day of a project's activity, or of a writer's, in the reader's time zone.
struct ActivityDay: Sendable {
    let day: String
    let views: Int
    let snippetViews: Int
    let votes: Int
    let snippets: Int
}

/// What `Project.activity` asks for: a project and how many days back.
struct ProjectActivityAsk: Hashable, Sendable {
    let project: Int64
    let days: Int
}

/// Activity by day, counted from the view tallies, votes and snippets in one
/// statement for a whole batch: each table grouped once by the reader's day,
/// then set beside the calendar (a day without any is zeros).
enum ActivityReads {
    /// Days a reader may ask for (the counts are kept `view-history-days`, at least 91).
    static let maxDays = 90

    static func days(_ input: ResolverInput) throws -> Int {
        let days = input.int("days") ?? 30
        guard (1...maxDays).contains(days) else {
            throw APIError.badInput("\"days\" must be 1 to \(maxDays), not \(days).")
        }
        return days
    }

    /// Projects' days, by `(project, days)` asked, in `reader`'s time zone.
    static func projects(_ asks: [ProjectActivityAsk], reader: Int64, on database: PostgresPool) async throws
        -> [ProjectActivityAsk: [ActivityDay]]
    {
        let rows = try await database.query(
            """
            WITH asked AS (
                SELECT a.project, a.days, z.zone, (now() AT TIME ZONE z.zone)::date - (a.days - 1) AS first_day
                FROM unnest($1::bigint[], $2::integer[]) AS a(project, days), (SELECT reader_time_zone($3) AS zone) z
            ), since AS (
                SELECT project, zone, min(first_day) AS first_day, (min(first_day)::timestamp AT TIME ZONE zone) AS starts
                FROM asked GROUP BY project, zone
            ), views AS (
                SELECT h.project_id AS project, (h.hour AT TIME ZONE s.zone)::date AS day, sum(h.views) AS n
                FROM since s JOIN project_view_hours h ON h.project_id = s.project AND h.hour >= s.starts GROUP BY 1, 2
            ), snippet_views AS (
                SELECT h.project_id AS project, (h.hour AT TIME ZONE s.zone)::date AS day, sum(h.views) AS n
                FROM since s JOIN snippet_view_hours h ON h.project_id = s.project AND h.hour >= s.starts GROUP BY 1, 2
            ), votes AS (
                SELECT sn.project_id AS project, (v.created_at AT TIME ZONE s.zone)::date AS day, count(*) AS n
                FROM since s JOIN snippets sn ON sn.project_id = s.project
                JOIN votes v ON v.snippet_id = sn.id AND v.created_at >= s.starts GROUP BY 1, 2
            ), written AS (
                SELECT sn.project_id AS project, (sn.created_at AT TIME ZONE s.zone)::date AS day, count(*) AS n
                FROM since s JOIN snippets sn ON sn.project_id = s.project AND sn.created_at >= s.starts GROUP BY 1, 2
            )
            SELECT a.project, a.days, to_char(d.day, 'YYYY-MM-DD'),
                   coalesce(v.n, 0)::integer, coalesce(sv.n, 0)::integer, coalesce(vo.n, 0)::integer, coalesce(w.n, 0)::integer
            FROM asked a CROSS JOIN LATERAL (SELECT a.first_day + g AS day FROM generate_series(0, a.days - 1) AS g) d
            LEFT JOIN views v ON v.project = a.project AND v.day = d.day
            LEFT JOIN snippet_views sv ON sv.project = a.project AND sv.day = d.day
            LEFT JOIN votes vo ON vo.project = a.project AND vo.day = d.day
            LEFT JOIN written w ON w.project = a.project AND w.day = d.day
            ORDER BY a.project, a.days, d.day
            """, [asks.map(\.project), asks.map(\.days), reader])
        var byAsk: [ProjectActivityAsk: [ActivityDay]] = [:]
        for row in rows {
            let ask = ProjectActivityAsk(project: try row.decode(Int64.self, at: 0), days: try row.decode(Int.self, at: 1))
            byAsk[ask, default: []].append(try day(row, from: 2))
        }
        return byAsk
    }

    /// A writer's days, by days asked: views of the projects they own and
    /// of their snippets, votes their snippets received, snippets they wrote.
    static func writer(_ writer: Int64, days asks: [Int], on database: PostgresPool) async throws -> [Int: [ActivityDay]] {
        let rows = try await database.query(
            """
            WITH asked AS (
                SELECT a.days, z.zone, (now() AT TIME ZONE z.zone)::date - (a.days - 1) AS first_day
                FROM unnest($2::integer[]) AS a(days), (SELECT reader_time_zone($1) AS zone) z
            ), since AS (
                SELECT zone, (min(first_day)::timestamp AT TIME ZONE zone) AS starts FROM asked GROUP BY zone
            ), views AS (
                SELECT (h.hour AT TIME ZONE s.zone)::date AS day, sum(h.views) AS n
                FROM since s JOIN projects p ON p.owner_id = $1
                JOIN project_view_hours h ON h.project_id = p.id AND h.hour >= s.starts GROUP BY 1
            ), snippet_views AS (
                SELECT (h.hour AT TIME ZONE s.zone)::date AS day, sum(h.views) AS n
                FROM since s JOIN snippets sn ON sn.author_id = $1
                JOIN snippet_view_hours h ON h.snippet_id = sn.id AND h.hour >= s.starts GROUP BY 1
            ), votes AS (
                SELECT (v.created_at AT TIME ZONE s.zone)::date AS day, count(*) AS n
                FROM since s JOIN snippets sn ON sn.author_id = $1
                JOIN votes v ON v.snippet_id = sn.id AND v.created_at >= s.starts GROUP BY 1
            ), written AS (
                SELECT (sn.created_at AT TIME ZONE s.zone)::date AS day, count(*) AS n
                FROM since s JOIN snippets sn ON sn.author_id = $1 AND sn.created_at >= s.starts GROUP BY 1
            )
            SELECT a.days, to_char(d.day, 'YYYY-MM-DD'),
                   coalesce(v.n, 0)::integer, coalesce(sv.n, 0)::integer, coalesce(vo.n, 0)::integer, coalesce(w.n, 0)::integer
            FROM asked a CROSS JOIN LATERAL (SELECT a.first_day + g AS day FROM generate_series(0, a.days - 1) AS g) d
            LEFT JOIN views v ON v.day = d.day
            LEFT JOIN snippet_views sv ON sv.day = d.day
            LEFT JOIN votes vo ON vo.day = d.day
            LEFT JOIN written w ON w.day = d.day
            ORDER BY a.days, d.day
            """, [writer, asks])
        var byDays: [Int: [ActivityDay]] = [:]
        for row in rows { byDays[try row.decode(Int.self, at: 0), default: []].append(try day(row, from: 1)) }
        return byDays
    }

    private static func day(_ row: PostgresRow, from first: Int) throws -> ActivityDay {
        ActivityDay(
            day: try row.decode(String.self, at: first), views: try row.decode(Int.self, at: first + 1),
            snippetViews: try row.decode(Int.self, at: first + 2), votes: try row.decode(Int.self, at: first + 3),
            snippets: try row.decode(Int.self, at: first + 4))
    }
}
