import Foundation
import HuddlePostgres
import HuddleRuntime
import Testing

/// The database the test command started, when there is one.
enum TestDatabase {
    static let url = ProcessInfo.processInfo.environment["DATABASE_URL"]
    static var available: Bool { url != nil }

    static func configuration() -> PostgresConfiguration {
        PostgresConfiguration(url: url!)
    }

    /// A loop on its own thread, a pool on it (on the test database, or on
    /// `url`), closed and stopped after `body`.
    static func withPool<T: Sendable>(
        url: String? = nil,
        _ adjust: (inout PostgresConfiguration) -> Void = { _ in },
        _ body: (PostgresPool, EventLoop) async throws -> T
    ) async throws -> T {
        var configuration = url.map { PostgresConfiguration(url: $0) } ?? configuration()
        adjust(&configuration)
        let running = EventLoopTests.RunningLoop()
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
    static func withScratchDatabase<T: Sendable>(_ body: (String) async throws -> T) async throws -> T {
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

/// A one-shot signal between tasks on one loop.
final class Gate: @unchecked Sendable {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func open() {
        isOpen = true
        let waiting = waiters
        waiters = []
        waiting.forEach { $0.resume() }
    }

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }
}
