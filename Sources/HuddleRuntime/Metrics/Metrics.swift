import Synchronization

/// The process's counters, shared by every loop, rendered in Prometheus's
/// text exposition format at /metrics.
public final class Metrics: Sendable {
    /// Upper bounds of the latency histogram's buckets, in seconds.
    public static let latencyBuckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    struct RequestKey: Hashable {
        var operationType: String
        var status: Int
    }

    struct State {
        var requests: [RequestKey: Int] = [:]
        var bucketCounts = [Int](repeating: 0, count: Metrics.latencyBuckets.count)
        var latencyCount = 0
        var latencySum = 0.0

        mutating func record(operationType: String?, status: Int, seconds: Double) {
            requests[RequestKey(operationType: operationType ?? "none", status: status), default: 0] += 1
            if let bucket = Metrics.latencyBuckets.firstIndex(where: { seconds <= $0 }) {
                bucketCounts[bucket] += 1
            }
            latencyCount += 1
            latencySum += seconds
        }

        mutating func add(_ other: State) {
            requests.merge(other.requests, uniquingKeysWith: +)
            for index in bucketCounts.indices { bucketCounts[index] += other.bucketCounts[index] }
            latencyCount += other.latencyCount
            latencySum += other.latencySum
        }
    }

    /// The request counts of one event loop: each loop counts into its own,
    /// so that loops answering 100,000 requests a second do not take turns
    /// at one lock; /metrics adds them up.
    public final class RequestCounters: Sendable {
        let state = Mutex(State())

        /// Counts a request answered: by GraphQL operation type (`none` for
        /// other paths) and status, and its latency.
        public func record(operationType: String?, status: Int, seconds: Double) {
            state.withLock { $0.record(operationType: operationType, status: status, seconds: seconds) }
        }
    }

    private let shards = Mutex<[RequestCounters]>([])
    private let connections = Atomic<Int>(0)
    private let webSockets = Atomic<Int>(0)
    private let subscriptions = Atomic<Int>(0)
    /// The database pools of the workers, read when metrics are rendered.
    private let pools = Mutex<[any ConnectionPoolGauges]>([])
    private let jobs = Mutex(Jobs())

    /// What the durable scheduler did in this process.
    struct Jobs {
        var outcomes: [String: Int] = [:]
        /// The most a job started after its due time, in seconds.
        var latenessMax = 0.0
        /// Times it looked at the table for due jobs.
        var looks = 0
        /// Messages of the outbox, by outcome.
        var mail: [String: Int] = [:]
        /// Notices pushed, by channel and outcome.
        var pushes: [String: [String: Int]] = [:]
    }

    public init() {}

    /// Counters of its own for one event loop, added into the totals.
    public func makeRequestCounters() -> RequestCounters {
        let counters = RequestCounters()
        shards.withLock { $0.append(counters) }
        return counters
    }

    public func connectionOpened() { connections.add(1, ordering: .relaxed) }
    public func connectionClosed() { connections.subtract(1, ordering: .relaxed) }
    public func webSocketOpened() { webSockets.add(1, ordering: .relaxed) }
    public func webSocketClosed() { webSockets.subtract(1, ordering: .relaxed) }
    public func subscriptionStarted() { subscriptions.add(1, ordering: .relaxed) }
    public func subscriptionEnded() { subscriptions.subtract(1, ordering: .relaxed) }

    /// A scheduled job ran: `outcome` is `done`, `again` (due again later) or
    /// `failed`; it started `lateness` seconds after its due time.
    public func recordJob(outcome: String, lateness: Double) {
        jobs.withLock { jobs in
            jobs.outcomes[outcome, default: 0] += 1
            jobs.latenessMax = max(jobs.latenessMax, lateness)
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

    /// Reports `pool`'s connections with the rest.
    public func register(_ pool: any ConnectionPoolGauges) {
        pools.withLock { $0.append(pool) }
    }

    /// The text exposition format (version 0.0.4), with the database pools
    /// (each read on its own loop).
    public func render() async -> String {
        var open = 0, busy = 0, waiting = 0, statements = 0
        for pool in pools.withLock({ $0 }) {
            let statistics = await pool.gauges()
            open += statistics.open
            busy += statistics.busy
            waiting += statistics.waiting
            statements += statistics.statements
        }
        var text = renderHTTP()
        text += gauge("huddle_database_connections", "PostgreSQL connections open now, over all workers.", open)
        text += gauge("huddle_database_connections_busy", "PostgreSQL connections running statements or holding a transaction now.", busy)
        text += gauge("huddle_database_waiting", "Statements and transactions waiting for a PostgreSQL connection now.", waiting)
        text += "# HELP huddle_database_statements_total Statements run on PostgreSQL, over all workers.\n"
        text += "# TYPE huddle_database_statements_total counter\nhuddle_database_statements_total \(statements)\n"
        let jobs = jobs.withLock { $0 }
        text += "# HELP huddle_scheduled_jobs_total Scheduled jobs this process ran, by outcome (done, again, failed).\n"
        text += "# TYPE huddle_scheduled_jobs_total counter\n"
        for outcome in ["done", "again", "failed"] {
            text += "huddle_scheduled_jobs_total{outcome=\"\(outcome)\"} \(jobs.outcomes[outcome] ?? 0)\n"
        }
        text +=
            "# HELP huddle_scheduled_job_lateness_seconds_max The most a scheduled job started after it was due, since the process started.\n"
        text += "# TYPE huddle_scheduled_job_lateness_seconds_max gauge\nhuddle_scheduled_job_lateness_seconds_max \(jobs.latenessMax)\n"
        text += "# HELP huddle_scheduler_looks_total Times the scheduler looked for due jobs (it sleeps between looks).\n"
        text += "# TYPE huddle_scheduler_looks_total counter\nhuddle_scheduler_looks_total \(jobs.looks)\n"
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
        text += """
            # HELP huddle_http_request_duration_seconds Time from a request's arrival to its response.
            # TYPE huddle_http_request_duration_seconds histogram

            """
        var cumulative = 0
        for (bound, count) in zip(Self.latencyBuckets, snapshot.bucketCounts) {
            cumulative += count
            text += "huddle_http_request_duration_seconds_bucket{le=\"\(bound)\"} \(cumulative)\n"
        }
        text += "huddle_http_request_duration_seconds_bucket{le=\"+Inf\"} \(snapshot.latencyCount)\n"
        text += "huddle_http_request_duration_seconds_sum \(snapshot.latencySum)\n"
        text += "huddle_http_request_duration_seconds_count \(snapshot.latencyCount)\n"
        text += gauge("huddle_open_connections", "TCP connections open now.", connections.load(ordering: .relaxed))
        text += gauge("huddle_open_websockets", "WebSocket connections open now.", webSockets.load(ordering: .relaxed))
        text += gauge(
            "huddle_active_subscriptions", "GraphQL operations running over WebSocket, and subscriptions over event streams, now.",
            subscriptions.load(ordering: .relaxed))
        return text
    }

    private func gauge(_ name: String, _ help: String, _ value: Int) -> String {
        "# HELP \(name) \(help)\n# TYPE \(name) gauge\n\(name) \(value)\n"
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

    public init(open: Int, busy: Int, waiting: Int, statements: Int) {
        self.open = open
        self.busy = busy
        self.waiting = waiting
        self.statements = statements
    }
}
