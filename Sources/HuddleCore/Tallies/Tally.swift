import HuddlePostgres

/// Something an app counts as people read (a project's page opened, a
/// snippet tapped): counted in memory by the process, per hour, and added
/// to the database in batches by `TallyWriter`, so that a read never waits
/// for a write of its own.
package struct Tally: Sendable, Hashable {
    /// For logs and metrics (`project-views`).
    package let name: String
    /// The statement that adds one batch, given per counted key and hour:
    /// `$1` the keys (`bigint[]`), `$2` the hours' starts in seconds since
    /// 1970 (`bigint[]`), `$3` the counts (`integer[]`) and `$4` how many of
    /// them were by signed-in people (`integer[]`). A key and hour come once
    /// in a batch; a key whose row has gone since must be skipped, not fail.
    package let statement: String
    /// How old counts are removed: a statement given `$1`, the oldest hour
    /// to keep in seconds since 1970, run hourly with `keepDays`' value.
    package let prune: (statement: String, keepDays: AppSetting)?

    package init(_ name: String, statement: String, prune: (statement: String, keepDays: AppSetting)? = nil) {
        self.name = name
        self.statement = statement
        self.prune = prune
    }

    // A tally is its name: hashing the statement on every read would cost for nothing.
    package static func == (left: Tally, right: Tally) -> Bool { left.name == right.name }
    package func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// Who a counted read was by: each counts once per key and hour.
package enum TallyReader: Hashable, Sendable {
    case user(Int64)
    /// Someone signed out, by their address (an IPv6 address's /64).
    case address(String)
    /// Someone signed out whose address is not known: every read counts.
    case unknown

    var isSignedIn: Bool {
        if case .user = self { true } else { false }
    }
}
