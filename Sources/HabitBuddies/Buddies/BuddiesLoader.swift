import GraphQL
import HuddleCore
import HuddlePostgres

extension HabitBuddiesLoaders {
    /// The buddies loader that answers what `info` selects: the one that
    /// also reads the buddies' habits and progress when the selection asks
    /// for them, so that a list of buddies with their habits (the
    /// dashboard) costs one statement, not two. Of those, the one that reads
    /// the buddies' names alone when that is all any alias of their `user`
    /// asks (the rule `Buddy.user` picks its loader by:
    /// `Loaders.users(for:)`). It primes only the names loader: a part of
    /// the same operation that asks for a buddy's whole row reads it, and
    /// two aliases of the list asking for different fields of `user` cost a
    /// statement each.
    func buddies(for info: ResolveInfo) -> DataLoader<Int64, [BuddyRecord]> {
        guard info.selectedFieldNames.contains("habits") else { return buddies }
        return UserRecord.namesAnswer(info.selectedFieldNames(under: "user")) ? buddiesWithHabitsNamesOnly : buddiesWithHabits
    }

    /// Users' buddies, oldest pair first, each buddy's user primed into the
    /// shared loaders (with `namesOnly`, read with `UserRecord.nameColumns`
    /// into the names loader alone). With `habits`, the statement also reads each buddy's
    /// active and paused habits with their progress (a LEFT JOIN: a row a
    /// habit, one for a buddy without) and primes those loaders; only the
    /// viewer's own buddies' habits, which are theirs to see.
    static func buddies(
        _ database: PostgresPool, viewerID: Int64?, shared: Loaders, namesOnly: Bool = false,
        habits: (
            userHabits: DataLoader<Int64, [HabitRecord]>, progress: DataLoader<Int64, HabitProgress>,
            buddies: DataLoader<Int64, [BuddyRecord]>
        )? =
            nil
    ) -> DataLoader<Int64, [BuddyRecord]> {
        let (userColumns, userColumnCount) =
            namesOnly ? (UserRecord.nameColumns, UserRecord.nameSelection.count) : (UserRecord.columns, UserRecord.columnCount)
        let pairColumns = 3 + userColumnCount
        let (habitColumns, habitJoin, habitOrder) =
            habits == nil
            ? ("", "", "")
            : (
                ", \(HabitRecord.columns), \(HabitProgress.columns)",
                """
                LEFT JOIN (\(HabitRecord.tables)) ON h.user_id = u.id AND h.status <> 'ARCHIVED'
                """,
                ", h.status, h.created_at, h.id"
            )
        let sql = """
            SELECT b.id, b.matched_at, o.viewer, \(userColumns)\(habitColumns)
            FROM unnest($1::bigint[]) AS o(viewer)
            JOIN buddy_pairs b ON o.viewer IN (b.first_id, b.second_id)
            JOIN users u ON u.id = CASE WHEN b.first_id = o.viewer THEN b.second_id ELSE b.first_id END
            \(habitJoin)
            ORDER BY o.viewer, b.matched_at, b.id\(habitOrder)
            """
        return DataLoader { ids in
            let rows = try await database.query(sql, [ids])
            var found: [Int64: [BuddyRecord]] = [:]
            var buddyHabits: [Int64: [HabitRecord]] = [:]
            var last: (owner: Int64, pair: Int64)?
            for row in rows {
                let owner = try row.decode(Int64.self, at: 2)
                let pair = try row.decode(Int64.self, at: 0)
                if last?.owner != owner || last?.pair != pair {
                    try shared.primeUser(from: row, offset: 3, namesOnly: namesOnly)
                    let userID = try row.decode(Int64.self, at: 3)
                    found[owner, default: []].append(
                        BuddyRecord(pairID: pair, viewerID: owner, userID: userID, since: try row.decode(at: 1)))
                    // A buddy without habits has none, not unknown ones.
                    if habits != nil, owner == viewerID { buddyHabits[userID] = buddyHabits[userID] ?? [] }
                    last = (owner, pair)
                }
                guard let habits, owner == viewerID, try row.decode(Int64?.self, at: pairColumns) != nil else { continue }
                let habit = try HabitRecord(row: row, offset: pairColumns)
                habits.progress.prime(habit.id, try HabitProgress(row: row, offset: pairColumns + HabitRecord.columnCount))
                buddyHabits[habit.userID, default: []].append(habit)
            }
            if let habits {
                for (buddy, list) in buddyHabits { habits.userHabits.prime(buddy, list) }
                for id in ids { habits.buddies.prime(id, found[id] ?? []) }
            }
            return ids.map { .success(found[$0] ?? []) }
        }
    }
}
