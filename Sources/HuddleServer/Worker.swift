import Foundation
import GraphQL
import GraphQLTransport
import HuddleCore
import HuddleMedia
import HuddlePlayground
import HuddlePostgres
import HuddlePush
import HuddleRuntime

/// One event loop on its own thread with its own server, pool and schema.
final class Worker: Sendable {
    let loop: EventLoop
    let server: HTTPServer
    let pool: PostgresPool
    /// Pools to the standbys queries may read from, when there are any.
    let replicaReads: ReplicaReads?
    /// The media store, when pictures go to a bucket.
    let bucket: S3Bucket?
    private let startOutcome = AsyncOutcome<String?>()
    private let finishOutcome = AsyncOutcome<Void>()
    /// Called when SIGTERM or SIGINT reaches the loop; nil when the
    /// worker watches no signals (a server inside another program).
    private let onSignal: (@Sendable () -> Void)?

    init(
        http configuration: HTTPServer.Configuration, database: PostgresConfiguration, schema: ExecutableSchema,
        shared: HuddleServer.Shared, settings: HuddleServer.Configuration, onSignal: (@Sendable () -> Void)?
    ) {
        self.onSignal = onSignal
        let loop = EventLoop(logger: configuration.logger)
        self.loop = loop
        let pool = PostgresPool(database, on: loop)
        self.pool = pool
        let metrics = configuration.metrics
        metrics.register(pool)
        let readRouting: ReadRouting?
        if let monitor = shared.replicaMonitor, let positions = shared.writePositions {
            // As many connections to each standby as to the primary; opened as reads come.
            let replicas = settings.replicas.map { replica in
                var replica = replica
                replica.maxConnections = database.maxConnections
                replica.acquireTimeout = database.acquireTimeout
                return replica
            }
            // Their statements are counted by standby (huddle_database_replica_statements_total),
            // not in the primary's figures.
            let reads = ReplicaReads(monitor: monitor, replicas: replicas, maxWait: settings.replicaWait, on: loop)
            replicaReads = reads
            readRouting = ReadRouting(replicas: reads, positions: positions)
        } else {
            replicaReads = nil
            readRouting = nil
        }
        let listener = shared.listener
        let tokens = shared.tokens
        let appSettings = shared.appSettings
        var http = GraphQLOverHTTP.Configuration()
        // The operations' waiting work runs on this worker's loop.
        var operations = settings.operations
        operations.workExecutor = loop
        http.allowedOrigins = settings.allowedOrigins
        http.persistedQueries = shared.persistedQueries
        http.operations = operations
        let processor = ImageProcessor()
        // The media store's client on this worker's loop, where uploads and /media run.
        let bucket = settings.mediaStore.map { S3Bucket($0, client: HTTPClient(loop: loop, settings: S3Bucket.clientSettings)) }
        self.bucket = bucket
        http.uploads = MultipartUploads(
            database: pool, tokens: tokens, settings: appSettings, processor: processor, bucket: bucket, logger: configuration.logger)
        let proxies = ClientAddress.TrustedProxies(settings.trustedProxies)
        let push = settings.push?.registration ?? PushRegistration()
        let graphQL = GraphQLOverHTTP(schema: schema, configuration: http, metrics: metrics) {
            request, _ async throws(ServiceUnavailable) in
            try await HuddleAPI.context(
                for: request, database: pool, listener: listener, tokens: tokens, settings: appSettings, trustedProxies: proxies,
                push: push, pictures: shared.pictures, tallies: shared.tallies, readRouting: readRouting)
        }
        var ws = GraphQLOverWebSocket.Configuration()
        ws.operations = operations
        let webSocket = GraphQLOverWebSocket(schema: schema, configuration: ws, metrics: metrics) {
            payload, upgrade async throws(ServiceUnavailable) in
            try await HuddleAPI.context(
                forConnectionInit: payload, upgrade: upgrade, database: pool, listener: listener, tokens: tokens, settings: appSettings,
                trustedProxies: proxies, push: push, pictures: shared.pictures, tallies: shared.tallies, readRouting: readRouting)
        }
        let playground = settings.playgroundAssets.map { assets in
            var playgroundSettings = Playground.Configuration()
            playgroundSettings.hidesSuggestions = operations.hidesSuggestions
            return Playground(schema: schema.schema, assets: assets, configuration: playgroundSettings)
        }
        let routes = Routes(
            metrics: metrics, database: pool, graphQL: graphQL, playground: playground,
            accountPages: AccountPages(database: pool, tokens: tokens, writePositions: shared.writePositions),
            mediaCache: shared.mediaCache, pictures: shared.pictures,
            bucket: bucket,
            uploadPages: UploadPages(
                database: pool, settings: appSettings, processor: processor, bucket: bucket, allowedOrigins: settings.allowedOrigins,
                logger: configuration.logger),
            replicas: shared.replicaMonitor, logger: configuration.logger)
        var configuration = configuration
        configuration.streamsBody = { head in graphQL.streamsBody(head) ?? UploadPages.streamsBody(head, settings: appSettings) }
        server = HTTPServer(
            loop: loop, configuration: configuration, webSocket: webSocket.service(allowedOrigins: settings.allowedOrigins)
        ) { request in
            await routes.respond(to: request)
        }
    }

    func start() {
        let thread = Thread { [self] in
            Task(executorPreference: loop) { [self] in
                do {
                    // The database first: no request is accepted before it answers.
                    try await pool.start()
                } catch {
                    startOutcome.set("cannot reach PostgreSQL: \(error)")
                    return
                }
                do {
                    try server.start()
                } catch {
                    startOutcome.set(String(describing: error))
                    return
                }
                startOutcome.set(nil)
            }
            loop.run()
            finishOutcome.set(())
        }
        thread.name = "huddle-loop"
        thread.start()
    }

    /// From now on SIGTERM and SIGINT stop this worker (libuv tells every
    /// loop that watches a signal, so each drains its own connections).
    /// Called once every worker listens, so that no signal finds some
    /// watching and others not yet started.
    func watchSignals() async {
        guard let onSignal else { return }
        await Task(executorPreference: loop) { [self] in
            for signal in [SIGTERM, SIGINT] {
                loop.onSignal(signal) { [self] in
                    onSignal()
                    stop()
                }
            }
        }.value
    }

    func stop() {
        let server = server
        let pool = pool
        let loop = loop
        let bucket = bucket
        let replicaReads = replicaReads
        loop.enqueue {
            Task(executorPreference: loop) {
                await server.shutdown()
                bucket?.client.close()
                await pool.close()
                await replicaReads?.close()
                loop.stop()
            }
        }
    }

    /// nil once listening, or why it could not.
    func started() async -> String? { await startOutcome.value }

    func finished() async { await finishOutcome.value }
}
