import Foundation
import GraphQL
import HuddleCore
import HuddlePlayground
import HuddlePostgres
import HuddleRuntime
import HuddleServer
import PostgresTestSupport
import RuntimeTestSupport
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A JSON value from a response, read by path.
package enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    package init(_ value: GraphQLValue) {
        switch value {
        case .null: self = .null
        case .boolean(let value): self = .bool(value)
        case .int(let value): self = .number(Double(value))
        case .float(let value): self = .number(value)
        case .string(let value), .enum(let value): self = .string(value)
        case .list(let items): self = .array(items.map(JSON.init))
        case .object(let members): self = .object(Dictionary(members.map { ($0.name, JSON($0.value)) }, uniquingKeysWith: { $1 }))
        }
    }

    package subscript(key: String) -> JSON {
        if case .object(let members) = self { return members[key] ?? .null }
        return .null
    }

    package subscript(index: Int) -> JSON {
        if case .array(let items) = self, items.indices.contains(index) { return items[index] }
        return .null
    }

    package var string: String? { if case .string(let value) = self { value } else { nil } }
    package var int: Int? { if case .number(let value) = self { Int(value) } else { nil } }
    package var double: Double? { if case .number(let value) = self { value } else { nil } }
    package var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    package var array: [JSON] { if case .array(let items) = self { items } else { [] } }
    package var isNull: Bool { self == .null }

    /// The `extensions.code` of the first error.
    package var errorCode: String? { self["errors"][0]["extensions"]["code"].string }
    package var errorMessage: String? { self["errors"][0]["message"].string }
}

