import Synchronization

/// The process's counters, shared by every loop, rendered in Prometheus's
/// text exposition format at /metrics.
public final class Metrics: Sendable {
    /// Upper bounds of the latency histogram's buckets, in seconds.
    public static let latencyBuckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
    /// The database's: a statement or a wait for a connection is mostly
    /// well under a millisecond, so the buckets start lower.
    public static let databaseBuckets: [Double] = [
        0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
    ]

    struct RequestKey: Hashable {
        var operationType: String
        var status: Int
    }

    struct OperationKey: Hashable {
        var type: String
        var name: String
    }

    struct State {
        var requests: [RequestKey: Int] = [:]
        var latency = Histogram(bounds: Metrics.latencyBuckets)
        var operations: [OperationKey: Histogram] = [:]
        var errors: [String: Int] = [:]
        /// Names this loop has seen given a label of their own.
        var admitted: Set<String> = []
        /// Where the last request's count and its operation's histogram are:
        /// the next request is most often of the same kind, and comparing
        /// its key with the last costs less than hashing it. Set whenever a
        /// key is inserted, the only change that moves what is stored.
        private var lastRequest: (key: RequestKey, index: [RequestKey: Int].Index)?
        private var lastOperation: (type: String, name: String, index: [OperationKey: Histogram].Index)?

        mutating func record(operationType: String?, status: Int, seconds: Double) {
            let key = RequestKey(operationType: operationType ?? "none", status: status)
            if let last = lastRequest, last.key == key {
                requests.values[last.index] += 1
            } else {
                requests[key, default: 0] += 1
                lastRequest = (key, requests.index(forKey: key)!)
            }
            latency.record(seconds)
        }

        /// Records `seconds` in the histogram of operations of `type` named
        /// `name`, counted under `label` (the name, or `other`), which
        /// `label` works out only when the operation is not the last one's.
        mutating func record(type: String, name: String, seconds: Double, label: (inout State) -> String) {
            if let last = lastOperation, last.type == type, last.name == name {
                operations.values[last.index].record(seconds)
                return
            }
            let key = OperationKey(type: type, name: label(&self))
            operations[key, default: Histogram(bounds: Metrics.latencyBuckets)].record(seconds)
            lastOperation = (type, name, operations.index(forKey: key)!)
        }

        mutating func add(_ other: State) {
            lastRequest = nil
            lastOperation = nil
            requests.merge(other.requests, uniquingKeysWith: +)
            latency.add(other.latency)
            for (key, histogram) in other.operations { operations[key, default: Histogram(bounds: Metrics.latencyBuckets)].add(histogram) }
            errors.merge(other.errors, uniquingKeysWith: +)
        }
    }

    /// The request counts of one event loop: each loop counts into its own,
    /// so that loops answering 100,000 requests a second do not take turns
    /// at one lock; /metrics adds them up.
    public final class RequestCounters: Sendable {
        let state = Mutex(State())
        let names: OperationNames

        init(names: OperationNames) {
            self.names = names
        }

        /// Counts a request answered: by GraphQL operation type (`none` for
        /// other paths) and status, and its latency; a GraphQL operation also
        /// by its name (bounded, `Metrics.maxOperationNames`) and each
        /// error code of its response.
        public func record(operationType: String?, status: Int, seconds: Double, operation: LoggedOperation? = nil) {
            state.withLock { state in
                state.record(operationType: operationType, status: status, seconds: seconds)
                guard let operation else { return }
                for code in operation.errorCodes { state.errors[code, default: 0] += 1 }
                guard let type = operation.type else { return }
                let name = operation.name ?? "anonymous"
                // A name's label never changes: admitted names stay, and a
                // name refused once (the cap reached, too long) is refused again.
                state.record(type: type, name: name, seconds: seconds) { state in
                    // Only names given a label are remembered here (at most the
                    // cap): a client sending ever new names adds nothing.
                    let label = state.admitted.contains(name) || names.admit(name) ? name : "other"
                    if label == name { state.admitted.insert(name) }
                    return label
                }
            }
        }
    }

    /// The operation names counted under a label of their own, process-wide:
    /// the first `cap` seen of at most `maxLength` bytes; later or longer
    /// ones are counted as `other`, so clients naming each operation anew
    /// cannot grow /metrics, nor this set, without bound.
    final class OperationNames: Sendable {
        static let maxLength = 64
        let cap: Int
        private let names = Mutex<Set<String>>([])

        init(cap: Int) {
            self.cap = cap
        }

        func admit(_ name: String) -> Bool {
            guard name.utf8.count <= Self.maxLength else { return false }
            return names.withLock { names in
                if names.contains(name) { return true }
                guard names.count < cap else { return false }
                names.insert(name)
                return true
            }
        }
    }

