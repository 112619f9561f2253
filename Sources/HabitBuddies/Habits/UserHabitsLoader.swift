import GraphQL
import HuddleCore
import HuddlePostgres

extension HabitBuddiesLoaders {
    /// The habits loader that answers what `info` selects: the one that also
    /// reads the 30-day completion and the milestones when the selection asks
    /// for either, so that a screen listing habits with them (the dashboard)
    /// costs one statement, not three.
    func userHabits(for info: ResolveInfo) -> DataLoader<Int64, [HabitRecord]> {
        let names = info.selectedFieldNames
        return names.contains("completionRate") || names.contains("milestones") ? userHabitsInFull : userHabits
    }

    /// Users' active and paused habits as the viewer (`viewerID`) may see
    /// them, with their progress (primed into `progress`); `inFull` adds
    /// each habit's completion over the default range (the 30 days up to its
    /// owner's today, as `completionRates` computes it) and its milestones,
    /// primed into those loaders.
    static func userHabits(
        _ database: PostgresPool, viewerID: Int64?, progress: DataLoader<Int64, HabitProgress>,
        inFull: (completionRates: DataLoader<HabitRange, Double>, milestones: DataLoader<Int64, [HabitMilestone]>)? = nil
    ) -> DataLoader<Int64, [HabitRecord]> {
        // The default range of `completionRates`: from 29 days before the
        // owner's today (or the habit's start, if later) to today.
        let (details, range) =
            inFull == nil
            ? ("", "")
            : (
                """
                , (SELECT count(*) FROM habit_check_ins c WHERE c.habit_id = h.id AND c.day BETWEEN r.first AND t.today)::int,
                  greatest(0, t.today - r.first + 1)::int,
                  ARRAY(SELECT m.days FROM habit_milestones m WHERE m.habit_id = h.id ORDER BY m.days),
                  ARRAY(SELECT m.reached_on::text FROM habit_milestones m WHERE m.habit_id = h.id ORDER BY m.days)
                """,
                """
                CROSS JOIN LATERAL (SELECT (now() AT TIME ZONE p.time_zone)::date AS today) t
                CROSS JOIN LATERAL (SELECT greatest(t.today - 29, h.started_on) AS first) r
                """
            )
        let sql = """
            SELECT \(HabitRecord.columns), \(HabitProgress.columns)\(details) \(HabitRecord.from) \(range)
            WHERE h.user_id = ANY($1::bigint[]) AND h.status <> 'ARCHIVED' AND \(HabitRecord.visible(toViewerAt: 2))
            ORDER BY h.user_id, h.status, h.created_at, h.id
            """
        return DataLoader { ids in
            let rows = try await database.query(sql, [ids, viewerID])
            return try Loaders.grouped(ids, rows) { row in
                let habit = try HabitRecord(row: row)
                progress.prime(habit.id, try HabitProgress(row: row, offset: HabitRecord.columnCount))
                if let inFull {
                    let offset = HabitRecord.columnCount + HabitProgress.columnCount
                    inFull.completionRates.prime(
                        HabitRange(habit: habit.id, from: nil, to: nil),
                        HabitRange.rate(done: try row.decode(at: offset), days: try row.decode(at: offset + 1)))
                    let days = try row.decode([Int].self, at: offset + 2), dates = try row.decode([String].self, at: offset + 3)
                    inFull.milestones.prime(habit.id, zip(days, dates).map { HabitMilestone(days: $0, reachedOn: $1) })
                }
                return (habit.userID, habit)
            }
        }
    }
}
