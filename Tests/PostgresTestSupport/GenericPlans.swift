import HuddlePostgres

extension PostgresConnection {
    /// The plan PostgreSQL runs `sql` with as the server runs it: prepared
    /// once and generic, with `arguments` (SQL literals) bound; with
    /// `analyze`, what it did, row counts included. Call it in a transaction
    /// (the plan mode is set for that transaction only).
    package func genericPlan(of sql: String, arguments: String, analyze: Bool = false) async throws -> String {
        _ = try await query("SET LOCAL plan_cache_mode = force_generic_plan")
        // A name of its own: a statement prepared before a failure outlives
        // the transaction's rollback, on a connection the pool keeps.
        let name = "planned_\(UInt32.random(in: 0...UInt32.max))"
        _ = try await query("PREPARE \(name) AS \(sql)")
        let options = analyze ? "ANALYZE, COSTS OFF, TIMING OFF" : "VERBOSE"
        let rows = try await query("EXPLAIN (\(options)) EXECUTE \(name)(\(arguments))")
        _ = try await query("DEALLOCATE \(name)")
        return try rows.map { try $0.decode(String.self, at: 0) }.joined(separator: "\n")
    }

    /// The largest "Rows Removed by Filter" of an analysed plan: rows a
    /// statement read only to throw away (per loop; rows an index skipped
    /// are not counted, so this tells a filter from an index condition).
    package static func rowsRemovedByFilter(in plan: String) -> Int {
        plan.split(separator: "\n").compactMap { line in
            line.split(separator: "Rows Removed by Filter: ").dropFirst().first.flatMap { Int($0) }
        }.max() ?? 0
    }
}

extension PostgresConnection {
    /// The most rows one node of an analysed plan returned over all its
    /// loops: what the statement read in its largest step.
    package static func mostRowsReturned(in plan: String) -> Int {
        plan.split(separator: "\n").compactMap { line -> Int? in
            // "actual rows=3 loops=1": rows are an average over the loops,
            // with decimals from PostgreSQL 18 on.
            guard let tail = line.split(separator: "actual rows=").dropFirst().first,
                let rows = tail.split(separator: " ").first.flatMap({ Double($0) }),
                let loopsText = tail.split(separator: "loops=").dropFirst().first, let loops = Int(loopsText.prefix(while: \.isNumber))
            else { return nil }
            return Int((rows * Double(loops)).rounded())
        }.max() ?? 0
    }
}
