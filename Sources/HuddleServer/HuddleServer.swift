import Foundation
import GraphQL
import GraphQLTransport
import HuddleCore
import HuddlePlayground
import HuddlePostgres
import HuddlePush
import HuddleRuntime
import HuddleTelemetry
import Synchronization

/// The server the `huddle serve` command runs, and that tests start in
/// their own process: the mounted apps' schema served over HTTP, WebSocket
/// and SSE by one event loop per worker on one port, with the process's
/// LISTEN connection, token cache, automatic persisted queries and durable
/// scheduler.
///
/// It neither migrates nor seeds the database, nor claims the port against
/// other processes: those are the command's (`huddle serve`), which knows
/// where the database lives.
package final class HuddleServer: Sendable {
    package struct Configuration: Sendable {
        /// The address, port, timeouts, logger and metrics each worker's
        /// HTTP server uses. Port 0 picks a free port, which every worker shares.
        package var http = HTTPServer.Configuration()
        /// Event loops, each on a thread of its own.
        package var workers = 1
        /// Connections to PostgreSQL for requests, shared out between the
        /// workers, at least one each; nil for twice the number of cores.
        package var databaseConnections: Int?
        /// How long a checked token's user may be kept rather than asked for again.
        package var tokenCacheLifetime = Duration.seconds(60)
        /// Hot standbys of the database that queries may read from (issue
        /// 40), each with as many connections as the primary.
        package var replicas: [PostgresConfiguration] = []
        /// How often the standbys are polled, and how far behind one may fall.
        package var replicaMonitoring = ReplicaMonitor.Settings()
        /// How long a query that must see its reader's last write waits for
        /// a standby to replay it before reading from the primary.
        package var replicaWait = Duration.zero
        /// Bytes of automatic persisted queries kept over all workers; 0 keeps none.
        package var persistedQueryBytes = 16 << 20
        /// Bytes of pictures' renditions kept in memory over all workers; 0 keeps none.
        package var mediaCacheBytes = 64 << 20
        /// Where new pictures' bytes go: an S3-compatible bucket; nil keeps
        /// them in PostgreSQL.
        package var mediaStore: S3Bucket.Location?
        /// How the outbox's mail is sent; nil leaves it in the outbox for
        /// another process to send. A `publicURL` left empty is this
        /// server's own address (`http://localhost:PORT`).
        package var mail: MailDelivery.Settings?
        /// How notices are pushed to devices and posted to a webhook; nil
        /// takes no device registrations and leaves deliveries queued for
        /// another process.
        package var push: NoticeDelivery.Settings?
        /// Whether this process runs due scheduled jobs (round ends, reminders, mail).
        package var runsScheduler = true
        package var scheduler = JobRunner.Settings()
        /// Where traces go (OTLP over HTTP); nil when tracing is off.
        package var tracing: OTLPSettings?
        /// Limits, introspection, suggestions, incremental delivery and
        /// trusted documents, for every transport.
        package var operations = GraphQLOperationSettings()
        /// Proxies (load balancers) whose `X-Forwarded-For` names the client,
        /// by IP address; a request from anywhere else is its connection's.
        package var trustedProxies: [String] = []
        /// Origins whose browsers may call the API (CORS and WebSockets).
        package var allowedOrigins: [String] = []
        /// The Playground's files; nil serves no Playground.
        package var playgroundAssets: PlaygroundAssets?
        /// The apps' settings; nil for their defaults.
        package var appSettings: AppSettings?
        /// Whether SIGTERM and SIGINT stop the server and SIGHUP reads the
        /// trusted documents again: what a process that is only a server
        /// wants, and what a test beside others must not do.
        package var handlesSignals = false
        /// What hour counted reads are in (tests pin it).
        package var tallyClock: @Sendable () -> Date = Date.init
        /// Called on the first SIGTERM or SIGINT, before the workers drain.
        package var onShutdownSignal: (@Sendable () -> Void)?

        package init() {}

        /// The connections each worker gets.
        func connectionShares(cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> [Int] {
            let total = databaseConnections ?? max(workers, 2 * cores)
            return (0..<workers).map { index in total / workers + (index < total % workers ? 1 : 0) }
        }
    }

    /// Why the server could not start; its text is what the command prints.
    package struct StartError: Error, CustomStringConvertible {
        package var description: String
    }

    /// What the workers share: one of each for the process.
    struct Shared: Sendable {
        let listener: PostgresListener
        let tokens: TokenCache
        let persistedQueries: PersistedQueries
        let appSettings: AppSettings
        let mediaCache: MediaCache?
        let pictures: PictureURLs
        let tallies: Tallies
        /// With standbys to read from: what they have replayed, and what each user must see.
        let replicaMonitor: ReplicaMonitor?
        let writePositions: WritePositions?
    }

    package let configuration: Configuration
    package let apps: [any App.Type]
    package var metrics: Metrics { configuration.http.metrics }
    /// One per worker: objects that two loop threads retain and release in
    /// turn bounce their reference counts between the cores' caches
    /// (docs/performance.md, "Measured choices").
    private let schemas: [ExecutableSchema]
    /// Set once `start` has made the workers: `stop` reads it at once,
    /// `finished` waits for it.
    private let running = AsyncOutcome<Running>()
    /// The teardown after the workers stop, run once whoever asks first.
    private let teardown = Mutex<Task<Void, Never>?>(nil)

    /// What `start` made, which `stop` and `finished` need.
    private let effectivePush = Mutex<PushRegistration?>(nil)

    /// What this process pushes through, once started: none for a process
    /// whose VAPID key is not the deployment's.
    package var pushRegistration: PushRegistration? { effectivePush.withLock { $0 } }

    private struct Running: Sendable {
        let workers: [Worker]
        let listenerLoop: EventLoop
        let listener: PostgresListener
        let replicaParts: ReplicaParts?
        let scheduler: JobRunner
        let schedulerPool: PostgresPool
        /// Writes the counted reads, on the scheduler's pool.
        let tallyWriter: TallyWriter
        /// Mail's and notice delivery's pool (when either sends), and
        /// notice delivery's HTTP client.
        let deliveryPool: PostgresPool?
        let pushClient: HTTPClient?
        /// The trash job's client of the media store, when there is one.
        let storeClient: HTTPClient?
        /// The spans' exporter, when tracing is on: stopped last, so that
        /// the spans of the last requests go out.
        let traceExporter: OTLPExporter?
    }

    /// Builds the schema of `apps` from `directory` for each worker; an
    /// error here is the schema's (a field without a resolver, a kind no
    /// app records), before anything runs.
    package init(apps: [any App.Type], schema directory: SchemaDirectory, configuration: Configuration) throws {
        guard configuration.workers >= 1 else { throw StartError(description: "a server needs at least one worker") }
        guard configuration.databaseConnections.map({ $0 >= configuration.workers }) ?? true else {
            throw StartError(description: "each worker needs a database connection: give at least as many as workers")
        }
        self.apps = apps
        self.configuration = configuration
        schemas = try (0..<configuration.workers).map { _ in
            try HuddleAPI.executableSchema(
                directory, apps: apps, incrementalDelivery: configuration.operations.incrementalDelivery,
                logger: configuration.http.logger)
        }
    }

    /// Starts on `database`, migrated: the LISTEN connection, the token
    /// cache, then every worker (each connects its pool before it accepts
    /// anything) and the scheduler. Returns the port, once every worker listens.
    package func start(on database: PostgresConfiguration) async throws(StartError) -> Int {
        var configuration = configuration
        // One LISTEN connection for the process, on a loop of its own;
        // every worker's subscriptions follow it.
        let listenerLoop = EventLoop(logger: configuration.http.logger)
        Thread { listenerLoop.run() }.start()
        let listener = PostgresListener(database, on: listenerLoop)
        do {
            try await listener.start()
        } catch {
            listenerLoop.stop()
            throw StartError(description: "cannot reach PostgreSQL: \(error)")
        }
        /// What one statement at start reads, on a connection of its own
        /// closed after; a failure stops the start, saying what was not read.
        func readAtStart<T: Sendable>(_ what: String, _ read: @escaping @Sendable (PostgresPool) async throws -> T) async throws(StartError)
            -> T
        {
            var one = database
            one.maxConnections = 1
            // No request waits on a read at start: it waits for its
            // connection as long as opening one may take, so that a machine
            // busy at that moment does not stop the server from starting.
            one.acquireTimeout = max(one.acquireTimeout, one.connectTimeout)
            let pool = PostgresPool(one, on: listenerLoop)
            do {
                let value = try await listenerLoop.onLoop { () async throws in try await read(pool) }
                await listenerLoop.onLoop { await pool.close() }
                return value
            } catch {
                await listenerLoop.onLoop { await pool.close() }
                await listener.close()
                listenerLoop.stop()
                throw StartError(description: "cannot read \(what): \(error)")
            }
        }
        if let vapid = configuration.push?.vapid {
            // Every process of a deployment pushes with the key its browsers subscribed with.
            let recorded = try await readAtStart("the deployment's VAPID key") { pool in
                try await NoticeDelivery.recordVAPIDKey(vapid.publicKey, on: pool)
            }
            if recorded != vapid.publicKey {
                configuration.push?.vapid = nil
                configuration.http.logger.log(
                    .error, "Web Push is off in this process: its VAPID key is not the one this database's browsers subscribed with",
                    ["recorded": .string(recorded), "ours": .string(vapid.publicKey)])
            }
        }
        effectivePush.withLock { $0 = configuration.push?.registration }
        // Every process signs private pictures' URLs with the deployment's key.
        let signingKey = try await readAtStart("the deployment's picture signing key") { pool in
            try await PictureURLs.recordedKey(on: pool)
        }
        // Followed even when it keeps nothing (a lifetime of 0): open
        // WebSockets hear through it that their token was revoked.
        let tokens = TokenCache(lifetime: configuration.tokenCacheLifetime, listener: listener)
        do {
            try await tokens.start()
        } catch {
            await listener.close()
            listenerLoop.stop()
            throw StartError(description: "cannot follow revoked tokens: \(error)")
        }
        let bytes = configuration.persistedQueryBytes
        // One for the process: a client's hash may reach any worker.
        let persistedQueries = PersistedQueries(capacity: bytes == 0 ? 0 : 10_000, maxBytes: bytes)
        metrics.registerGauge("huddle_persisted_queries", help: "Automatic persisted queries kept now.") { persistedQueries.usage.count }
        metrics.registerGauge(
            "huddle_database_up",
            help: "1 while this process's listening connection to PostgreSQL is up (it reconnects with backoff while it cannot), else 0."
        ) { listener.connectionNumber == nil ? 0 : 1 }
        metrics.registerCounter(
            "huddle_subscription_events_dropped_total",
            help: "Database notifications a subscriber fell too far behind to receive (each keeps the newest 10,000)."
        ) { listener.droppedEvents.load(ordering: .relaxed) }
        metrics.registerGauge("huddle_persisted_query_bytes", help: "What the automatic persisted queries kept now take, in bytes.") {
            persistedQueries.usage.bytes
        }
        let appSettings = configuration.appSettings ?? AppSettings.defaults(of: apps)
        let mediaCache =
            configuration.mediaCacheBytes > 0
            ? MediaCache(maxBytes: configuration.mediaCacheBytes, removals: ChannelWatch(MediaCache.removalChannel, listener: listener))
            : nil
        if let mediaCache {
            // A picture removed stops being served from memory here too.
            do {
                try await mediaCache.start()
            } catch {
                await listener.close()
                listenerLoop.stop()
                throw StartError(description: "cannot follow removed pictures: \(error)")
            }
        }
        // After the steps that may fail: nothing is left to stop if they do.
        let traceExporter = configuration.tracing.map { OTLPExporter(settings: $0, logger: configuration.http.logger) }
        if let traceExporter {
            traceExporter.start()
            let settings = traceExporter.settings
            configuration.http.tracer = HuddleTracer(sampler: settings.sampler, limits: settings.limits, processor: traceExporter)
            metrics.registerCounter("huddle_trace_spans_exported_total", help: "Spans the OTLP collector accepted.") {
                traceExporter.exportedSpans.load(ordering: .relaxed)
            }
            metrics.registerCounter(
                "huddle_trace_spans_dropped_total",
                help: "Spans dropped: the export queue was full (a slow or absent collector), or their export failed."
            ) { traceExporter.droppedSpans.load(ordering: .relaxed) }
            metrics.registerCounter(
                "huddle_trace_exports_failed_total", help: "Batches of spans the collector did not take, retries spent."
            ) {
                traceExporter.failedExports.load(ordering: .relaxed)
            }
        }
        let tallies = Tallies(capacity: appSettings[HuddleCore.Shared.tallyHeldReads], clock: configuration.tallyClock)
        metrics.registerCounter(
            "huddle_tally_reads_dropped_total",
            help: "Counted reads (page views) dropped: tally-held-reads readers were held in the hour already."
        ) { tallies.dropped }
        metrics.registerGauge("huddle_tally_reads_held", help: "Readers of counted reads (page views) held this hour.") {
            tallies.held
        }
        let replicaParts = await startReplicaMonitoring(
            primary: database, listener: listener, listenerLoop: listenerLoop, settings: configuration)
        let shared = Shared(
            listener: listener, tokens: tokens, persistedQueries: persistedQueries, appSettings: appSettings,
            mediaCache: mediaCache,
            pictures: PictureURLs(key: signingKey, lifetime: appSettings[HuddleCore.Shared.privatePictureURLMinutes] * 60),
            tallies: tallies, replicaMonitor: replicaParts?.monitor, writePositions: replicaParts?.positions)
        // Few connections, each with a pipeline of statements, keep
        // PostgreSQL's CPUs on statements rather than on switching between
        // backends (docs/performance.md, "Measured choices").
        let shares = configuration.connectionShares()
        let onShutdownSignal = configuration.onShutdownSignal
        let onSignal: (@Sendable () -> Void)? = configuration.handlesSignals ? { @Sendable in onShutdownSignal?() } : nil
        func worker(_ index: Int, port: Int) -> Worker {
            var http = configuration.http
            http.port = port
            var pool = database
            pool.maxConnections = shares[index]
            return Worker(http: http, database: pool, schema: schemas[index], shared: shared, settings: configuration, onSignal: onSignal)
        }
        // The first worker binds first, so that with port 0 the others
        // share the port it was given rather than each take one.
        var workers = [worker(0, port: configuration.http.port)]
        workers[0].start()
        var failures: [String] = []
        if let failure = await workers[0].started() {
            failures.append(failure)
        } else {
            let port = workers[0].server.port
            workers += (1..<configuration.workers).map { worker($0, port: port) }
            for worker in workers.dropFirst() { worker.start() }
            for worker in workers.dropFirst() {
                if let failure = await worker.started() { failures.append(failure) }
            }
        }
        // The durable scheduler, on the listener's loop with a pool of its
        // own, so that due work never waits behind requests (or they behind it).
        var schedulerDatabase = database
        // One more for the tallies' writer, so its batch never waits for a job.
        schedulerDatabase.maxConnections = configuration.scheduler.concurrency + 2
        let schedulerPool = PostgresPool(schedulerDatabase, on: listenerLoop)
        let tallyWriter = TallyWriter(
            tallies, declared: apps.flatMap { $0.tallies }, database: schedulerPool,
            interval: .seconds(appSettings[HuddleCore.Shared.tallyWriteSeconds]), settings: appSettings, logger: configuration.http.logger)
        metrics.registerCounter(
            "huddle_tally_buckets_written_total", help: "Counted reads written, by key and hour (one row each)."
        ) { tallyWriter.written }
        metrics.registerCounter(
            "huddle_tally_writes_failed_total", help: "Batches of counted reads the database did not take (each tried again with the next)."
        ) { tallyWriter.failed }
        var work =
            apps.flatMap { app in app.scheduledWork } + DataExport(apps: apps, settings: shared.appSettings).work + [Uploads.sweepWork]
        // Deliveries keep their books outside the jobs' transactions, on
        // connections of their own (NoticeDelivery and MailDelivery say why).
        var deliveryPool: PostgresPool?
        if configuration.mail != nil || configuration.push != nil {
            var deliveryDatabase = database
            deliveryDatabase.maxConnections = configuration.scheduler.concurrency + 1
            deliveryPool = PostgresPool(deliveryDatabase, on: listenerLoop)
        }
        if var mail = configuration.mail, let pool = deliveryPool {
            if mail.publicURL.isEmpty, let port = workers.first?.server.port { mail.publicURL = "http://localhost:\(port)" }
            work.append(
                MailDelivery(mail, database: pool, appSettings: shared.appSettings, logger: configuration.http.logger, metrics: metrics)
                    .work)
        }
        var storeClient: HTTPClient?
        if let store = configuration.mediaStore {
            let client = HTTPClient(loop: listenerLoop, settings: S3Bucket.clientSettings)
            storeClient = client
            work.append(MediaTrash.work(S3Bucket(store, client: client)))
        }
        var pushClient: HTTPClient?
        if let push = configuration.push, let pool = deliveryPool {
            do {
                try await listenerLoop.onLoop { () async throws in
                    try await NoticeDelivery.announceWebhook(push.webhookURL != nil, on: pool)
                }
                let delivery = try NoticeDelivery(
                    push, database: pool, apps: apps, appSettings: shared.appSettings, logger: configuration.http.logger, metrics: metrics)
                pushClient = delivery.client
                work.append(delivery.work)
            } catch {
                failures.append("push: \(error)")
            }
        }
        let scheduler = JobRunner(
            work: work, database: schedulerPool, listener: listener,
            logger: configuration.http.logger, metrics: metrics, settings: configuration.scheduler, tracer: configuration.http.tracer)
        let made = Running(
            workers: workers, listenerLoop: listenerLoop, listener: listener, replicaParts: replicaParts, scheduler: scheduler,
            schedulerPool: schedulerPool,
            tallyWriter: tallyWriter, deliveryPool: deliveryPool, pushClient: pushClient, storeClient: storeClient,
            traceExporter: traceExporter)
        running.set(made)
        if let failure = failures.first {
            stop()
            await finished()
            throw StartError(description: failure)
        }
        for worker in workers { await worker.watchSignals() }
        if configuration.runsScheduler { scheduler.start() }
        tallyWriter.start()
        if configuration.handlesSignals, let manifest = configuration.operations.trustedDocuments {
            // SIGHUP reads the manifest again: a deploy adds documents without a restart.
            let logger = configuration.http.logger
            Task(executorPreference: listenerLoop) {
                listenerLoop.onSignal(SIGHUP) {
                    do {
                        let count = try manifest.reload()
                        logger.log(.info, "trusted documents reloaded", ["documents": .int(count)])
                    } catch {
                        logger.log(.error, "trusted documents not reloaded; the old ones stay", ["reason": .string("\(error)")])
                    }
                }
            }
        }
        return workers[0].server.port
    }

    /// Stops accepting and lets requests in flight finish (for at most the
    /// grace period), as SIGTERM does; `finished` tells when it has. Before
    /// `start` has returned it does nothing.
    package func stop() {
        for worker in running.current?.workers ?? [] { worker.stop() }
    }

    /// Waits until every worker has stopped (by `stop` or a signal), then
    /// stops the scheduler and closes the process's connections.
    package func finished() async {
        let running = await running.value
        let task = teardown.withLock { task in
            if let task { return task }
            // On the listener's loop, whose connections it closes last.
            let made = Task(executorPreference: running.listenerLoop) {
                for worker in running.workers { await worker.finished() }
                // The requests are over: what they counted is written now.
                await running.tallyWriter.stop()
                await running.scheduler.stop()
                await running.schedulerPool.close()
                running.pushClient?.close()
                running.storeClient?.close()
                await running.deliveryPool?.close()
                if let exporter = running.traceExporter {
                    // Its last export may wait on the collector: not on a loop.
                    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                        Thread {
                            // Well within the time the process is given after its grace period.
                            exporter.shutdown(within: .seconds(5))
                            done.resume()
                        }.start()
                    }
                }
                await running.replicaParts?.stop()
                await running.listener.close()
                running.listenerLoop.stop()
            }
            task = made
            return made
        }
        await task.value
    }
}

extension AppSettings {
    /// Every setting of `apps` at its default.
    package static func defaults(of apps: [any App.Type]) -> AppSettings {
        // Defaults lie within their ranges, so nothing here can be invalid.
        (try? AppSettings(AppSettings.declared(mounting: apps), environment: [:], assignments: [])) ?? AppSettings()
    }
}
