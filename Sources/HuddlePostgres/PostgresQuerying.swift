import HuddleRuntime

/// Something statements can be run on: a pool (each statement on whichever
/// connection is free) or one connection (inside a transaction).
public protocol PostgresQuerying: Sendable {
    /// Runs `sql` with `parameters` bound to `$1`, `$2`, ...
    func query(_ sql: String, _ parameters: [any PostgresEncodable]) async throws -> PostgresRows
}

extension PostgresQuerying {
    /// Runs `sql` with no parameters.
    public func query(_ sql: String) async throws -> PostgresRows {
        try await query(sql, [])
    }
}