/// A server on a scratch database of its own, spoken to over HTTP by
/// URLSession: a `HuddleServer` in the test's process (`start`, `with`), or
/// the `huddle serve` binary as users run it (`launch`), for what only a
/// process shows (signals, SIGKILL, its resident memory, its options).
package final class TestServer: Sendable {
    private enum Running: Sendable {
        case inProcess(HuddleServer)
        case process(Subprocess)
        /// Run by something else (a balancer in front of servers).
        case attached
    }

    package let port: Int
    package let databaseURL: String
    private let running: Running

    private init(port: Int, databaseURL: String, running: Running) {
        self.port = port
        self.databaseURL = databaseURL
        self.running = running
    }

    /// Runs `body` with a server on a fresh database, stopped after; it
    /// serves the shared core and `apps`.
    /// `statementTimeout` is the server's (its default); a test that holds
    /// the server's statements waiting on its own locks while it does slow
    /// work gives nil.
    package static func with<T: Sendable>(
        mounting apps: [any App.Type] = [], workers: Int = 1, statementTimeout: Duration? = .seconds(30),
        _ configure: @Sendable (inout HuddleServer.Configuration) -> Void = { _ in }, _ body: (TestServer) async throws -> T
    ) async throws -> T {
        try await TestDatabase.withScratchDatabase { url in
            let server = try await start(
                databaseURL: url, mounting: apps, workers: workers, statementTimeout: statementTimeout, configure)
            do {
                let value = try await body(server)
                await server.stopped()
                return value
            } catch {
                await server.stopped()
                throw error
            }
        }
    }

    /// Runs `body` with two servers on one fresh database, as a deployment
    /// of several processes runs them, both stopped after.
    package static func withTwo<T: Sendable>(
        mounting apps: [any App.Type] = [], _ configure: @Sendable (inout HuddleServer.Configuration) -> Void = { _ in },
        _ body: (TestServer, TestServer) async throws -> T
    ) async throws -> T {
        try await TestDatabase.withScratchDatabase { url in
            let first = try await start(databaseURL: url, mounting: apps, configure)
            let second: TestServer
            do {
                second = try await start(databaseURL: url, mounting: apps, configure)
            } catch {
                await first.stopped()
                throw error
            }
            do {
                let value = try await body(first, second)
                await first.stopped()
                await second.stopped()
                return value
            } catch {
                await first.stopped()
                await second.stopped()
                throw error
            }
        }
    }

    /// The server as `huddle serve` would run it (the database migrated),
    /// serving the shared core and `apps`, in this process on a port of its
    /// own; `settings` are the core's and the apps' (`name=value`, as `--set`
    /// takes them); `databaseWait` is how long a request waits for a
    /// connection (`--database-wait`).
    package static func start(
        databaseURL: String, mounting apps: [any App.Type] = [], workers: Int = 1, settings: [String] = [],
        databaseWait: Duration = .seconds(60), statementTimeout: Duration? = .seconds(30),
        _ configure: @Sendable (inout HuddleServer.Configuration) -> Void = { _ in }
    ) async throws -> TestServer {
        let schema = TestSchema.directory(mounting: apps)
        var database = PostgresConfiguration(url: databaseURL)
        database.statementTimeout = statementTimeout
        // With every suite at once on two cores, a connection can take
        // seconds to open: a minute by default, where `huddle serve` waits
        // 2 s; the tests of an outage give that.
        database.acquireTimeout = databaseWait
        // The tests that count a request's statements read /metrics, where
        // the check of a connection idle for 30 s (`SELECT 1`, which a busy
        // machine's slow set-up leaves connections idle long enough for)
        // would count as the request's; the check is tested on the pool.
        database.healthCheckAfterIdle = .seconds(3_600)
        _ = try await DatabaseLocation(configuration: database).migrate(schema: schema, registering: apps)
        var configuration = HuddleServer.Configuration()
        configuration.http.port = 0
        configuration.http.logger = Logger(level: .warning)
        // On a busy machine many requests pass a second; the lines of slow
        // requests are tested where they are asked for (RequestLogTests).
        configuration.http.slowRequestThreshold = nil
        // A token learned once stays for the test (60 s by default): a suite
        // slowed by the rest would otherwise ask again midway, and a test
        // counting statements count one more. Tests of the cache set their own.
        configuration.tokenCacheLifetime = .seconds(3600)
        configuration.workers = workers
        configuration.appSettings = try AppSettings(AppSettings.declared(mounting: apps), environment: [:], assignments: settings)
        // A minute's budget rather than the default 5 s: with every suite at
        // once on a 2-core machine, a signUp's password hash can wait that
        // long for a core. The budget itself is tested in the engine
        // (ExecutionTimeBudgetTests); `configure` comes after and wins.
        configuration.operations.executionLimits.maxExecutionTime = .seconds(60)
        // The Playground, as `huddle serve` serves it unless told not to.
        configuration.playgroundAssets = PlaygroundAssets.load(codeMirrorDirectory: PlaygroundAssets.defaultCodeMirrorDirectory)
        configure(&configuration)
        let server = try HuddleServer(apps: apps, schema: schema, configuration: configuration)
        let port = try await server.start(on: database)
        return TestServer(port: port, databaseURL: databaseURL, running: .inProcess(server))
    }

    /// `huddle serve` run as a process on a free port. Another test's
    /// server may take the same port between the look and the bind; the
    /// server then exits (it never shares a port with another process), and
    /// this tries again.
    package static func launch(databaseURL: String, workers: Int = 1, arguments: [String] = []) async throws -> TestServer {
        for _ in 0..<5 {
            if let server = try await launch(
                port: freePort(), databaseURL: databaseURL, workers: workers, arguments: arguments)
            {
                return server
            }
        }
        throw PostgresError(.connection, "huddle serve found no free port in 5 tries")
    }

    /// The server on `port` once ready; nil when it exited before (its port was taken).
    private static func launch(port: Int, databaseURL: String, workers: Int, arguments: [String]) async throws -> TestServer? {
        let process = Subprocess()
        process.executableURL = HuddleCommand.executable
        // The minute's budget `start` gives, for the same reason.
        process.arguments =
            ["serve", "--port", "\(port)", "--workers", "\(workers)", "--log-level", "warning", "--max-execution-time", "60"]
            + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["DATABASE_URL": databaseURL]) { $1 }
        // What the server says goes to a file (a pipe left unread could
        // fill and stop it): its "listening on" line tells that the port
        // is this server's, not another test's that took it meanwhile.
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("huddle-test-server-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        let server = TestServer(port: port, databaseURL: databaseURL, running: .process(process))
        func said() -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        // Migrating a fresh database takes a while when every suite runs at once: wait as long as it runs.
        let deadline = ContinuousClock.now + .seconds(300)
        while ContinuousClock.now < deadline {
            if said().contains("listening on http://"), (try? await server.get("/readyz")) == "ready\n" { return server }
            guard process.isRunning else {
                if said().contains("cannot serve:") { return nil }
                throw PostgresError(.connection, "huddle serve exited: \(said())")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        server.stop()
        throw PostgresError(.connection, "huddle serve did not become ready: \(said())")
    }

    /// A server reached on `port` but run by something else (a balancer in
    /// front of servers), spoken to the same way; once it answers /healthz.
    package static func attach(port: Int, databaseURL: String) async throws -> TestServer {
        let server = TestServer(port: port, databaseURL: databaseURL, running: .attached)
        for _ in 0..<200 {
            if (try? await server.get("/healthz")) == "ok\n" { return server }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw PostgresError(.connection, "nothing answers /healthz on port \(port)")
    }

    /// Stops the server as SIGTERM does, and waits until it has.
    package func stopped() async {
        switch running {
        case .inProcess(let server):
            server.stop()
            await server.finished()
        case .process:
            try? await offThePool { [self] in stop() }
        case .attached:
            break
        }
    }

    /// `stopped`, for a `defer`, which cannot await: it blocks the calling
    /// thread, one of the few every test's tasks share, for the drain (up
    /// to the grace period). The waiting itself runs on a loop of its own,
    /// so that it needs none of those threads (all of them blocked here at
    /// once would leave it none).
    package func stop() {
        switch running {
        case .inProcess(let server):
            let loop = EventLoop()
            let done = DispatchSemaphore(value: 0)
            Thread { loop.run() }.start()
            Task(executorPreference: loop) {
                server.stop()
                await server.finished()
                loop.stop()
                done.signal()
            }
            done.wait()
        case .process(let process):
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
        case .attached:
            break
        }
    }

    /// The launched process (`launch`).
    private var process: Subprocess {
        guard case .process(let process) = running else { fatalError("only a launched server is a process of its own") }
        return process
    }

    /// Kills the process with SIGKILL: no draining, no rollback it could do itself.
    package func kill() {
        process.killAndWait()
    }

    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 64
        configuration.timeoutIntervalForRequest = 30
        return URLSession(configuration: configuration)
    }()

    package func get(_ path: String) async throws -> String {
        let (data, _) = try await Self.session.data(from: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        return String(decoding: data, as: UTF8.self)
    }

    /// POSTs an operation; returns the response body as JSON.
    package func graphql(
        _ query: String, _ variables: [String: any Sendable] = [:], token: String? = nil, headers: [String: String] = [:]
    ) async throws -> JSON {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/graphql")!)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/graphql-response+json", forHTTPHeaderField: "Accept")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        request.httpBody = try JSONSerialization.data(withJSONObject: ["query": query, "variables": variables] as [String: Any])
        let (data, _) = try await Self.session.data(for: request)
        return JSON(try JSONReader().read(String(decoding: data, as: UTF8.self)))
    }

    /// POSTs a request body as it is; the response body as JSON.
    package func post(body: String) async throws -> JSON {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/graphql")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/graphql-response+json", forHTTPHeaderField: "Accept")
        request.httpBody = Data(body.utf8)
        let (data, _) = try await Self.session.data(for: request)
        return JSON(try JSONReader().read(String(decoding: data, as: UTF8.self)))
    }

    /// The launched process's resident memory now (VmRSS), in bytes.
    package var residentBytes: Int {
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0) * 1024
    }

    /// A gauge or counter of /metrics, by its full name.
    package func metric(_ name: String) async throws -> Int {
        let line = try await get("/metrics").split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return Int(line?.split(separator: " ").last ?? "") ?? -1
    }

    /// Sends the launched process `signal` (SIGHUP, …).
    package func signal(_ signal: Int32) {
        Foundation.kill(process.processIdentifier, signal)
    }

    /// The statements the server has run so far (from /metrics).
    package func statementCount() async throws -> Int {
        // Read once no statement is running and the count holds still, so
        // that one still finishing from before is not counted as the next
        // request's (a slow machine stretches that tail).
        var last = -1
        for _ in 0..<100 {
            let metrics = try await get("/metrics")
            func value(_ name: String) -> Int {
                let line = metrics.split(separator: "\n").first { $0.hasPrefix(name + " ") }
                return Int(line?.split(separator: " ").last ?? "") ?? -1
            }
            let count = value("huddle_database_statements_total")
            if count == last, value("huddle_database_connections_busy") == 0, value("huddle_database_waiting") == 0 { return count }
            last = count
            try await Task.sleep(for: .milliseconds(20))
        }
        return last
    }

    // MARK: Fixtures

    /// A friend request from the token's user to `id`.
    package static let sendFriendRequest =
        "mutation($id: ID!) { sendFriendRequest(userId: $id) { id from { username } to { username } } }"

    /// Signs up a user through the API; returns the token and global id.
    package func signUp(_ username: String, password: String = "correct horse battery") async throws -> (token: String, id: String) {
        let reply = try await graphql(
            "mutation($u: String!, $e: String!, $p: String!) { signUp(username: $u, email: $e, password: $p) { token user { id } } }",
            ["u": username, "e": "\(username)@example.com", "p": password])
        let token = try #require(reply["data"]["signUp"]["token"].string, "\(reply)")
        return (token, reply["data"]["signUp"]["user"]["id"].string!)
    }

    /// Many users at once, written straight to the database (the API's
    /// password hashing takes a good part of a second each, by design).
    package func makeUsers(_ count: Int, prefix: String) async throws -> [(token: String, id: String)] {
        try await EventLoop.withOwnThread { [databaseURL] loop in
            let pool = PostgresPool(TestDatabase.configuration(url: databaseURL), on: loop)
            var users: [(String, String)] = []
            for index in 0..<count {
                let id = try await pool.query(
                    "INSERT INTO users (username, email, password_hash) VALUES ($1, $2, 'none') RETURNING id",
                    ["\(prefix)\(index)", "\(prefix)\(index)@example.com"])[0].decode(Int64.self, at: 0)
                let token = "token-\(prefix)-\(index)-\(UUID().uuidString)"
                _ = try await pool.query(
                    "INSERT INTO auth_tokens (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 day')",
                    [Digest.sha256Hex(Array(token.utf8)), id])
                users.append((token, Base64URL.encode("User:\(id)")))
            }
            await pool.close()
            return users
        }
    }

    /// Runs `body` while a transaction of the test's holds the locks
    /// `statement` takes (as the server's own work would hold them), then
    /// commits: for forcing the order in which racing work meets.
    package func holdingLock<T: Sendable>(
        _ statement: String, _ parameters: [any PostgresEncodable] = [], _ body: @Sendable () async throws -> T
    ) async throws -> T {
        try await EventLoop.withOwnThread { [databaseURL] loop in
            let pool = PostgresPool(TestDatabase.configuration(url: databaseURL), on: loop)
            do {
                let result = try await pool.withTransaction { connection in
                    _ = try await connection.query(statement, parameters)
                    return try await body()
                }
                await pool.close()
                return result
            } catch {
                await pool.close()
                throw error
            }
        }
    }

    /// Waits until `count` statements on the server's database wait for a
    /// lock (as seen by PostgreSQL); fails the test after 60 s.
    package func waitForLockWaiters(_ count: Int) async throws {
        for _ in 0..<1200 {
            let waiting = try await sql(
                "SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")
            if try waiting[0].decode(Int.self, at: 0) >= count { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("fewer than \(count) statements came to wait for a lock")
        throw CancellationError()
    }

    /// The plan the server's database runs `sql` with, as the server runs
    /// it (`PostgresConnection.genericPlan(of:arguments:analyze:)`).
    package func genericPlan(of sql: String, arguments: String, analyze: Bool = false) async throws -> String {
        try await TestDatabase.withPool(url: databaseURL) { pool, _ in
            try await pool.withTransaction { try await $0.genericPlan(of: sql, arguments: arguments, analyze: analyze) }
        }
    }

    /// Runs SQL on the server's database (for checks the API does not offer).
    package func sql(_ statement: String, _ parameters: [any PostgresEncodable] = []) async throws -> PostgresRows {
        try await EventLoop.withOwnThread { [databaseURL] loop in
            let pool = PostgresPool(TestDatabase.configuration(url: databaseURL), on: loop)
            let rows = try await pool.query(statement, parameters)
            await pool.close()
            return rows
        }
    }
}