    /// The codes of refusals by a limit (of cost, depth, size, time, rate).
    static func isLimitRejection(_ code: String) -> Bool {
        code.hasSuffix("_LIMIT_EXCEEDED") || code == "RESPONSE_TOO_LARGE" || code == "OPERATION_TIMEOUT" || code == "RATE_LIMITED"
    }

    private let shards = Mutex<[RequestCounters]>([])
    private let connections = Atomic<Int>(0)
    private let webSockets = Atomic<Int>(0)
    private let subscriptions = Atomic<Int>(0)
    private let subscriptionEvents = Atomic<Int>(0)
    /// The database pools of the workers, read when metrics are rendered.
    private let pools = Mutex<[any ConnectionPoolGauges]>([])
    private let jobs = Mutex(Jobs())

    /// What the durable scheduler did in this process.
    struct Jobs {
        var outcomes: [String: Int] = [:]
        /// The most a job started after its due time, in seconds.
        var latenessMax = 0.0
        /// How late each job started.
        var lateness = Histogram(bounds: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300])
        /// Times it looked at the table for due jobs.
        var looks = 0
        /// Messages of the outbox, by outcome.
        var mail: [String: Int] = [:]
        /// Notices pushed, by channel and outcome.
        var pushes: [String: [String: Int]] = [:]
    }

    /// The most operation names counted under a label of their own.
    public let maxOperationNames: Int
    private let operationNames: OperationNames

    public init(maxOperationNames: Int = 100) {
        self.maxOperationNames = maxOperationNames
        operationNames = OperationNames(cap: maxOperationNames)
    }

    /// Counters of its own for one event loop, added into the totals.
    public func makeRequestCounters() -> RequestCounters {
        let counters = RequestCounters(names: operationNames)
        shards.withLock { $0.append(counters) }
        return counters
    }

    public func connectionOpened() { connections.add(1, ordering: .relaxed) }
    public func connectionClosed() { connections.subtract(1, ordering: .relaxed) }
    public func webSocketOpened() { webSockets.add(1, ordering: .relaxed) }
    public func webSocketClosed() { webSockets.subtract(1, ordering: .relaxed) }
    public func subscriptionStarted() { subscriptions.add(1, ordering: .relaxed) }
    public func subscriptionEnded() { subscriptions.subtract(1, ordering: .relaxed) }
    /// A subscription's event was written to its client (WebSocket or event stream).
    public func subscriptionEventDelivered() { subscriptionEvents.add(1, ordering: .relaxed) }

    /// A scheduled job ran: `outcome` is `done`, `again` (due again later) or
    /// `failed`; it started `lateness` seconds after its due time.
    public func recordJob(outcome: String, lateness: Double) {
        jobs.withLock { jobs in
            jobs.outcomes[outcome, default: 0] += 1
            jobs.latenessMax = max(jobs.latenessMax, lateness)
            // A failure is counted without the time it started at.
            if outcome != "failed" { jobs.lateness.record(lateness) }
        }
    }

    /// A message of the outbox was `sent`, `failed` (to be tried again) or given up as `dead`.
    public func recordMail(outcome: String) {
        jobs.withLock { $0.mail[outcome, default: 0] += 1 }
    }

    /// A notice's delivery on `channel` (WEB_PUSH, APNS, FCM, WEBHOOK, EMAIL) was
    /// `sent`, `failed` (to be tried again), `dead` (given up), `gone` (the
    /// device is no longer there) or `dropped` (quiet hours, a daily cap).
    public func recordPush(channel: String, outcome: String) {
        jobs.withLock { $0.pushes[channel, default: [:]][outcome, default: 0] += 1 }
    }

    /// The scheduler looked at its table for due jobs.
    public func recordSchedulerLook() {
        jobs.withLock { $0.looks += 1 }
    }

    public var openConnections: Int { connections.load(ordering: .relaxed) }
    public var activeSubscriptions: Int { subscriptions.load(ordering: .relaxed) }

    /// Gauges the layers above report through this process's metrics: name, help and how to read it.
    private let extraGauges = Mutex<[(name: String, help: String, read: @Sendable () -> Int)]>([])

    /// Reports the value `read` gives under `name`, with the rest.
    public func registerGauge(_ name: String, help: String, _ read: @escaping @Sendable () -> Int) {
        extraGauges.withLock { $0.append((name, help, read)) }
    }

    /// Counters the layers above keep themselves: name, help and how to read it.
    private let extraCounters = Mutex<[(name: String, help: String, read: @Sendable () -> Int)]>([])

    /// Reports the count `read` gives under `name` (a counter: it only grows).
    public func registerCounter(_ name: String, help: String, _ read: @escaping @Sendable () -> Int) {
        extraCounters.withLock { $0.append((name, help, read)) }
    }

    /// Families the layers above write themselves (labelled ones), read at each scrape.
    private let expositions = Mutex<[@Sendable () async -> String]>([])

    /// Adds what `write` gives (whole families, in the text format) to each scrape.
    public func registerExposition(_ write: @escaping @Sendable () async -> String) {
        expositions.withLock { $0.append(write) }
    }

    /// Reports `pool`'s connections with the rest.
    public func register(_ pool: any ConnectionPoolGauges) {
        pools.withLock { $0.append(pool) }
    }

    /// The text exposition format (version 0.0.4), with the database pools
    /// (each read on its own loop).
    public func render() async -> String {
        var open = 0, busy = 0, waiting = 0, statements = 0
        var acquireWait = Histogram(bounds: Self.databaseBuckets)
        var statementDuration = Histogram(bounds: Self.databaseBuckets)
        for pool in pools.withLock({ $0 }) {
            let statistics = await pool.gauges()
            open += statistics.open
            busy += statistics.busy
            waiting += statistics.waiting
            statements += statistics.statements
            acquireWait.add(statistics.acquireWait)
            statementDuration.add(statistics.statementDuration)
        }
        var text = "# HELP huddle_build_info Huddle's version and the commit it was built from.\n"
        text += "# TYPE huddle_build_info gauge\n"
        text += "huddle_build_info{version=\"\(HuddleVersion.version)\",commit=\"\(HuddleVersion.commit)\"} 1\n"
        text += ProcessMetrics.render()
        text += renderHTTP()
        text += counter(
            "huddle_subscription_events_total", "Subscription events written to their clients (WebSocket and event streams).",
            subscriptionEvents.load(ordering: .relaxed))
        text += acquireWait.family(
            "huddle_database_acquire_wait_seconds", help: "How long a statement or transaction waited for a PostgreSQL connection.")
        text += statementDuration.family(
            "huddle_database_statement_duration_seconds", help: "From a statement's sending to its result, pipelining included.")
        text += gauge("huddle_database_connections", "PostgreSQL connections open now, over all workers.", open)
        text += gauge("huddle_database_connections_busy", "PostgreSQL connections running statements or holding a transaction now.", busy)
        text += gauge("huddle_database_waiting", "Statements and transactions waiting for a PostgreSQL connection now.", waiting)
        text += counter("huddle_database_statements_total", "Statements run on PostgreSQL, over all workers.", statements)
        let jobs = jobs.withLock { $0 }
        text += "# HELP huddle_scheduled_jobs_total Scheduled jobs this process ran, by outcome (done, again, failed).\n"
        text += "# TYPE huddle_scheduled_jobs_total counter\n"
        for outcome in ["done", "again", "failed"] {
            text += "huddle_scheduled_jobs_total{outcome=\"\(outcome)\"} \(jobs.outcomes[outcome] ?? 0)\n"
        }
        text +=
            "# HELP huddle_scheduled_job_lateness_seconds_max The most a scheduled job started after it was due, since the process started.\n"
        text += "# TYPE huddle_scheduled_job_lateness_seconds_max gauge\nhuddle_scheduled_job_lateness_seconds_max \(jobs.latenessMax)\n"
        text += jobs.lateness.family(
            "huddle_scheduled_job_lateness_seconds", help: "How long after its due time each scheduled job started.")
        text += counter("huddle_scheduler_looks_total", "Times the scheduler looked for due jobs (it sleeps between looks).", jobs.looks)
        text += "# HELP huddle_mail_messages_total Outbox messages this process tried to send, by outcome (sent, failed, dead).\n"
        text += "# TYPE huddle_mail_messages_total counter\n"
        for outcome in ["sent", "failed", "dead"] {
            text += "huddle_mail_messages_total{outcome=\"\(outcome)\"} \(jobs.mail[outcome] ?? 0)\n"
        }
        text += "# HELP huddle_notice_deliveries_total Notices this process delivered outside the app, by channel and outcome.\n"
        text += "# TYPE huddle_notice_deliveries_total counter\n"
        for channel in ["WEB_PUSH", "APNS", "FCM", "WEBHOOK", "EMAIL"] {
            for outcome in ["sent", "failed", "dead", "gone", "dropped"] {
                text +=
                    "huddle_notice_deliveries_total{channel=\"\(channel)\",outcome=\"\(outcome)\"} \(jobs.pushes[channel]?[outcome] ?? 0)\n"
            }
        }
        for extra in extraGauges.withLock({ $0 }) { text += gauge(extra.name, extra.help, extra.read()) }
        for extra in extraCounters.withLock({ $0 }) { text += counter(extra.name, extra.help, extra.read()) }
        for write in expositions.withLock({ $0 }) { text += await write() }
        return text
    }

    /// The HTTP and WebSocket figures.
    public func renderHTTP() -> String {
        var snapshot = State()
        for shard in shards.withLock({ $0 }) { snapshot.add(shard.state.withLock { $0 }) }
        var text = """
            # HELP huddle_http_requests_total HTTP requests answered, by GraphQL operation type and status.
            # TYPE huddle_http_requests_total counter

            """
        for (key, count) in snapshot.requests.sorted(by: { ($0.key.operationType, $0.key.status) < ($1.key.operationType, $1.key.status) })
        {
            text += "huddle_http_requests_total{operation_type=\"\(key.operationType)\",status=\"\(key.status)\"} \(count)\n"
        }
        text += snapshot.latency.family("huddle_http_request_duration_seconds", help: "Time from a request's arrival to its response.")
        text += "# HELP huddle_graphql_operation_duration_seconds GraphQL operations over HTTP by type and name "
        text += "(the first \(maxOperationNames) names; later ones as other).\n"
        text += "# TYPE huddle_graphql_operation_duration_seconds histogram\n"
        for (key, histogram) in snapshot.operations.sorted(by: { ($0.key.type, $0.key.name) < ($1.key.type, $1.key.name) }) {
            text += histogram.lines(
                "huddle_graphql_operation_duration_seconds",
                labels: "operation_type=\"\(key.type)\",operation_name=\"\(Self.escaped(key.name))\"")
        }
        text += "# HELP huddle_graphql_errors_total Responses over HTTP with errors, by each extensions.code they carry.\n"
        text += "# TYPE huddle_graphql_errors_total counter\n"
        for (code, count) in snapshot.errors.sorted(by: { $0.key < $1.key }) {
            text += "huddle_graphql_errors_total{code=\"\(Self.escaped(code))\"} \(count)\n"
        }
        text += "# HELP huddle_limit_rejections_total Operations refused or stopped by a limit, by the error's code.\n"
        text += "# TYPE huddle_limit_rejections_total counter\n"
        for (code, count) in snapshot.errors.sorted(by: { $0.key < $1.key }) where Self.isLimitRejection(code) {
            text += "huddle_limit_rejections_total{code=\"\(Self.escaped(code))\"} \(count)\n"
        }
        text += gauge("huddle_open_connections", "TCP connections open now.", connections.load(ordering: .relaxed))
        text += gauge("huddle_open_websockets", "WebSocket connections open now.", webSockets.load(ordering: .relaxed))
        text += gauge(
            "huddle_active_subscriptions",
            "GraphQL subscriptions running over WebSocket and event streams now, each once its event source is in place.",
            subscriptions.load(ordering: .relaxed))
        return text
    }

    /// A label value as the exposition format writes it.
    public static func escaped(_ value: String) -> String {
        var text = ""
        for character in value {
            switch character {
            case "\\": text += "\\\\"
            case "\"": text += "\\\""
            case "\n": text += "\\n"
            default: text.append(character)
            }
        }
        return text
    }

    private func gauge(_ name: String, _ help: String, _ value: Int) -> String {
        "# HELP \(name) \(help)\n# TYPE \(name) gauge\n\(name) \(value)\n"
    }

    private func counter(_ name: String, _ help: String, _ value: Int) -> String {
        "# HELP \(name) \(help)\n# TYPE \(name) counter\n\(name) \(value)\n"
    }
}

/// A database pool as the metrics report it.
public protocol ConnectionPoolGauges: Sendable {
    /// Its connections and statements now, read on the pool's own loop.
    func gauges() async -> ConnectionPoolStatistics
}

/// What `/metrics` reports of a pool.
public struct ConnectionPoolStatistics: Sendable {
    public var open: Int
    public var busy: Int
    public var waiting: Int
    /// Statements run since the pool opened.
    public var statements: Int
    /// Waits for a connection, and statements' durations, since it opened.
    public var acquireWait: Histogram
    public var statementDuration: Histogram

    public init(
        open: Int, busy: Int, waiting: Int, statements: Int, acquireWait: Histogram = Histogram(bounds: Metrics.databaseBuckets),
        statementDuration: Histogram = Histogram(bounds: Metrics.databaseBuckets)
    ) {
        self.open = open
        self.busy = busy
        self.waiting = waiting
        self.statements = statements
        self.acquireWait = acquireWait
        self.statementDuration = statementDuration
    }
}
