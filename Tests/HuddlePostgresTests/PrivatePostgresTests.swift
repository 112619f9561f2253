import Foundation
import HuddlePostgres
import HuddleRuntime
import PostgresTestSupport
import RuntimeTestSupport
import TestSupport
import Testing

/// A private cluster of Huddle's own, restarted under load: the pool and the
/// listener recover. (Its own server, so restarting it disturbs no other test.)
@Suite(.serialized, .hangGuard)
struct PrivatePostgresTests {
    /// As root, the cluster runs as `postgres`; a folder above it that
    /// `postgres` cannot enter is reported with what to change, before
    /// initdb fails somewhere inside it.
    @Test(.enabled(if: getuid() == 0 && getpwnam("postgres") != nil))
    func aFolderThePostgresUserCannotEnterIsReportedWithTheFix() throws {
        let scratch = try ScratchDirectory("locked")
        let locked = scratch.url.appendingPathComponent("root-only")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        #expect {
            try PrivatePostgres(directory: locked.appendingPathComponent("app/.huddle/postgres").path)
        } throws: { error in
            "\(error)".contains("cannot enter \(locked.path)") && "\(error)".contains("chmod o+x \(locked.path)")
                && "\(error)".contains("DATABASE_URL")
        }
        #expect(!FileManager.default.fileExists(atPath: locked.appendingPathComponent("app").path))
    }

    /// The last process using a cluster stops it, whoever started it: a
    /// starter killed with SIGKILL (its lock let go by the kernel, as
    /// releasing it here does) leaves it to the process that adopted it.
    @Test func theLastUserStopsTheClusterEvenIfItDidNotStartIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("huddle-private-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var starter: PrivatePostgres? = try PrivatePostgres(directory: directory)
        #expect(starter?.startedHere == true)
        let adopter = try PrivatePostgres(directory: directory)
        #expect(!adopter.startedHere)
        // While the starter uses it, the adopter leaves it running.
        #expect(try adopter.stopIfUnused() == false)
        #expect(FileManager.default.fileExists(atPath: directory + "/data/postmaster.pid"))
        starter = nil
        #expect(try adopter.stopIfUnused() == true)
        #expect(!FileManager.default.fileExists(atPath: directory + "/data/postmaster.pid"))
    }

    @Test func aPrivateClusterIsSetUpOnceAndSurvivesRestarts() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("huddle-private-\(UUID().uuidString.prefix(8))").path
        let cluster = try PrivatePostgres(directory: directory)
        defer {
            try? cluster.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
        #expect(cluster.startedHere)
        #expect(FileManager.default.fileExists(atPath: directory + "/data/PG_VERSION"))
        // A second process finds it running and leaves it to its starter.
        let again = try PrivatePostgres(directory: directory)
        #expect(!again.startedHere)
        #expect(again.url == cluster.url)

        let running = RunningLoop()
        var configuration = PostgresConfiguration(url: cluster.url)
        configuration.maxConnections = 4
        configuration.acquireTimeout = .seconds(20)
        configuration.reconnectBackoff = (.milliseconds(20), .milliseconds(200))
        let pool = PostgresPool(configuration, on: running.loop)
        try await pool.start()
        let listener = PostgresListener(configuration, on: running.loop)
        try await listener.start()
        var events = try await listener.events(on: "invitations").makeAsyncIterator()

        // NOTIFY reaches the listener.
        try await PostgresListener.notify("invitations", payload: "42", through: pool)
        let first = await events.next()
        guard case .notification(let notification) = first else {
            Issue.record("got \(String(describing: first))")
            return
        }
        #expect(notification.channel == "invitations")
        #expect(notification.payload == "42")

        // A steady load of statements while the server restarts.
        final class Tally: @unchecked Sendable {
            var succeeded = 0
            var failures: [PostgresError.Kind] = []
            var stop = false
        }
        let tally = Tally()
        let load = (0..<8).map { worker in
            Task(executorPreference: running.loop) {
                var counter = 0
                while !tally.stop {
                    counter += 1
                    do {
                        let value = try await pool.query("SELECT $1::int * 2", [counter])[0].decode(Int.self, at: 0)
                        if value == counter * 2 { tally.succeeded += 1 }
                    } catch let error as PostgresError {
                        tally.failures.append(error.kind)
                        await running.loop.sleep(for: .milliseconds(5))
                    } catch {
                        Issue.record("worker \(worker): \(error)")
                    }
                }
            }
        }
        try await Task.sleep(for: .milliseconds(200))
        let before = await running.loop.onLoop { tally.succeeded }
        #expect(before > 0)
        try cluster.stop()
        try await Task.sleep(for: .milliseconds(300))
        try cluster.start()
        try await Task.sleep(for: .milliseconds(1500))
        let recovered = await running.loop.onLoop { tally.succeeded }
        await running.loop.onLoop { tally.stop = true }
        for task in load { await task.value }
        // Statements in flight when it went down failed as connection errors
        // (nothing else), and statements went through again once it was back.
        let failures = await running.loop.onLoop { tally.failures }
        #expect(failures.allSatisfy { $0 == .connection })
        #expect(recovered > before)
        for value in 1...20 {
            #expect(try await pool.query("SELECT $1::int", [value])[0].decode(Int.self, at: 0) == value)
        }

        // The listener says it reconnected (so subscribers can catch up),
        // and hears notifications again.
        let afterRestart = await events.next()
        #expect(afterRestart == .reconnected)
        try await PostgresListener.notify("invitations", payload: "43", through: pool)
        guard case .notification(let again2) = await events.next() else {
            Issue.record("no notification after restart")
            return
        }
        #expect(again2.payload == "43")

        await listener.close()
        await pool.close()
        await running.stop()
    }

    @Test func theServerProgramsAreFoundOrTheirAbsenceExplained() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("huddle-empty-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        #expect {
            try PrivatePostgres.serverBinaries(searchPath: empty, versionsRoot: empty)
        } throws: { String(describing: $0).contains("apt-get install postgresql") && String(describing: $0).contains("DATABASE_URL") }
        // The test command installs PostgreSQL, so the real search succeeds.
        let found = try PrivatePostgres.serverBinaries(searchPath: empty)
        #expect(FileManager.default.isExecutableFile(atPath: found + "/initdb"))
        #expect(FileManager.default.isExecutableFile(atPath: found + "/pg_ctl"))
    }
}
