import Foundation
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Three `huddle serve` processes on one database behind nginx (Debian's
/// nginx-light), as docs/operations.md's Deployment sets it up: mutations
/// answered by one process reach subscribers held by the others, and the
/// API keeps answering when a process is killed.
@Suite(.enabled(if: TestDatabase.available && FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx")), .hangGuard)
struct LoadBalancerTests {
    /// nginx in the foreground on `port`, balancing over `backends`.
    final class Balancer: Sendable {
        let process: Subprocess
        let folder: ScratchDirectory

        init(port: Int, backends: [Int]) throws {
            folder = try ScratchDirectory("nginx")
            let upstream = backends.map { "server 127.0.0.1:\($0) max_fails=1 fail_timeout=30s;" }.joined(separator: " ")
            let temp = folder.url.path
            let configuration = try folder.file(
                "nginx.conf",
                """
                daemon off;
                master_process off;
                worker_processes 1;
                pid \(temp)/nginx.pid;
                error_log \(temp)/error.log warn;
                events { worker_connections 256; }
                http {
                    access_log off;
                    client_body_temp_path \(temp)/body; proxy_temp_path \(temp)/proxy;
                    fastcgi_temp_path \(temp)/fastcgi; uwsgi_temp_path \(temp)/uwsgi; scgi_temp_path \(temp)/scgi;
                    map $http_upgrade $connection_upgrade { default upgrade; '' close; }
                    upstream huddle { \(upstream) }
                    server {
                        listen 127.0.0.1:\(port);
                        location / {
                            proxy_pass http://huddle;
                            proxy_http_version 1.1;
                            proxy_set_header Upgrade $http_upgrade;
                            proxy_set_header Connection $connection_upgrade;
                            proxy_read_timeout 1h;
                            proxy_next_upstream error timeout;
                        }
                    }
                }
                """)
            process = Subprocess()
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
            process.arguments = ["-c", configuration, "-p", temp]
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        /// SIGKILL: without a master process, nginx holding proxied
        /// websockets does not always end on SIGTERM, and nothing of it matters after.
        func stop() {
            process.killAndWait()
        }
    }

    @Test func threeProcessesBehindNginxServeOneAPISubscriptionsIncluded() async throws {
        try await TestDatabase.withScratchDatabase { url in
            var servers: [TestServer] = []
            defer { for server in servers { server.stop() } }
            for _ in 0..<3 { servers.append(try await TestServer.launch(databaseURL: url)) }
            let port = freePort()
            let balancer = try Balancer(port: port, backends: servers.map(\.port))
            defer { balancer.stop() }
            // The balancer's own address, with the harness's HTTP client.
            let front = try await TestServer.attach(port: port, databaseURL: url)
            let users = try await servers[0].makeUsers(4, prefix: "lb")
            let sender = users[3]

            // Three subscribers through the balancer: round robin gives each its own process.
            var clients: [WebSocketClient] = []
            for user in users.prefix(3) {
                let client = try subscriber(port: port, token: user.token)
                client.send(
                    #"{"id":"1","type":"subscribe","payload":{"query":"subscription { friendRequestReceived { from { username } } }"}}"#)
                clients.append(client)
            }
            var held: [Int] = []
            for _ in 0..<200 {
                held = try await servers.asyncMap { server in
                    let metrics = try await server.get("/metrics")
                    let line = metrics.split(separator: "\n").first { $0.hasPrefix("huddle_active_subscriptions ") }
                    return Int(line?.split(separator: " ").last ?? "") ?? 0
                }
                if held.reduce(0, +) == 3 { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(held == [1, 1, 1], "subscriptions per process: \(held)")
            try await Task.sleep(for: .milliseconds(200))

            // Mutations through the balancer, each answered by one of the
            // processes; every subscriber hears its own.
            for user in users.prefix(3) {
                let reply = try await front.graphql(TestServer.sendFriendRequest, ["id": user.id], token: sender.token)
                #expect(reply["errors"].isNull, "\(reply)")
            }
            for client in clients {
                #expect(
                    client.next()?.text
                        == #"{"id":"1","type":"next","payload":{"data":{"friendRequestReceived":{"from":{"username":"lb3"}}}}}"#)
            }

            // One process dies: the balancer passes over it, and nothing a client asks fails.
            servers[1].kill()
            for index in 0..<12 {
                let reply = try await front.graphql("{ me { username } }", token: users[index % 4].token)
                #expect(reply["data"]["me"]["username"].string == "lb\(index % 4)", "\(reply)")
            }
            let after = try await front.graphql(
                "mutation($id: ID!) { cancelFriendRequest(requestId: $id) }",
                [
                    "id": try await front.graphql("{ outgoingFriendRequests { edges { node { id } } } }", token: sender.token)[
                        "data"]["outgoingFriendRequests"]["edges"][0]["node"]["id"].string ?? ""
                ], token: sender.token)
            #expect(after["errors"].isNull, "\(after)")
        }
    }
}

extension Array {
    /// The transformed elements, in order, one after another.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var values: [T] = []
        for element in self { values.append(try await transform(element)) }
        return values
    }
}
