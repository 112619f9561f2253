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
        // owner's today (or the habit's start, if later) to today. The
        // check-ins in it are counted from the days the progress reads
        // anyway, and the milestones are read in one scan, not one per array.
        let (details, range) =
            inFull == nil
            ? ("", "")
            : (
                """
                , greatest(0, t.today - greatest(t.today - 29, h.started_on) + 1)::int,
                  coalesce(ms.days, '{}'), coalesce(ms.dates, '{}')
                """,
                """
                CROSS JOIN LATERAL (SELECT (now() AT TIME ZONE p.time_zone)::date AS today) t
                LEFT JOIN LATERAL (
                    SELECT array_agg(m.days ORDER BY m.days) AS days, array_agg(m.reached_on::text ORDER BY m.days) AS dates
                    FROM habit_milestones m WHERE m.habit_id = h.id
                ) ms ON true
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
                let column = row.columns(HabitProgress.Column.self, at: HabitRecord.columnCount)
                let (days, today): ([Int64], Int64) = (try column[.days], try column[.today])
                progress.prime(habit.id, HabitProgress(habitID: habit.id, days: days, today: today))
                if let inFull {
                    let offset = HabitRecord.columnCount + HabitProgress.columnCount
                    let rangeDays: Int = try row.decode(at: offset)
                    inFull.completionRates.prime(
                        HabitRange(habit: habit.id, from: nil, to: nil),
                        HabitRange.rate(done: HabitProgress.checkIns(in: days, lastDays: rangeDays, through: today), days: rangeDays))
                    let milestoneDays = try row.decode([Int].self, at: offset + 1), dates = try row.decode([String].self, at: offset + 2)
                    inFull.milestones.prime(habit.id, zip(milestoneDays, dates).map { HabitMilestone(days: $0, reachedOn: $1) })
                }
                return (habit.userID, habit)
            }
        }
    }
}
