import ArgumentParser
import Foundation
import HuddlePostgres
import HuddleRuntime

extension Bench {
    struct Postgres: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Primary-key lookups through the pool, and three statements pipelined vs one after another.",
            discussion: """
                Needs DATABASE_URL and pgbench's tables (pgbench -i); runs pgbench -S's \
                statement, SELECT abalance FROM pgbench_accounts WHERE aid = $1, with \
                --in-flight lookups outstanding at all times. scripts/bench/postgres runs \
                it next to pgbench -S on the same server.
                """
        )

        @Option(help: "Seconds of lookups.")
        var seconds = 10.0

        @Option(help: "Lookups outstanding at once, over all loops.")
        var inFlight = 8

        @Option(help: "Event loops (threads), each with its own pool.")
        var loops = 1

        @Option(help: "Connections per pool at most.")
        var connections = 8

        @Option(help: "Rounds of the pipelining comparison.")
        var pipelineRounds = 20_000

        func run() async throws {
            guard let url = ProcessInfo.processInfo.environment["DATABASE_URL"] else {
                throw ValidationError("set DATABASE_URL to the database pgbench -i prepared")
            }
            var settings = PostgresConfiguration(url: url)
            settings.maxConnections = connections
            settings.minConnections = 1
            let configuration = settings
            let accounts = try await EventLoop.withOwnThread { loop in
                let pool = PostgresPool(configuration, on: loop)
                let count = try await pool.query("SELECT count(*)::int FROM pgbench_accounts")[0].decode(Int.self, at: 0)
                await pool.close()
                return count
            }
            try await lookups(configuration, accounts: accounts)
            try await pipelining(configuration)
        }

        /// `inFlight` tasks spread over `loops`, each looking up random
        /// accounts until the time is up.
        private func lookups(_ configuration: PostgresConfiguration, accounts: Int) async throws {
            let seconds = seconds, inFlight = inFlight
            let counts = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<loops {
                    let share = inFlight / loops + (index < inFlight % loops ? 1 : 0)
                    group.addTask {
                        try await EventLoop.withOwnThread { loop in
                            let pool = PostgresPool(configuration, on: loop)
                            try await pool.start()
                            let deadline = ContinuousClock.now + .seconds(seconds)
                            let total = try await withThrowingTaskGroup(of: Int.self) { workers in
                                for _ in 0..<share {
                                    workers.addTask(executorPreference: loop) {
                                        var done = 0
                                        var generator = SystemRandomNumberGenerator()
                                        while ContinuousClock.now < deadline {
                                            let aid = Int.random(in: 1...accounts, using: &generator)
                                            let rows = try await pool.query("SELECT abalance FROM pgbench_accounts WHERE aid = $1", [aid])
                                            _ = try rows[0].decode(Int.self, at: 0)
                                            done += 1
                                        }
                                        return done
                                    }
                                }
                                return try await workers.reduce(0, +)
                            }
                            await pool.close()
                            return total
                        }
                    }
                }
                return try await group.reduce(0, +)
            }
            print(String(format: "lookups\t%d in flight\t%d loops\t%.0f per second", inFlight, loops, Double(counts) / seconds))
        }

        /// Three independent statements on one connection: sent together
        /// (one round trip) against awaited one by one (three).
        private func pipelining(_ configuration: PostgresConfiguration) async throws {
            let rounds = pipelineRounds
            let (together, apart) = try await EventLoop.withOwnThread { loop in
                let connection = try await PostgresConnection.connect(configuration, on: loop)
                defer { connection.close() }
                let statements = [
                    "SELECT abalance FROM pgbench_accounts WHERE aid = $1",
                    "SELECT bbalance FROM pgbench_branches WHERE bid = $1",
                    "SELECT tbalance FROM pgbench_tellers WHERE tid = $1",
                ]
                func timeRounds(_ body: () async throws -> Void) async throws -> Double {
                    for _ in 0..<rounds / 10 { try await body() }
                    let start = ContinuousClock.now
                    for _ in 0..<rounds { try await body() }
                    let elapsed = ContinuousClock.now - start
                    return Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12
                }
                let apart = try await timeRounds {
                    for statement in statements { _ = try await connection.query(statement, [1]) }
                }
                let together = try await timeRounds {
                    async let first = connection.query(statements[0], [1])
                    async let second = connection.query(statements[1], [1])
                    async let third = connection.query(statements[2], [1])
                    _ = try await (first, second, third)
                }
                return (together / Double(rounds), apart / Double(rounds))
            }
            print(String(format: "three-statements\tpipelined %.1f µs\tsequential %.1f µs\t%.2fx", together, apart, apart / together))
        }
    }
}
