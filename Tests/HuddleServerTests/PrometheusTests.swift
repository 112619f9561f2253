import Foundation
import HuddleRuntime
import PostgresTestSupport
import ServerTestSupport
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The metrics as an operator wires them: Debian's Prometheus scrapes a
/// running server every second, with the repository's alerting rules
/// loaded, and is asked back through its HTTP API; the rules pass
/// `promtool check rules`; and every family the dashboard and the rules
/// read exists, and every family is in the docs.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct PrometheusTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let rules = root.appendingPathComponent("deploy/prometheus/huddle-alerts.yml").path
    static let dashboard = root.appendingPathComponent("deploy/grafana/huddle-dashboard.json").path

    /// Prometheus in the foreground, on a port of its own, scraping `target`.
    final class Prometheus: Sendable {
        let process: Subprocess
        let folder: ScratchDirectory
        let port: Int

        init(scraping target: Int) throws {
            folder = try ScratchDirectory("prometheus")
            port = freePort()
            let configuration = try folder.file(
                "prometheus.yml",
                """
                global:
                  scrape_interval: 1s
                  evaluation_interval: 1s
                rule_files: ["\(PrometheusTests.rules)"]
                scrape_configs:
                  - job_name: huddle
                    static_configs:
                      - targets: ["127.0.0.1:\(target)"]
                """)
            process = Subprocess()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/prometheus")
            process.arguments = [
                "--config.file=\(configuration)", "--storage.tsdb.path=\(folder.path("data"))",
                "--web.listen-address=127.0.0.1:\(port)",
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        func stop() {
            process.killAndWait()
        }

        /// An API call's `data`, or nil while Prometheus is not answering yet.
        func api(_ path: String, _ query: [String: String] = [:]) async -> Any? {
            var components = URLComponents(string: "http://127.0.0.1:\(port)/api/v1/\(path)")!
            components.queryItems = query.map { URLQueryItem(name: $0.key, value: $0.value) }
            guard let (data, _) = try? await URLSession.shared.data(from: components.url!),
                let reply = try? JSONSerialization.jsonObject(with: data) as? [String: Any], reply["status"] as? String == "success"
            else { return nil }
            return reply["data"]
        }

        /// The instant vector `expression` gives: each sample's labels and value.
        func query(_ expression: String) async -> [(labels: [String: String], value: Double)] {
            guard let data = await api("query", ["query": expression]) as? [String: Any], let result = data["result"] as? [[String: Any]]
            else { return [] }
            return result.map { sample in
                let value = (sample["value"] as? [Any])?.last as? String
                return (sample["metric"] as? [String: String] ?? [:], Double(value ?? "") ?? .nan)
            }
        }

        /// Waits (up to two minutes) until `condition` holds.
        func waitFor(_ what: String, _ condition: () async -> Bool) async throws {
            for _ in 0..<1200 {
                if await condition() { return }
                try await Task.sleep(for: .milliseconds(100))
            }
            Issue.record("Prometheus never saw \(what)")
            throw CancellationError()
        }
    }

    @Test func theRulesPassPromtool() throws {
        let outcome = try HuddleCommand.runTool("promtool", ["check", "rules", Self.rules])
        #expect(outcome.status == 0, "\(outcome.standardOutput)\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("SUCCESS"))
    }

    @Test func aRealPrometheusScrapesTheServerAndEvaluatesTheRules() async throws {
        try await TestServer.with { server in
            let user = try await server.signUp("scraped")
            for _ in 0..<3 { _ = try await server.graphql("query Mine { me { id } }", token: user.token) }
            _ = try await server.graphql("{ nope }")
            let prometheus = try Prometheus(scraping: server.port)
            defer { prometheus.stop() }
            try await prometheus.waitFor("the server up") { await prometheus.query(#"up{job="huddle"}"#).first?.value == 1 }

            let build = await prometheus.query("huddle_build_info")
            #expect(build.first?.labels["version"] == HuddleVersion.version && build.first?.labels["commit"] == HuddleVersion.commit)
            let mine = await prometheus.query(
                #"huddle_graphql_operation_duration_seconds_count{operation_type="query",operation_name="Mine"}"#)
            #expect(mine.first?.value == 3, "\(mine)")
            let errors = await prometheus.query(#"huddle_graphql_errors_total{code="GRAPHQL_VALIDATION_FAILED"}"#)
            #expect(errors.first?.value == 1, "\(errors)")
            let memory = await prometheus.query("process_resident_memory_bytes")
            #expect((memory.first?.value ?? 0) > 1_000_000, "\(memory)")
            #expect(await prometheus.query("huddle_database_up").first?.value == 1)
            // The quantile the latency alert reads, computed by Prometheus from the histogram.
            try await prometheus.waitFor("a latency quantile") {
                return await prometheus.query(
                    "histogram_quantile(0.99, sum by (le) (rate(huddle_http_request_duration_seconds_bucket[1m])))"
                ).first
                    .map { $0.value.isFinite } ?? false
            }

            // Every rule loaded and evaluated without error, none firing.
            try await prometheus.waitFor("every rule evaluated") {
                guard let data = await prometheus.api("rules") as? [String: Any], let groups = data["groups"] as? [[String: Any]]
                else { return false }
                let rules = groups.flatMap { $0["rules"] as? [[String: Any]] ?? [] }
                return rules.count == 11 && rules.allSatisfy { $0["health"] as? String == "ok" }
            }
            let firing = await prometheus.query(#"ALERTS{alertstate="firing"}"#)
            #expect(firing.isEmpty, "\(firing.map(\.labels))")
        }
    }

    /// The families the server exposes, from its `# TYPE` lines.
    static func families(_ server: TestServer) async throws -> Set<String> {
        let text = try await server.get("/metrics")
        return Set(text.split(separator: "\n").filter { $0.hasPrefix("# TYPE ") }.map { String($0.split(separator: " ")[2]) })
    }

    @Test func theDashboardTheRulesAndTheDocsNameOnlyFamiliesThatExist() async throws {
        try await TestServer.with { server in
            let families = try await Self.families(server)
            #expect(families.count >= 30, "\(families.sorted())")
            let referenced = try [Self.rules, Self.dashboard].flatMap { path in
                try String(contentsOfFile: path, encoding: .utf8).matches(of: /\b(huddle|process)_[a-z_]+/).map { String($0.0) }
            }
            #expect(!referenced.isEmpty)
            for name in Set(referenced) {
                let family = name.replacing(/_(bucket|count|sum)$/, with: "")
                #expect(families.contains(family), "\(name) is read but not exposed")
            }
            let docs = try String(contentsOf: Self.root.appendingPathComponent("docs/operations.md"), encoding: .utf8)
            for family in families {
                #expect(docs.contains("`\(family)`"), "\(family) is not in docs/operations.md")
            }
        }
    }
}
