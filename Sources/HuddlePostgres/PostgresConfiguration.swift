import CLibPQ
import HuddleRuntime

#if canImport(Glibc)
    import Glibc
#endif

/// How to reach PostgreSQL and how the pool behaves; every limit has a
/// safe default.
public struct PostgresConfiguration: Sendable {
    /// A libpq connection string or URI (`postgresql://user@host/db`,
    /// `postgresql:///db?host=/socket/dir`).
    public var url: String
    /// Connections opened when the pool starts and kept open.
    public var minConnections = 1
    /// Connections the pool opens at most (per event loop).
    public var maxConnections = 8
    /// How long a statement or transaction waits for a connection before
    /// failing with `.poolTimeout`: shorter than an operation's time budget,
    /// so a request during an outage is told so while its client still waits.
    public var acquireTimeout = Duration.seconds(2)
    /// How long opening one connection may take.
    public var connectTimeout = Duration.seconds(5)
    /// The server cancels a statement running longer (`statement_timeout`);
    /// nil leaves the server's setting.
    public var statementTimeout: Duration? = .seconds(30)
    /// A connection unused this long is checked with a round trip before use.
    public var healthCheckAfterIdle = Duration.seconds(30)
    /// Waits between attempts to reconnect, doubling from the first to the last.
    public var reconnectBackoff: (first: Duration, last: Duration) = (.milliseconds(50), .seconds(5))
    /// Statements in flight on one connection before the pool prefers
    /// another one (or opens one).
    public var maxPipelineDepth = 64
    /// Prepared statements kept per connection; statements beyond run unnamed.
    public var maxPreparedStatements = 1_000
    /// Plan prepared statements once per connection (`plan_cache_mode =
    /// force_generic_plan`) instead of letting PostgreSQL plan them again
    /// for each run's values. The statements here are parameterised and
    /// shaped by their text (a search's filters write different text), so
    /// the generic plan is the right one, and re-planning cost more than
    /// running (docs/performance.md, "Measured choices").
    public var forceGenericPlans = true
    /// Let PostgreSQL compile a statement's expressions with LLVM (`jit`)
    /// when its estimated cost passes `jit_above_cost`. The server's
    /// statements are short lookups whose generic plans overestimate their
    /// rows (an `= ANY($1)` is planned for ten ids), so a page's estimate
    /// can cross that line and each run then spends tens of milliseconds
    /// compiling what runs in one (docs/performance.md, "Measured choices").
    public var allowsJIT = false
    /// The planner's cost of a random page read (`random_page_cost`) for
    /// the server's sessions. Huddle's working set is meant to sit in
    /// memory or on SSD, where a random read costs little more than a
    /// sequential one; at PostgreSQL's default of 4 the planner hash-joins
    /// whole tables where a few index lookups do. The shared migrations set
    /// it on the database too, but a database restored from a dump or
    /// copied from a template does not keep that. nil leaves the
    /// database's setting.
    public var randomPageCost: Double? = 1.1
    /// How many times `withTransaction` runs its body again after a
    /// serialization failure or deadlock.
    public var transactionRetries = 3
    /// The name sessions show in `pg_stat_activity`, unless the URL names one.
    public var applicationName = "huddle"
    /// `PGOPTIONS` when the configuration was made: libpq reads it only
    /// when no `options` are given, and the server always gives some.
    private let environmentOptions = getenv("PGOPTIONS").map { String(cString: $0) }

    public init(url: String) {
        self.url = url
    }

    /// libpq keywords and values for `PQconnectStartParams`; the URL comes
    /// first and is expanded, the rest set the session up.
    var connectionParameters: [(String, String)] {
        var options = ""
        if let statementTimeout {
            options += " -c statement_timeout=\(max(1, statementTimeout.milliseconds))"
        }
        if forceGenericPlans {
            options += " -c plan_cache_mode=force_generic_plan"
        }
        if !allowsJIT {
            options += " -c jit=off"
        }
        if let randomPageCost {
            options += " -c random_page_cost=\(randomPageCost)"
        }
        // The `options` parameter replaces the one the URL (or PGOPTIONS)
        // gave, so the operator's come along, after the server's tuning,
        // where they win; the formats the decoder reads come last, where
        // nothing overrides them.
        if let operatorOptions = Self.options(in: url) ?? environmentOptions {
            options += " " + operatorOptions
        }
        options += " -c TimeZone=UTC -c DateStyle=ISO -c IntervalStyle=iso_8601 -c extra_float_digits=1"
        return [
            ("dbname", url),
            ("options", options),
            ("client_encoding", "UTF8"),
            ("fallback_application_name", applicationName),
        ]
    }

    /// The `options` a connection string or URI sets, if it parses.
    package static func options(in url: String) -> String? {
        var message: UnsafeMutablePointer<CChar>?
        guard let parsed = PQconninfoParse(url, &message) else {
            PQfreemem(message)
            return nil
        }
        defer { PQconninfoFree(parsed) }
        var option = parsed
        while let keyword = option.pointee.keyword {
            if strcmp(keyword, "options") == 0 {
                return option.pointee.val.map { String(cString: $0) }
            }
            option += 1
        }
        return nil
    }
}
