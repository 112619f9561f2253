import ArgumentParser
import Foundation
import GraphQL
import GraphQLTransport
import HuddleCore
import HuddleMail
import HuddlePlayground
import HuddlePostgres
import HuddleRuntime
import HuddleServer
import HuddleTelemetry

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the API over HTTP.",
        discussion: """
            Runs one libuv event loop per worker, all accepting on one port \
            (SO_REUSEPORT). SIGTERM or SIGINT stops accepting, lets requests \
            in flight finish (for at most the grace period), and exits 0.
            Options default to HUDDLE_HOST, HUDDLE_PORT and HUDDLE_WORKERS when set.
            """
    )

    @Option(help: "The IPv4 or IPv6 address to listen on (HUDDLE_HOST).")
    var host: String = ProcessInfo.processInfo.environment["HUDDLE_HOST"] ?? "127.0.0.1"

    @Option(parsing: .unconditional, help: "The TCP port (HUDDLE_PORT).")
    var port: Int = ProcessInfo.processInfo.environment["HUDDLE_PORT"].flatMap(Int.init) ?? 8080

    @Option(parsing: .unconditional, help: "Event loops, each on a thread of its own (HUDDLE_WORKERS; default: the number of cores).")
    var workers: Int =
        ProcessInfo.processInfo.environment["HUDDLE_WORKERS"].flatMap(Int.init)
        ?? ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "debug, info (a line per request), warning, error or off (HUDDLE_LOG_LEVEL).")
    var logLevel: String = ProcessInfo.processInfo.environment["HUDDLE_LOG_LEVEL"] ?? "info"

    @Option(
        parsing: .unconditional,
        help:
            "GraphQL operation names /metrics counts under a label of their own; later ones count as other (HUDDLE_METRICS_OPERATION_NAMES)."
    )
    var metricsOperationNames: Int = ProcessInfo.processInfo.environment["HUDDLE_METRICS_OPERATION_NAMES"].flatMap(Int.init) ?? 100

    @Option(help: "json, text, or auto: text on a terminal, json otherwise (HUDDLE_LOG_FORMAT).")
    var logFormat: String = ProcessInfo.processInfo.environment["HUDDLE_LOG_FORMAT"] ?? "auto"

    @Option(
        parsing: .unconditional,
        help:
            "A request slower than this many seconds gets a warning line with its document's hash; 0 for none (HUDDLE_SLOW_REQUEST_SECONDS)."
    )
    var slowRequestSeconds: Double = ProcessInfo.processInfo.environment["HUDDLE_SLOW_REQUEST_SECONDS"].flatMap(Double.init) ?? 1

    @Option(
        help:
            "An OpenTelemetry collector's OTLP/HTTP base URL (http://collector:4318): traces are exported to its /v1/traces. Without it, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT; with none, tracing is off."
    )
    var otlpEndpoint: String?

    @Option(
        parsing: .unconditional,
        help:
            "The share of traces starting here that are recorded, 0 to 1; a request whose traceparent says sampled is always recorded (parentbased_traceidratio). Default: OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG, else 1."
    )
    var traceSampleRatio: Double?

    /// The tracing settings from the options and OpenTelemetry's variables; nil when tracing is off.
    var tracing: OTLPSettings? {
        get throws {
            do {
                return try OTLPSettings.from(
                    environment: ProcessInfo.processInfo.environment, endpoint: otlpEndpoint, sampleRatio: traceSampleRatio)
            } catch {
                throw ValidationError(error.description)
            }
        }
    }

    @Flag(name: .customLong("no-migrate"), help: "Do not apply the migrations on start.")
    var noMigrate = false

    @Option(
        name: .customLong("schema-dir"),
        help: "A Schema/ folder (SDL and migrations) to use instead of the one built into huddle (HUDDLE_SCHEMA_DIR).")
    var schemaDir: String?

    @Option(
        help:
            "Comma-separated IP addresses of proxies whose X-Forwarded-For names the client, for per-address limits (HUDDLE_TRUSTED_PROXIES)."
    )
    var trustedProxies: String = ProcessInfo.processInfo.environment["HUDDLE_TRUSTED_PROXIES"] ?? ""

    @Option(help: "Comma-separated origins whose browsers may call the API (CORS and websockets; `*` for any) (HUDDLE_ALLOWED_ORIGINS).")
    var allowedOrigins: String = ProcessInfo.processInfo.environment["HUDDLE_ALLOWED_ORIGINS"] ?? ""

    @Option(parsing: .unconditional, help: "The highest cost an operation may have; 0 for no limit (HUDDLE_MAX_COST).")
    var maxCost: Int = environment("HUDDLE_MAX_COST") ?? ExecutionLimits.default.maxCost!

    @Option(parsing: .unconditional, help: "The deepest field nesting an operation may have; 0 for no limit (HUDDLE_MAX_DEPTH).")
    var maxDepth: Int = environment("HUDDLE_MAX_DEPTH") ?? ExecutionLimits.default.maxDepth!

    @Option(parsing: .unconditional, help: "Aliases an operation may use; 0 for no limit (HUDDLE_MAX_ALIASES).")
    var maxAliases: Int = environment("HUDDLE_MAX_ALIASES") ?? ExecutionLimits.default.maxAliases!

    @Option(parsing: .unconditional, help: "Root fields an operation may have; 0 for no limit (HUDDLE_MAX_ROOT_FIELDS).")
    var maxRootFields: Int = environment("HUDDLE_MAX_ROOT_FIELDS") ?? ExecutionLimits.default.maxRootFields!

    @Option(parsing: .unconditional, help: "Directives an operation may use; 0 for no limit (HUDDLE_MAX_DIRECTIVES).")
    var maxDirectives: Int = environment("HUDDLE_MAX_DIRECTIVES") ?? ExecutionLimits.default.maxDirectives!

    @Option(
        parsing: .unconditional, help: "How deep introspection's list fields may nest; 0 for no limit (HUDDLE_MAX_INTROSPECTION_DEPTH).")
    var maxIntrospectionDepth: Int = environment("HUDDLE_MAX_INTROSPECTION_DEPTH") ?? ExecutionLimits.default.maxIntrospectionDepth!

    @Option(
        parsing: .unconditional, help: "The size assumed for a list no argument sizes, in an operation's cost (HUDDLE_DEFAULT_LIST_SIZE).")
    var defaultListSize: Int = environment("HUDDLE_DEFAULT_LIST_SIZE") ?? ExecutionLimits.default.defaultListSize

    @Option(
        parsing: .unconditional, help: "Seconds an operation (or a subscription event) may run; 0 for no limit (HUDDLE_MAX_EXECUTION_TIME)."
    )
    var maxExecutionTime: Double =
        ProcessInfo.processInfo.environment["HUDDLE_MAX_EXECUTION_TIME"].flatMap { Double($0) }
        ?? Double(ExecutionLimits.default.maxExecutionTime!.components.seconds)

    @Option(parsing: .unconditional, help: "The most bytes of data one response may hold; 0 for no limit (HUDDLE_MAX_RESPONSE_BYTES).")
    var maxResponseBytes: Int = environment("HUDDLE_MAX_RESPONSE_BYTES") ?? ExecutionLimits.default.maxResponseBytes!

    @Option(
        parsing: .unconditional,
        help: "The most bytes an execution may hold, written and still waiting; 0 for no limit (HUDDLE_MAX_HELD_BYTES).")
    var maxHeldBytes: Int = environment("HUDDLE_MAX_HELD_BYTES") ?? ExecutionLimits.default.maxHeldBytes!

    @Option(
        parsing: .unconditional,
        help:
            "Client connections each worker holds open (WebSocket subscribers included); one more is answered 503 and closed (HUDDLE_MAX_CONNECTIONS)."
    )
    var maxConnections: Int = environment("HUDDLE_MAX_CONNECTIONS") ?? HTTPServer.Configuration().maxConnections

    @Option(
        parsing: .unconditional,
        help: "Seconds a request waits for a free database connection before it is told the database is unavailable (HUDDLE_DATABASE_WAIT)."
    )
    var databaseWait: Double = ProcessInfo.processInfo.environment["HUDDLE_DATABASE_WAIT"].flatMap { Double($0) } ?? 2

    @Option(
        help:
            "A hot standby of the database that queries may read from (a libpq URL or key=value string); repeat for several (HUDDLE_DATABASE_REPLICA_URLS: postgresql:// URLs separated by spaces)."
    )
    var databaseReplicaURL: [String] = []

    /// `--database-replica-url`s, or the environment's.
    var replicaURLs: [String] {
        guard databaseReplicaURL.isEmpty else { return databaseReplicaURL }
        return (ProcessInfo.processInfo.environment["HUDDLE_DATABASE_REPLICA_URLS"] ?? "").split(separator: " ").map(String.init)
    }

    @Option(
        parsing: .unconditional,
        help: "Seconds a standby may fall behind the primary and still serve reads (HUDDLE_REPLICA_MAX_LAG)."
    )
    var replicaMaxLag: Double = ProcessInfo.processInfo.environment["HUDDLE_REPLICA_MAX_LAG"].flatMap { Double($0) } ?? 5

    @Option(
        parsing: .unconditional,
        help:
            "Seconds a query that must see its reader's last write waits for a standby to replay it before reading from the primary (HUDDLE_REPLICA_WAIT)."
    )
    var replicaWait: Double = ProcessInfo.processInfo.environment["HUDDLE_REPLICA_WAIT"].flatMap { Double($0) } ?? 0

    @Option(
        parsing: .unconditional,
        help:
            "Seconds a client may read nothing of a response, event or message waiting for it before it counts as stalled and is disconnected; a large result read slowly is not stalled (HUDDLE_SEND_TIMEOUT)."
    )
    var sendTimeout: Double = ProcessInfo.processInfo.environment["HUDDLE_SEND_TIMEOUT"].flatMap { Double($0) } ?? 10

    @Option(
        parsing: .unconditional,
        help:
            "Connections to PostgreSQL for requests, shared out between the workers, at least one each (HUDDLE_DATABASE_CONNECTIONS; default: twice the number of cores, and no fewer than the workers)."
    )
    var databaseConnections: Int?

    /// `--database-connections`, the environment's, or the default.
    var connectionCount: Int {
        databaseConnections ?? environment("HUDDLE_DATABASE_CONNECTIONS")
            ?? max(workers, 2 * ProcessInfo.processInfo.activeProcessorCount)
    }

    @Option(
        parsing: .unconditional,
        help:
            "Seconds a process may keep a checked token's user rather than ask the database each request; revocations reach every process at once; 0 to ask each time (HUDDLE_TOKEN_CACHE_SECONDS)."
    )
    var tokenCacheSeconds: Int = environment("HUDDLE_TOKEN_CACHE_SECONDS") ?? 60

    @Option(
        parsing: .unconditional,
        help:
            "Bytes the process keeps of automatic persisted queries, over all its workers (their texts without comments or white space); 0 keeps none (HUDDLE_PERSISTED_QUERY_BYTES)."
    )
    var persistedQueryBytes: Int = environment("HUDDLE_PERSISTED_QUERY_BYTES") ?? 16 << 20

    @Option(
        parsing: .unconditional,
        help:
            "Bytes the process keeps in memory of the pictures it served lately, over all its workers; 0 reads each from the database (HUDDLE_MEDIA_CACHE_BYTES)."
    )
    var mediaCacheBytes: Int = environment("HUDDLE_MEDIA_CACHE_BYTES") ?? 64 << 20

    @Option(
        help:
            "Where new pictures' bytes go: s3://BUCKET/PREFIX?endpoint=URL&region=R&path-style=true, an S3-compatible bucket, with AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY; without it, PostgreSQL (HUDDLE_MEDIA_STORE)."
    )
    var mediaStore: String = ProcessInfo.processInfo.environment["HUDDLE_MEDIA_STORE"] ?? ""

    @Option(
        parsing: .unconditional,
        help: "Scheduled jobs (round ends, reminders) this process runs at once, 1 to 64 (HUDDLE_SCHEDULER_CONCURRENCY).")
    var schedulerConcurrency: Int = environment("HUDDLE_SCHEDULER_CONCURRENCY") ?? JobRunner.Settings().concurrency

    @Flag(
        name: .customLong("no-scheduler"),
        help: "Run no scheduled jobs in this process; other processes on the database do them (HUDDLE_NO_SCHEDULER=1).")
    var noScheduler = ProcessInfo.processInfo.environment["HUDDLE_NO_SCHEDULER"] == "1"

    @Flag(name: .customLong("no-introspection"), help: "Refuse __schema and __type queries (HUDDLE_NO_INTROSPECTION=1).")
    var noIntrospection = ProcessInfo.processInfo.environment["HUDDLE_NO_INTROSPECTION"] == "1"

    @Flag(name: .customLong("no-suggestions"), help: "Leave \"Did you mean\" suggestions out of error messages (HUDDLE_NO_SUGGESTIONS=1).")
    var noSuggestions = ProcessInfo.processInfo.environment["HUDDLE_NO_SUGGESTIONS"] == "1"

    @Option(
        name: .customLong("trusted-documents"),
        help: ArgumentHelp(
            "A manifest of trusted documents (sha256:<hex> → document, as huddle persist writes it) that clients may name by documentId; read again on SIGHUP (HUDDLE_TRUSTED_DOCUMENTS).",
            valueName: "manifest.json"))
    var trustedDocumentsOption: String?

    /// The manifest's path, from the option or the environment.
    var trustedDocuments: String? { trustedDocumentsOption ?? ProcessInfo.processInfo.environment["HUDDLE_TRUSTED_DOCUMENTS"] }

    @Flag(
        name: .customLong("only-trusted"),
        help: "Run only the documents of the --trusted-documents manifest; refuse any other (HUDDLE_ONLY_TRUSTED=1).")
    var onlyTrusted = ProcessInfo.processInfo.environment["HUDDLE_ONLY_TRUSTED"] == "1"

    @Flag(
        name: .customLong("no-incremental-delivery"),
        help: "Leave @defer and @stream out of the schema: clients get every result whole (HUDDLE_NO_INCREMENTAL_DELIVERY=1).")
    var noIncrementalDelivery = ProcessInfo.processInfo.environment["HUDDLE_NO_INCREMENTAL_DELIVERY"] == "1"

    @Flag(
        name: .customLong("no-playground"),
        help: "Do not serve the Playground at /playground (HUDDLE_NO_PLAYGROUND=1); --no-introspection also turns it off.")
    var noPlayground = ProcessInfo.processInfo.environment["HUDDLE_NO_PLAYGROUND"] == "1"

    @Option(help: "Where CodeMirror 5 is installed, for the Playground (HUDDLE_CODEMIRROR_DIR).")
    var codemirrorDir = ProcessInfo.processInfo.environment["HUDDLE_CODEMIRROR_DIR"] ?? PlaygroundAssets.defaultCodeMirrorDirectory

    @OptionGroup(title: "Mail")
    var mail: MailOptions

    @OptionGroup(title: "Push")
    var push: PushOptions

    @Option(
        name: .customLong("set"),
        help: ArgumentHelp(
            "An app's setting, NAME=VALUE (repeatable; also HUDDLE_NAME, capitals and underscores): \(appSettingsHelp)",
            valueName: "name=value"))
    var settingAssignments: [String] = []

    /// The apps' settings, from the environment and `--set`.
    var appSettings: AppSettings {
        get throws {
            do {
                return try AppSettings(
                    AppSettings.declared(mounting: mountedApps), environment: ProcessInfo.processInfo.environment,
                    assignments: settingAssignments)
            } catch {
                throw ValidationError(error.description)
            }
        }
    }

    /// The operation limits the options set; 0 lifts a limit.
    var executionLimits: ExecutionLimits {
        func limit(_ value: Int) -> Int? { value == 0 ? nil : value }
        return ExecutionLimits(
            maxResponseBytes: limit(maxResponseBytes), maxCost: limit(maxCost), maxDepth: limit(maxDepth),
            maxAliases: limit(maxAliases), maxRootFields: limit(maxRootFields), maxDirectives: limit(maxDirectives),
            maxIntrospectionDepth: limit(maxIntrospectionDepth), defaultListSize: defaultListSize,
            maxExecutionTime: maxExecutionTime == 0 ? nil : .milliseconds(Int64(maxExecutionTime * 1000)),
            maxHeldBytes: limit(maxHeldBytes)
        )
    }

    /// The environment variables that hold numbers, whole or not: one set
    /// to something else stops the start rather than being ignored.
    static let numericEnvironment: [(name: String, whole: Bool)] =
        [
            "HUDDLE_PORT", "HUDDLE_WORKERS", "HUDDLE_METRICS_OPERATION_NAMES", "HUDDLE_MAX_COST", "HUDDLE_MAX_DEPTH",
            "HUDDLE_MAX_ALIASES", "HUDDLE_MAX_ROOT_FIELDS", "HUDDLE_MAX_DIRECTIVES", "HUDDLE_MAX_INTROSPECTION_DEPTH",
            "HUDDLE_DEFAULT_LIST_SIZE", "HUDDLE_MAX_RESPONSE_BYTES", "HUDDLE_MAX_HELD_BYTES", "HUDDLE_DATABASE_CONNECTIONS",
            "HUDDLE_TOKEN_CACHE_SECONDS", "HUDDLE_PERSISTED_QUERY_BYTES", "HUDDLE_MEDIA_CACHE_BYTES", "HUDDLE_SCHEDULER_CONCURRENCY",
            "HUDDLE_MAIL_ATTEMPTS", "HUDDLE_PUSH_ATTEMPTS", "HUDDLE_MAX_CONNECTIONS",
        ].map { ($0, true) }
        + ["HUDDLE_SLOW_REQUEST_SECONDS", "HUDDLE_MAX_EXECUTION_TIME", "HUDDLE_DATABASE_WAIT", "HUDDLE_SEND_TIMEOUT"].map { ($0, false) }

    func validate() throws {
        let environment = ProcessInfo.processInfo.environment
        for (name, whole) in Self.numericEnvironment {
            guard let text = environment[name] else { continue }
            let trimmed = text
            guard whole ? Int(trimmed) != nil : Double(trimmed).map(\.isFinite) == true else {
                throw ValidationError("\(name)=\(text) is not \(whole ? "a whole number" : "a number")")
            }
        }
        for (name, value) in [
            ("max-cost", maxCost), ("max-depth", maxDepth), ("max-aliases", maxAliases), ("max-root-fields", maxRootFields),
            ("max-directives", maxDirectives), ("max-introspection-depth", maxIntrospectionDepth),
            ("default-list-size", defaultListSize), ("max-response-bytes", maxResponseBytes), ("max-held-bytes", maxHeldBytes),
        ] where value < 0 {
            throw ValidationError("--\(name) must be 0 or more")
        }
        guard maxConnections >= 1 else { throw ValidationError("--max-connections must be 1 or more") }
        guard maxExecutionTime >= 0, maxExecutionTime.isFinite else { throw ValidationError("--max-execution-time must be 0 or more") }
        guard sendTimeout > 0, sendTimeout <= 3600 else { throw ValidationError("--send-timeout must be between 0 and 3600 seconds") }
        guard databaseWait > 0, databaseWait <= 600 else { throw ValidationError("--database-wait must be between 0 and 600 seconds") }
        if databaseReplicaURL.isEmpty, let bad = replicaURLs.first(where: { !$0.contains("://") }) {
            // A key=value string has spaces of its own: in the list, one would read as several.
            throw ValidationError(
                "HUDDLE_DATABASE_REPLICA_URLS takes postgresql:// URLs separated by spaces, not \"\(bad)\"; give a key=value string with --database-replica-url"
            )
        }
        guard replicaMaxLag > 0, replicaMaxLag <= 3600 else {
            throw ValidationError("--replica-max-lag must be between 0 and 3600 seconds")
        }
        guard replicaWait >= 0, replicaWait <= 10 else { throw ValidationError("--replica-wait must be between 0 and 10 seconds") }
        guard logFormat == "auto" || Logger.Format(rawValue: logFormat) != nil else {
            throw ValidationError("--log-format must be json, text or auto")
        }
        guard (0...10_000).contains(metricsOperationNames) else {
            throw ValidationError("--metrics-operation-names must be between 0 and 10000")
        }
        guard slowRequestSeconds >= 0, slowRequestSeconds <= 3600 else {
            throw ValidationError("--slow-request-seconds must be between 0 and 3600")
        }
        guard LogLevel(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of \(LogLevel.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard (1...256).contains(workers) else { throw ValidationError("--workers must be between 1 and 256") }
        guard (1...10_000).contains(connectionCount) else { throw ValidationError("--database-connections must be between 1 and 10000") }
        guard connectionCount >= workers else {
            throw ValidationError(
                "--database-connections (\(connectionCount)) must be at least --workers (\(workers)): each worker needs one")
        }
        guard (1...64).contains(schedulerConcurrency) else { throw ValidationError("--scheduler-concurrency must be between 1 and 64") }
        guard (0...(1 << 34)).contains(mediaCacheBytes) else {
            throw ValidationError("--media-cache-bytes must be between 0 and 17179869184")
        }
        guard (0...(1 << 30)).contains(persistedQueryBytes) else {
            throw ValidationError("--persisted-query-bytes must be between 0 and 1073741824")
        }
        guard (0...3600).contains(tokenCacheSeconds) else { throw ValidationError("--token-cache-seconds must be between 0 and 3600") }
        _ = try appSettings
        _ = try tracing
        if onlyTrusted && trustedDocuments == nil { throw ValidationError("--only-trusted needs --trusted-documents") }
    }

    func run() async throws {
        // From before the private cluster starts, whatever ends the process stops it.
        let clusterGuard = ClusterGuard()
        do {
            try await serve(guardedBy: clusterGuard)
        } catch {
            // A start a signal interrupted fails in whatever it was doing
            // (the cluster going away under a migration, say); it ends as
            // the signal ends it, whichever thread gets there first.
            if let signal = clusterGuard.startupSignal { throw ExitCode(128 + signal) }
            throw error
        }
    }

    private func serve(guardedBy clusterGuard: ClusterGuard) async throws {
        var configuration = HuddleServer.Configuration()
        configuration.http.host = host
        configuration.http.port = port
        configuration.http.sendTimeout = .milliseconds(Int64(sendTimeout * 1000))
        configuration.http.maxConnections = maxConnections
        let logger = Logger(level: LogLevel(rawValue: logLevel)!, format: Logger.Format(rawValue: logFormat) ?? .forStandardError)
        configuration.http.logger = logger
        configuration.http.metrics = Metrics(maxOperationNames: metricsOperationNames)
        configuration.http.slowRequestThreshold = slowRequestSeconds > 0 ? .nanoseconds(Int64(slowRequestSeconds * 1e9)) : nil
        configuration.workers = workers
        configuration.databaseConnections = connectionCount
        configuration.tokenCacheLifetime = .seconds(tokenCacheSeconds)
        configuration.replicas = replicaURLs.map { PostgresConfiguration(url: $0) }
        configuration.replicaMonitoring.maxLag = .milliseconds(Int64(replicaMaxLag * 1000))
        configuration.replicaWait = .milliseconds(Int64(replicaWait * 1000))
        configuration.persistedQueryBytes = persistedQueryBytes
        configuration.mediaCacheBytes = mediaCacheBytes
        if !mediaStore.isEmpty {
            do {
                configuration.mediaStore = try S3Bucket.Location(url: mediaStore, environment: ProcessInfo.processInfo.environment)
            } catch {
                throw ValidationError("--media-store: \(error)")
            }
        }
        configuration.runsScheduler = !noScheduler
        configuration.scheduler.concurrency = schedulerConcurrency
        configuration.allowedOrigins = commaSeparated(allowedOrigins)
        configuration.trustedProxies = commaSeparated(trustedProxies)
        configuration.appSettings = try appSettings
        configuration.mail = try mail.settings()
        configuration.push = try push.settings(mailFrom: mail.mailFrom)
        configuration.tracing = try tracing
        configuration.handlesSignals = true
        // Past the grace period and a margin, nothing holds the process (or its cluster) any longer.
        let shutdownDeadline = configuration.http.shutdownGracePeriod + .seconds(10)
        configuration.onShutdownSignal = { clusterGuard.shutdownBegan(deadline: shutdownDeadline) }
        configuration.operations.executionLimits = executionLimits
        configuration.operations.allowsIntrospection = !noIntrospection
        configuration.operations.hidesSuggestions = noSuggestions
        configuration.operations.incrementalDelivery = !noIncrementalDelivery
        // Before anything else: a port another server has is an error, not a share of its clients.
        let portClaim: PortClaim?
        do {
            portClaim = port == 0 ? nil : try PortClaim(host: host, port: port)
        } catch {
            logger.fatal("cannot serve: \(error)")
            throw ExitCode.failure
        }
        defer { withExtendedLifetime(portClaim) {} }
        // The Playground's completions and docs show the schema, so it goes
        // where introspection goes.
        configuration.playgroundAssets =
            noPlayground || noIntrospection ? nil : PlaygroundAssets.load(codeMirrorDirectory: codemirrorDir)
        if let missing = configuration.playgroundAssets?.missing {
            logger.log(.warning, "\(missing)")
        }
        if let trustedDocuments {
            do {
                let manifest = try TrustedDocuments(manifest: trustedDocuments, onlyTrusted: onlyTrusted)
                configuration.operations.trustedDocuments = manifest
                logger.announce("\(manifest.count) trusted documents\(onlyTrusted ? ", and only those" : "") from \(trustedDocuments)")
            } catch {
                logger.fatal("--trusted-documents: \(error)")
                throw ExitCode(2)
            }
        }
        let directory: SchemaDirectory
        let server: HuddleServer
        do {
            directory = try SchemaDirectory.resolve(schemaDir, mounting: mountedApps)
            server = try HuddleServer(apps: mountedApps, schema: directory, configuration: configuration)
        } catch {
            logger.fatal("the schema cannot be served:\n\(error)")
            throw ExitCode.failure
        }
        let location = try DatabaseLocation.resolveForCommand()
        clusterGuard.guardCluster(of: location)
        defer { location.stopPrivateCluster() }
        if let cluster = location.privateCluster {
            logger.announce("no DATABASE_URL; using the private PostgreSQL in \(cluster.directory)")
        }
        if !noMigrate {
            do {
                let report = try await location.migrate(schema: directory, registering: mountedApps)
                if report.carriedOver {
                    logger.announce("migrations: carried over from one numbering to each app's own; nothing ran again")
                }
                logger.announce(
                    "migrations: \(report.applied.count) applied, \(report.unchanged) already applied",
                    ["applied": .int(report.applied.count), "unchanged": .int(report.unchanged)])
            } catch {
                logger.fatal("\(error)")
                throw ExitCode.failure
            }
        }
        if location.privateCluster != nil {
            // A private database starts with demo data, so the API has something to show.
            do {
                let configuration = location.configuration
                let seeded = try await EventLoop.withOwnThread { loop in
                    let pool = PostgresPool(configuration, on: loop)
                    do {
                        let empty = try await pool.query("SELECT count(*)::int FROM users")[0].decode(Int.self, at: 0) == 0
                        let summary = empty ? try await DemoData.seed(.demo, apps: mountedApps, into: pool) : nil
                        await pool.close()
                        return summary.map { "\($0)" }
                    } catch {
                        await pool.close()
                        throw error
                    }
                }
                if let seeded {
                    logger.announce("seeded demo data (\(seeded)); sign in as demo / \(DemoData.password)")
                }
            } catch {
                logger.fatal("cannot seed the demo data: \(error)")
                throw ExitCode.failure
            }
        }
        var database = location.configuration
        database.acquireTimeout = .milliseconds(Int64(databaseWait * 1000))
        // The port listened on: --port 0 has the first worker pick one.
        let listening: Int
        do {
            listening = try await server.start(on: database)
        } catch {
            logger.fatal("\(error)")
            throw ExitCode.failure
        }
        // Each loop watches SIGTERM and SIGINT itself from here on.
        clusterGuard.serving()
        // A signal that came after the guard's last look but before the
        // loops watched (a start of a few milliseconds, with nothing to
        // migrate or seed) is acted on now, not lost.
        if clusterGuard.startupSignal != nil {
            clusterGuard.shutdownBegan(deadline: shutdownDeadline)
            server.stop()
        }
        logger.announce(
            "listening on http://\(host):\(listening) with \(workers) workers",
            [
                "port": .int(listening), "workers": .int(workers), "version": .string(HuddleVersion.version),
                "commit": .string(HuddleVersion.commit),
            ])
        if let tracing = configuration.tracing {
            logger.announce(
                "traces are exported to \(tracing.endpointForLogs), recording \(tracing.sampler.ratio * 100)% of those that start here",
                ["otlp_endpoint": .string(tracing.endpointForLogs), "sample_ratio": .double(tracing.sampler.ratio)])
        }
        if let transport = configuration.mail?.transport {
            let sent = transport is MailFolder ? "written to \(transport.destination) (no --smtp-url)" : "sent to \(transport.destination)"
            logger.announce("mail is \(sent)")
        }
        let platforms = server.pushRegistration?.platforms.sorted() ?? []
        let pushes = platforms.isEmpty ? "to no device" : "through \(platforms.joined(separator: ", "))"
        let posted = configuration.push?.webhookURL.map { ", and every notice is posted to \($0)" } ?? ""
        let hint = platforms.contains("WEB_PUSH") ? "" : " (Web Push needs --vapid-key FILE outside a checkout)"
        logger.announce("notices are pushed \(pushes)\(posted)\(hint)")
        if platforms.contains("WEB_PUSH"), let subject = configuration.push?.vapid?.subject, subject.contains("localhost") {
            // Apple's push service answers 403 BadJwtToken to such a contact.
            logger.log(
                .warning, "Safari and iOS refuse Web Push from \(subject): set --vapid-subject (or --mail-from) to a real address"
            )
        }
        if let assets = configuration.playgroundAssets, assets.missing == nil {
            logger.announce("the Playground is at http://\(host):\(listening)/playground")
        }
        await server.finished()
    }
}

/// The mounted apps' settings for `--help`: name, default and range.
private let appSettingsHelp = AppSettings.declared(mounting: mountedApps).map { setting in
    "\(setting.name) (\(setting.help); default \(setting.defaultValue), \(setting.range.lowerBound) to \(setting.range.upperBound))"
}.joined(separator: "; ")

/// The items of a comma-separated option, trimmed, empty ones left out.
private func commaSeparated(_ text: String) -> [String] {
    text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
}

/// An integer setting from the environment, if set and a number.
private func environment(_ name: String) -> Int? {
    ProcessInfo.processInfo.environment[name].flatMap { Int($0) }
}
