import Foundation
import HuddlePostgres
import HuddleRuntime
import PostgresTestSupport
import RuntimeTestSupport
import TestSupport
import Testing

/// The pool: waiting, timeouts, transactions and their retries, typed errors.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct PostgresPoolTests {
    @Test func aCallerFindingThePoolExhaustedTimesOut() async throws {
        try await TestDatabase.withPool({
            // Both connections opened up front: on a loaded machine opening
            // the second could itself outlast the short timeout under test.
            $0.minConnections = 2
            $0.maxConnections = 2
            $0.acquireTimeout = .milliseconds(300)
        }) { pool, loop async throws in
            try await loop.onLoop { () async throws in
                await loop.poll { pool.statistics.open == 2 }
                let release = Gate()
                let holders = (0..<2).map { _ in
                    Task(executorPreference: loop) {
                        try await pool.withConnection { connection in
                            _ = try await connection.query("SELECT 1")
                            await release.wait()
                        }
                    }
                }
                await loop.poll { pool.statistics.busy == 2 }
                #expect(pool.statistics.open == 2)
                #expect(pool.statistics.busy == 2)
                // Both connections are held: the next caller waits, then times out.
                let started = ContinuousClock.now
                await #expect {
                    try await pool.withConnection { _ in }
                } throws: { ($0 as? PostgresError)?.kind == .poolTimeout }
                #expect(ContinuousClock.now - started >= .milliseconds(290))
                // A statement outside a transaction waits the same way.
                await #expect {
                    try await pool.query("SELECT 1")
                } throws: { ($0 as? PostgresError)?.kind == .poolTimeout }
                #expect(pool.statistics.waiting == 0)
                release.open()
                for holder in holders { try await holder.value }
            }
        }
    }

    @Test func waitersAreServedInTheOrderTheyCame() async throws {
        // A long timeout: this test is about order, and a slow machine must not turn it into one about time.
        try await TestDatabase.withPool({
            $0.maxConnections = 2
            $0.acquireTimeout = .seconds(30)
        }) { pool, loop async throws in
            try await loop.onLoop { () async throws in
                let release = Gate()
                let holders = (0..<2).map { _ in
                    Task(executorPreference: loop) {
                        try await pool.withConnection { _ in await release.wait() }
                    }
                }
                await loop.poll { pool.statistics.busy == 2 }
                let order = Log()
                var waiters: [Task<Void, any Error>] = []
                for index in 0..<4 {
                    // One at a time, so that the order they queue in is the order they were made in.
                    waiters.append(
                        Task(executorPreference: loop) {
                            try await pool.withConnection { _ in order.append("\(index)") }
                        })
                    await loop.poll { pool.statistics.waiting == index + 1 }
                }
                #expect(pool.statistics.waiting == 4)
                release.open()
                for holder in holders { try await holder.value }
                for waiter in waiters { try await waiter.value }
                #expect(order.all == ["0", "1", "2", "3"])
                #expect(pool.statistics.waiting == 0)
            }
        }
    }

    @Test func aCancelledCallerStopsWaitingAtOnce() async throws {
        try await TestDatabase.withPool({
            $0.maxConnections = 1
            $0.acquireTimeout = .seconds(30)
        }) { pool, loop async throws in
            try await loop.onLoop { () async throws in
                let release = Gate()
                let holder = Task(executorPreference: loop) {
                    try await pool.withConnection { _ in await release.wait() }
                }
                await loop.poll { pool.statistics.busy == 1 }
                let waiter = Task(executorPreference: loop) { try await pool.withConnection { _ in } }
                await loop.poll { pool.statistics.waiting == 1 }
                #expect(pool.statistics.waiting == 1)
                waiter.cancel()
                await #expect {
                    try await waiter.value
                } throws: { ($0 as? PostgresError)?.kind == .cancelled }
                #expect(pool.statistics.waiting == 0)
                release.open()
                try await holder.value
                // The pool serves the next caller as before.
                _ = try await pool.query("SELECT 1")
            }
        }
    }

    @Test func theStatementTimeoutCancelsALongStatement() async throws {
        try await TestDatabase.withPool({ $0.statementTimeout = .milliseconds(100) }) { pool, _ async throws in
            await #expect {
                try await pool.query("SELECT pg_sleep(5)")
            } throws: { ($0 as? PostgresError)?.kind == .queryCanceled }
            // The connection stays usable.
            #expect(try await pool.query("SELECT 7")[0].decode(Int.self, at: 0) == 7)
        }
    }

    @Test func sessionsRunWithoutJITUnlessAllowed() async throws {
        try await TestDatabase.withPool({ _ in }) { pool, _ async throws in
            #expect(try await pool.query("SHOW jit")[0].decode(String.self, at: 0) == "off")
        }
        try await TestDatabase.withPool({ $0.allowsJIT = true }) { pool, _ async throws in
            // Left to the server's configuration: nothing the session sent.
            let source = try await pool.query("SELECT source FROM pg_settings WHERE name = 'jit'")[0].decode(String.self, at: 0)
            #expect(source != "client")
        }
    }

    @Test func sessionsPlanWithTheServersRandomPageCost() async throws {
        try await TestDatabase.withPool({ _ in }) { pool, _ async throws in
            let row = try await pool.query("SELECT setting, source FROM pg_settings WHERE name = 'random_page_cost'")[0]
            // Sent by the session, not only set on the test database by its migrations.
            #expect(try row.decode(String.self, at: 0) == "1.1")
            #expect(try row.decode(String.self, at: 1) == "client")
        }
        try await TestDatabase.withPool({ $0.randomPageCost = nil }) { pool, _ async throws in
            let source = try await pool.query("SELECT source FROM pg_settings WHERE name = 'random_page_cost'")[0]
            #expect(try source.decode(String.self, at: 0) != "client")
        }
    }

    @Test func theOptionsOfTheURLAreKeptAndWin() async throws {
        let base = try #require(TestDatabase.url)
        let url =
            base.contains("://")
            ? base + (base.contains("?") ? "&" : "?")
                + "options=-c%20work_mem%3D7MB%20-c%20jit%3Don%20-c%20DateStyle%3DGerman&application_name=mine"
            : base + " options='-c work_mem=7MB -c jit=on -c DateStyle=German' application_name=mine"
        try await TestDatabase.withPool(url: url) { pool, _ async throws in
            func show(_ setting: String) async throws -> String {
                try await pool.query("SHOW \(setting)")[0].decode(String.self, at: 0)
            }
            #expect(try await show("work_mem") == "7MB")
            #expect(try await show("jit") == "on")
            #expect(try await show("application_name") == "mine")
            // The server's own options are still sent, and the formats its
            // decoder reads are not the operator's to change.
            #expect(try await show("plan_cache_mode") == "force_generic_plan")
            #expect(try await show("DateStyle").hasPrefix("ISO"))
            let instant = try await pool.query("SELECT timestamptz '2026-11-28 10:00:00+00'")[0].decode(String.self, at: 0)
            #expect(instant.hasPrefix("2026-11-28"), "\(instant)")
        }
        try await TestDatabase.withPool { pool, _ async throws in
            #expect(try await pool.query("SHOW application_name")[0].decode(String.self, at: 0) == "huddle")
        }
        #expect(PostgresConfiguration.options(in: "host=/tmp options='-c search_path=app'") == "-c search_path=app")
        #expect(PostgresConfiguration.options(in: "postgresql://db.example/app") == nil)
        #expect(PostgresConfiguration.options(in: "postgresql://[broken") == nil)
    }

    @Test func transactionsCommitOrRollBack() async throws {
        try await TestDatabase.withPool({ $0.maxConnections = 1 }) { pool, _ async throws in
            try await pool.withConnection { connection in
                _ = try await connection.query("CREATE TEMP TABLE IF NOT EXISTS ledger (amount int NOT NULL)")
            }
            struct Refused: Error {}
            await #expect(throws: Refused.self) {
                try await pool.withTransaction { connection in
                    _ = try await connection.query("INSERT INTO ledger VALUES ($1)", [10])
                    throw Refused()
                }
            }
            try await pool.withTransaction { connection in
                _ = try await connection.query("INSERT INTO ledger VALUES ($1), ($2)", [1, 2])
            }
            // One connection, so the temporary table is the same one.
            let total = try await pool.query("SELECT coalesce(sum(amount), 0)::int FROM ledger")[0].decode(Int.self, at: 0)
            #expect(total == 3)
        }
    }

    /// Two serializable transactions that each read both rows and take one
    /// person off call: the second to commit fails with 40001, runs again,
    /// sees one person left, and leaves them on call.
    @Test func serializationFailuresAreRetried() async throws {
        try await TestDatabase.withScratchDatabase { url in
            try await TestDatabase.withPool(url: url, { $0.maxConnections = 2 }) { pool, loop in
                _ = try await pool.query("CREATE TABLE on_call (name text PRIMARY KEY, on_call bool NOT NULL)")
                _ = try await pool.query("INSERT INTO on_call VALUES ('ana', true), ('bo', true)")
                let (attempts, remaining) = try await loop.onLoop { () async throws in
                    let bothRead = (Gate(), Gate())
                    let firstCommitted = Gate()
                    final class Attempts: @unchecked Sendable { var count = ["ana": 0, "bo": 0] }
                    let attempts = Attempts()
                    @Sendable func goOffCall(_ name: String, readGate: Gate, otherRead: Gate, waitFor: Gate?) async throws {
                        try await pool.withTransaction(isolation: .serializable) { connection in
                            attempts.count[name]! += 1
                            let onCall = try await connection.query("SELECT count(*)::int FROM on_call WHERE on_call")[0].decode(
                                Int.self, at: 0)
                            if attempts.count[name] == 1 {
                                readGate.open()
                                await otherRead.wait()
                                if let waitFor { await waitFor.wait() }
                            }
                            if onCall >= 2 {
                                _ = try await connection.query("UPDATE on_call SET on_call = false WHERE name = $1", [name])
                            }
                        }
                    }
                    let ana = Task(executorPreference: loop) {
                        try await goOffCall("ana", readGate: bothRead.0, otherRead: bothRead.1, waitFor: nil)
                        firstCommitted.open()
                    }
                    let bo = Task(executorPreference: loop) {
                        try await goOffCall("bo", readGate: bothRead.1, otherRead: bothRead.0, waitFor: firstCommitted)
                    }
                    try await ana.value
                    try await bo.value
                    let remaining = try await pool.query("SELECT name FROM on_call WHERE on_call ORDER BY name").map {
                        try $0.decode(String.self, at: 0)
                    }
                    return (attempts.count, remaining)
                }
                #expect(attempts == ["ana": 1, "bo": 2])
                #expect(remaining == ["bo"])
            }
        }
    }

    /// Two transactions that lock two rows in opposite orders: PostgreSQL
    /// picks one as the deadlock victim (40P01), which runs again and commits.
    @Test func deadlockVictimsAreRetried() async throws {
        try await TestDatabase.withScratchDatabase { url in
            try await TestDatabase.withPool(url: url, { $0.maxConnections = 2 }) { pool, loop in
                _ = try await pool.query("CREATE TABLE account (id int PRIMARY KEY, balance int NOT NULL)")
                _ = try await pool.query("INSERT INTO account VALUES (1, 100), (2, 100)")
                // Deadlocks are detected after deadlock_timeout (1 s by default); shorten it for the victim's session.
                let attempts = try await loop.onLoop { () async throws in
                    final class Attempts: @unchecked Sendable { var count = 0 }
                    let attempts = Attempts()
                    let bothLocked = (Gate(), Gate())
                    @Sendable func transfer(from: Int, to: Int, locked: Gate, other: Gate) async throws {
                        let mine = Attempts()
                        try await pool.withTransaction { connection in
                            attempts.count += 1
                            mine.count += 1
                            _ = try await connection.query("SET LOCAL deadlock_timeout = '100ms'")
                            // Run again, it takes both rows in one order: when both were
                            // victims, their second runs cannot deadlock again (on a busy
                            // machine they did, until the retries ran out).
                            if mine.count > 1 { _ = try await connection.query("SELECT 1 FROM account ORDER BY id FOR UPDATE") }
                            _ = try await connection.query("UPDATE account SET balance = balance - 10 WHERE id = $1", [from])
                            locked.open()
                            await other.wait()
                            _ = try await connection.query("UPDATE account SET balance = balance + 10 WHERE id = $1", [to])
                        }
                    }
                    let first = Task(executorPreference: loop) {
                        try await transfer(from: 1, to: 2, locked: bothLocked.0, other: bothLocked.1)
                    }
                    let second = Task(executorPreference: loop) {
                        try await transfer(from: 2, to: 1, locked: bothLocked.1, other: bothLocked.0)
                    }
                    try await first.value
                    try await second.value
                    return attempts.count
                }
                // Both committed, after at least one ran again. (Both may be
                // chosen as victims when their detectors fire at the same moment.)
                #expect(attempts >= 3)
                let balances = try await pool.query("SELECT balance FROM account ORDER BY id").map { try $0.decode(Int.self, at: 0) }
                #expect(balances == [100, 100])
            }
        }
    }

    @Test func constraintViolationsAreTyped() async throws {
        try await TestDatabase.withPool { pool, _ async throws in
            try await pool.withConnection { connection in
                _ = try await connection.query(
                    """
                    CREATE TEMP TABLE item (
                        id int PRIMARY KEY, parent int REFERENCES item (id),
                        quantity int CHECK (quantity > 0), label text NOT NULL)
                    """)
                _ = try await connection.query("INSERT INTO item VALUES (1, NULL, 1, 'a')")
                func kind(_ sql: String) async -> (PostgresError.Kind?, String?) {
                    do {
                        _ = try await connection.query(sql)
                        return (nil, nil)
                    } catch {
                        return ((error as? PostgresError)?.kind, (error as? PostgresError)?.constraint)
                    }
                }
                #expect(await kind("INSERT INTO item VALUES (1, NULL, 1, 'b')") == (.uniqueViolation, "item_pkey"))
                #expect(await kind("INSERT INTO item VALUES (2, 99, 1, 'b')") == (.foreignKeyViolation, "item_parent_fkey"))
                #expect(await kind("INSERT INTO item VALUES (3, NULL, 0, 'b')") == (.checkViolation, "item_quantity_check"))
                #expect(await kind("INSERT INTO item VALUES (4, NULL, 1, NULL)").0 == .notNullViolation)
                #expect(await kind("SELECT * FROM no_such_table").0 == .server)
            }
        }
    }

    @Test func closingThePoolEndsAConnectionStillOpeningAndItsLoopStops() async throws {
        // A server that takes the connection and never answers: libpq's
        // first message waits for a reply for as long as it is let.
        let (listening, port) = boundSocket()
        defer { close(listening) }
        #expect(listen(listening, 8) == 0)
        let heard = Log()
        Thread {
            let accepted = accept(listening, nil, nil)
            guard accepted >= 0 else { return }
            var byte: UInt8 = 0
            if read(accepted, &byte, 1) == 1 { heard.append("first byte") }
            // Left open (and unanswered) until the test's process ends.
        }.start()
        var configuration = PostgresConfiguration(url: "postgresql://huddle@127.0.0.1:\(port)/huddle?sslmode=disable")
        configuration.connectTimeout = .seconds(3600)
        configuration.acquireTimeout = .seconds(3600)
        let loopLog = Log()
        let running = RunningLoop(logger: Logger(sink: { loopLog.append($0) }))
        let pool = PostgresPool(configuration, on: running.loop)
        let query = Task { try await pool.query("SELECT 1") }
        let deadline = ContinuousClock.now + .seconds(60)
        while heard.all.isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(heard.all == ["first byte"])
        await pool.close()
        await #expect { try await query.value } throws: { ($0 as? PostgresError)?.kind == .poolClosed }
        // Its socket watched no longer, nothing keeps the loop from stopping
        // (not even until the loop's drain limit, which would log what did).
        #expect(await running.stop(within: .seconds(60)))
        #expect(loopLog.all == [])
    }

    @Test func closingThePoolEndsItsWaitToReconnect() async throws {
        // Nothing listens there: each opening fails at once, and the next waits out the backoff.
        var configuration = PostgresConfiguration(url: "postgresql://huddle@127.0.0.1:\(freePort())/huddle?sslmode=disable")
        configuration.reconnectBackoff = (.seconds(3600), .seconds(3600))
        configuration.acquireTimeout = .seconds(3600)
        let loopLog = Log()
        let running = RunningLoop(logger: Logger(sink: { loopLog.append($0) }))
        let pool = PostgresPool(configuration, on: running.loop)
        let query = Task { try await pool.query("SELECT 1") }
        // Once the first opening has failed, the next waits out the backoff.
        let failed = await running.loop.onLoop { () async -> Int in
            await running.loop.poll(for: .seconds(60)) { pool.statistics.failedOpenings == 1 }
            return pool.statistics.failedOpenings
        }
        #expect(failed == 1)
        await pool.close()
        await #expect { try await query.value } throws: { ($0 as? PostgresError)?.kind == .poolClosed }
        #expect(await running.stop(within: .seconds(60)))
        #expect(loopLog.all == [])
    }

    @Test func aConnectionIdleTooLongIsCheckedAndADeadOneReplaced() async throws {
        try await TestDatabase.withPool({
            $0.maxConnections = 1
            // Long enough that a loaded machine (the suites run in parallel)
            // does not let "a moment ago" below pass for idle.
            $0.healthCheckAfterIdle = .seconds(3)
        }) { pool, loop async throws in
            let backend = try await pool.query("SELECT pg_backend_pid()")[0].decode(Int.self, at: 0)
            let before = await loop.onLoop { pool.statistics.healthChecks }
            try await Task.sleep(for: .milliseconds(3200))
            // Back to back on the loop, so no hop between threads stretches "a moment".
            let (afterIdle, afterMoment) = try await loop.onLoop { () async throws in
                _ = try await pool.query("SELECT 1")
                let afterIdle = pool.statistics.healthChecks
                // Used a moment ago: no check.
                _ = try await pool.query("SELECT 1")
                return (afterIdle, pool.statistics.healthChecks)
            }
            #expect(afterIdle == before + 1)
            #expect(afterMoment == afterIdle)

            // The server ends the connection while it is idle: the pool
            // notices, opens another, and the next statement goes through.
            try await TestDatabase.withPool { other, _ async throws in
                _ = try await other.query("SELECT pg_terminate_backend($1)", [backend])
            }
            try await Task.sleep(for: .milliseconds(100))
            let replacement = try await pool.query("SELECT pg_backend_pid()")[0].decode(Int.self, at: 0)
            #expect(replacement != backend)
        }
    }
}

extension EventLoop {
    /// Sleeps on the loop until `condition` holds, for at most `limit`; the caller's expectations say whether it did.
    func poll(for limit: Duration = .seconds(10), until condition: () -> Bool) async {
        let deadline = ContinuousClock.now + limit
        while !condition(), ContinuousClock.now < deadline { await sleep(for: .milliseconds(5)) }
    }
}
