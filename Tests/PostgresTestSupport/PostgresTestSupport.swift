import Foundation
import HuddlePostgres
import HuddleRuntime
import RuntimeTestSupport
import TestSupport
import Testing

/// The database the test command started, when there is one.
package enum TestDatabase {
    package static let url = ProcessInfo.processInfo.environment["DATABASE_URL"]
    package static var available: Bool { url != nil }

    /// The test database's configuration, or `url`'s: with every suite at
    /// once on two cores a connection can take seconds to open, so a
    /// test's database work waits up to a minute for one, and a test's own
    /// statements (setting up 100,000 rows, say) run without the server's
    /// statement timeout, which a busy machine can pass (a test of either
    /// timeout sets its own).
    package static func configuration(url: String? = nil) -> PostgresConfiguration {
        var configuration = PostgresConfiguration(url: url ?? Self.url!)
        configuration.acquireTimeout = .seconds(60)
        configuration.statementTimeout = nil
        return configuration
    }

    /// A loop on its own thread, a pool on it (on the test database, or on
    /// `url`), closed and stopped after `body`.
    package static func withPool<T: Sendable>(
        url: String? = nil,
        _ adjust: (inout PostgresConfiguration) -> Void = { _ in },
        _ body: (PostgresPool, EventLoop) async throws -> T
    ) async throws -> T {
        var configuration = configuration(url: url)
        adjust(&configuration)
        let running = RunningLoop()
        let pool = PostgresPool(configuration, on: running.loop)
        do {
            try await pool.start()
            let value = try await body(pool, running.loop)
            await pool.close()
            await running.stop()
            return value
        } catch {
            await pool.close()
            await running.stop()
            throw error
        }
    }

    /// A fresh, empty database (dropped afterwards), for tests that create tables.
    package static func withScratchDatabase<T: Sendable>(_ body: (String) async throws -> T) async throws -> T {
        let name = "huddle_scratch_\(UInt32.random(in: 0...UInt32.max))"
        try await withPool { pool, _ in _ = try await pool.query("CREATE DATABASE \(name)") }
        let url = Self.url!.replacingOccurrences(of: "/huddle_test", with: "/\(name)")
        do {
            let value = try await body(url)
            try await withPool { pool, _ in _ = try await pool.query("DROP DATABASE \(name) WITH (FORCE)") }
            return value
        } catch {
            _ = try? await withPool { pool, _ in _ = try await pool.query("DROP DATABASE \(name) WITH (FORCE)") }
            throw error
        }
    }
}
