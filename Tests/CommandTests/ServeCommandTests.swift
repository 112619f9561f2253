import Foundation
import HuddleCore
import HuddlePostgres
import HuddleRuntime
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// `huddle serve` as a process: workers on one port, signals, bad options.
@Suite(.serialized) struct ServeCommandTests {

    @Test func servesOnEveryWorkerAndExitsCleanlyOnSIGTERM() async throws {
        let port = freePort()
        let process = Subprocess()
        process.executableURL = HuddleCommand.executable
        process.arguments = ["serve", "--port", "\(port)"]
        process.environment = ["HUDDLE_WORKERS": "2"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // A fresh clone makes its private cluster, migrates and seeds first:
        // seconds on a quick machine, many more on a loaded one.
        var answered = ""
        for _ in 0..<2400 where process.isRunning {
            answered = try curl(["http://127.0.0.1:\(port)/healthz"]).output
            if answered == "ok\n" { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(answered == "ok\n")
        // No DATABASE_URL: the private cluster under .huddle/postgres answers.
        #expect(try curl(["http://127.0.0.1:\(port)/readyz"]).output == "ready\n")
        // Many fresh connections, spread over both loops by the kernel.
        for _ in 0..<20 {
            #expect(try curl(["http://127.0.0.1:\(port)/healthz"]).output == "ok\n")
        }
        #expect(try curl(["-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/missing"]).output == "404")
        #expect(
            try curl(["-o", "/dev/null", "-w", "%{http_code}", "-X", "DELETE", "http://127.0.0.1:\(port)/healthz"]).output
                == "405")
        let metrics = try curl(["http://127.0.0.1:\(port)/metrics"]).output
        // Every worker counts into the same totals: 21 health checks and a readiness check, one 404, one 405.
        #expect(metrics.contains(#"huddle_http_requests_total{operation_type="none",status="200"} 22"#))
        #expect(metrics.contains(#"huddle_http_requests_total{operation_type="none",status="404"} 1"#))
        #expect(metrics.contains("huddle_open_connections 1\n"))
        process.terminate()
        process.waitUntilExit()
        #expect(process.exitedNormally)
        #expect(process.terminationStatus == 0)
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("listening on http://127.0.0.1:\(port) with 2 workers"))
        #expect(log.contains("the Playground is at http://127.0.0.1:\(port)/playground"))
        #expect(log.contains("using the private PostgreSQL in "))
        #expect(log.contains("migrations: "))
        // Off a terminal every line is JSON, with its time and level, the
        // start-up's and the shutdown's (draining, stopped) among them.
        let lines = log.split(separator: "\n").map(String.init)
        let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.count == lines.count, "\(lines.filter { !$0.hasPrefix("{") })")
        #expect(objects.allSatisfy { $0["time"] is String && $0["level"] is String })
        #expect(objects.contains { $0["msg"] as? String == "draining" })
        #expect(objects.contains { $0["msg"] as? String == "stopped" && $0["connections_cut"] as? Int == 0 })
        let listening = objects.first { ($0["msg"] as? String)?.hasPrefix("listening on") == true }
        #expect(listening?["version"] as? String == HuddleVersion.version)
        // It started the private server, so it stopped it on the way out.
        #expect(try !Self.privateClusterRuns())
    }

    /// Whether the private cluster under the package's `.huddle/postgres` runs.
    static func privateClusterRuns() throws -> Bool {
        let binaries = try PrivatePostgres.serverBinaries()
        let status = Subprocess()
        status.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let data = DatabaseLocation.packageRoot().appendingPathComponent(".huddle/postgres/data").path
        status.arguments = (getuid() == 0 ? ["runuser", "-u", "postgres", "--"] : []) + ["\(binaries)/pg_ctl", "-D", data, "status"]
        status.standardOutput = FileHandle.nullDevice
        try status.run()
        status.waitUntilExit()
        // pg_ctl status: 3 means no server running.
        return status.terminationStatus != 3
    }

    /// SIGTERM as soon as the private cluster is up, while the server is
    /// still migrating and seeding (before its event loops watch signals):
    /// the process ends, and so does the cluster it started.
    @Test func aSignalWhileStartingStopsThePrivateCluster() async throws {
        let scratch = try ScratchDirectory("huddle-serve")
        let errorFile = scratch.url.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        let process = Subprocess()
        process.executableURL = HuddleCommand.executable
        process.arguments = ["serve", "--port", "\(freePort())", "--workers", "1"]
        process.environment = ProcessInfo.processInfo.environment.filter { $0.key != "DATABASE_URL" }
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        var log = ""
        for _ in 0..<1_200 {
            log = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
            if log.contains("using the private PostgreSQL") { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(log.contains("using the private PostgreSQL"))
        process.terminate()
        try await offThePool { process.waitUntilExit() }
        // 143 when the signal came while starting; 0 when it was already serving and drained.
        // Either way the process exits by itself, not killed by the signal.
        #expect(process.exitedNormally)
        #expect([0, 143].contains(process.terminationStatus), "\(process.terminationStatus)")
        #expect(try !Self.privateClusterRuns())
    }

    /// The SDL and the migrations are in the binary: run from a folder with
    /// no Schema/ anywhere above it, it migrates and serves every app.
    @Test(.enabled(if: TestDatabase.available)) func servesFromAnyFolderWithTheSchemaItCarries() async throws {
        try await TestDatabase.withScratchDatabase { url in
            let folder = try ScratchDirectory("anywhere")
            let migrated = try HuddleCommand.run(["migrate"], environment: ["DATABASE_URL": url], in: folder.url)
            #expect(migrated.status == 0, "\(migrated.standardError)")
            #expect(migrated.standardOutput.contains("applied prolific/0001_prolific.sql"))
            let port = freePort()
            let process = Subprocess()
            process.executableURL = HuddleCommand.executable
            process.currentDirectoryURL = folder.url
            process.arguments = ["serve", "--port", "\(port)", "--workers", "1", "--log-level", "warning"]
            process.environment = ProcessInfo.processInfo.environment.merging(["DATABASE_URL": url]) { $1 }
            try process.run()
            defer {
                process.terminate()
                process.waitUntilExit()
            }
            var answer = ""
            for _ in 0..<200 {
                answer = try curl(
                    [
                        "-s", "http://127.0.0.1:\(port)/graphql", "-H", "content-type: application/json",
                        "-d", #"{"query":"{ a: __type(name: \"Project\") { name } b: __type(name: \"SportsSession\") { name } }"}"#,
                    ]).output
                if !answer.isEmpty { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(answer == #"{"data":{"a":{"name":"Project"},"b":{"name":"SportsSession"}}}"#)
            #expect(!FileManager.default.fileExists(atPath: folder.path(".huddle")))
        }
    }

    @Test func aSchemaFolderWithoutSDLIsOneClearError() throws {
        let folder = try ScratchDirectory("no-sdl")
        let outcome = try HuddleCommand.run(
            ["serve", "--no-migrate", "--workers", "1", "--port", "\(freePort())", "--schema-dir", folder.url.path])
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("has no SDL in shared/"), "\(outcome.standardError)")
        #expect(!outcome.standardError.contains("Cannot bind"))
        let printed = try HuddleCommand.run(["schema"], environment: ["HUDDLE_SCHEMA_DIR": folder.url.path])
        #expect(printed.status == 2 && printed.standardError.contains("has no SDL in shared/"), "\(printed.standardError)")
    }

    @Test func refusesToStartWithoutItsDatabase() throws {
        let outcome = try HuddleCommand.run(
            ["serve", "--no-migrate", "--workers", "1", "--port", "\(freePort())"],
            environment: ["DATABASE_URL": "host=/nonexistent/socket/dir user=huddle dbname=huddle"]
        )
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("cannot reach PostgreSQL"))
        #expect(outcome.standardError.contains("/nonexistent/socket/dir"))
    }

    @Test func reportsAnAddressItCannotListenOn() throws {
        let outcome = try HuddleCommand.run(["serve", "--host", "not-an-address", "--workers", "1"])
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("not-an-address is not an IPv4 or IPv6 address"))
    }

    @Test func refusesBadOptions() throws {
        #expect(try HuddleCommand.run(["serve", "--workers", "0"]).status == 2)
        #expect(try HuddleCommand.run(["serve", "--port", "70000"]).status == 2)
        // TokenCacheTests serves with 3600 and 0, the ends of the range.
        #expect(try HuddleCommand.run(["serve", "--token-cache-seconds", "3601"]).status == 2)
        #expect(try HuddleCommand.run(["serve", "--token-cache-seconds", "-1"]).status == 2)
        #expect(try HuddleCommand.run(["serve", "--send-timeout", "0"]).status == 2)
        #expect(try HuddleCommand.run(["serve", "--send-timeout", "3601"]).status == 2)
        #expect(try HuddleCommand.run(["serve", "--persisted-query-bytes", "-1"]).status == 2)
        #expect(try HuddleCommand.run(["serve", "--persisted-query-bytes", "\((1 << 30) + 1)"]).status == 2)
        // A media store needs its keys, and an s3:// URL naming a bucket.
        let keyless = try HuddleCommand.run(
            ["serve", "--media-store", "s3://huddle-pictures"], environment: ["AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": ""])
        #expect(keyless.status == 2 && keyless.standardError.contains("AWS_ACCESS_KEY_ID"), "\(keyless.standardError)")
        let keys = ["AWS_ACCESS_KEY_ID": "k", "AWS_SECRET_ACCESS_KEY": "s"]
        #expect(try HuddleCommand.run(["serve", "--media-store", "https://example.org"], environment: keys).status == 2)
        #expect(try HuddleCommand.run(["serve", "--media-store", "s3://No_Such"], environment: keys).status == 2)
    }

    /// A port another process listens on (SO_REUSEPORT or not) is an
    /// error, never a share of that process's clients.
    @Test(.enabled(if: TestDatabase.available)) func aPortInUseIsRefusedNotShared() async throws {
        try await TestDatabase.withScratchDatabase { url in
            let first = try await TestServer.launch(databaseURL: url)
            defer { first.stop() }
            let second = try HuddleCommand.run(
                ["serve", "--no-migrate", "--workers", "1", "--port", "\(first.port)"],
                environment: ["DATABASE_URL": first.databaseURL])
            #expect(second.status == 1)
            #expect(
                second.standardError.contains("cannot serve: another huddle process serves 127.0.0.1:\(first.port)"),
                "\(second.standardError)")
        }
        // Something else listening, with SO_REUSEPORT as huddle's workers have it.
        let (descriptor, port) = boundSocket(reusePort: true)
        defer { close(descriptor) }
        #expect(listen(descriptor, 8) == 0)
        let outcome = try HuddleCommand.run(
            ["serve", "--no-migrate", "--workers", "1", "--port", "\(port)"],
            environment: ["DATABASE_URL": "host=/nonexistent/socket/dir user=huddle dbname=huddle"])
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("cannot serve: 127.0.0.1:\(port) is in use by another process"), "\(outcome.standardError)")
    }
}
