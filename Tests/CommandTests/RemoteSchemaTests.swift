import Foundation
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// `--schema URL`: a live endpoint's schema read by introspection, over HTTP
/// from `huddle serve` and over HTTPS through a TLS front.
@Suite(.enabled(if: TestDatabase.available)) struct RemoteSchemaTests {
    /// Runs `body` with `huddle serve` itself, every app it mounts, on a fresh database.
    func withServer(_ body: (TestServer) async throws -> Void) async throws {
        try await TestDatabase.withScratchDatabase { url in
            let server = try await TestServer.launch(databaseURL: url)
            defer { server.stop() }
            try await body(server)
        }
    }

    @Test func aLiveServersSchemaPrintsAsTheBuiltInOneAndValidatesTheSame() async throws {
        try await withServer { server in
            let url = "http://127.0.0.1:\(server.port)/graphql"
            let builtIn = try HuddleCommand.run(["schema"])
            let live = try await offThePool { try HuddleCommand.run(["schema", "--schema", url]) }
            #expect(live.status == 0, "\(live.standardError)")
            #expect(builtIn.status == 0)
            #expect(live.standardOutput == builtIn.standardOutput)

            let document = "query Q($id: ID!) { node(id: $id) { id } me { usernam } }"
            let here = try HuddleCommand.run(["validate", "-"], input: document)
            let there = try await offThePool { try HuddleCommand.run(["validate", "--schema", url, "-"], input: document) }
            #expect(there.status == 1)
            #expect(there.standardOutput == here.standardOutput)
            #expect(
                there.standardOutput.contains("<stdin>:1:47: Cannot query field \"usernam\" on type \"User\". Did you mean \"username\"?"))
        }
    }

    @Test func anEndpointThatDoesNotAnswerIntrospectionIsAUsageError() async throws {
        try await withServer { server in
            let missing = try await offThePool {
                try HuddleCommand.run(["schema", "--schema", "http://127.0.0.1:\(server.port)/nothing"])
            }
            #expect(missing.status == 2)
            #expect(missing.standardError.hasPrefix("huddle schema: http://127.0.0.1:\(server.port)/nothing answered 404"))
        }
        let closed = try HuddleCommand.run(["schema", "--schema", "http://127.0.0.1:\(freePort())/graphql"])
        #expect(closed.status == 2)
        #expect(closed.standardError.contains("cannot connect to 127.0.0.1"))
        let mixed = try HuddleCommand.run(["schema", "--schema", "http://127.0.0.1:1/graphql", "--schema", "a.graphql"])
        #expect(mixed.standardError == "huddle schema: a --schema URL goes alone, without SDL files\n")
    }

    /// Starts the proxy; its port, and the process to stop.
    func proxy(_ arguments: [String]) throws -> (Int, Subprocess) {
        let (process, line) = try startPythonService("introspection_proxy.py", arguments)
        guard let port = Int(line) else {
            process.killAndWait()
            throw CocoaError(.fileReadCorruptFile)
        }
        return (port, process)
    }

    @Test func overHTTPSWithHeadersAndAnOlderServer() async throws {
        let scratch = try ScratchDirectory("huddle-remote-schema")
        // Trusted through SSL_CERT_FILE, as a team's own authority would be.
        let (cert, key) = try await offThePool { try localhostCertificate(in: scratch) }
        try await withServer { server in
            let upstream = "http://127.0.0.1:\(server.port)/graphql"
            let builtIn = try HuddleCommand.run(["schema"]).standardOutput
            for legacy in [false, true] {
                let log = scratch.path("requests-\(legacy).log")
                let (port, process) = try proxy([cert, key, upstream, log] + (legacy ? ["--legacy"] : []))
                defer { process.killAndWait() }
                let url = "https://localhost:\(port)/graphql?team=web"
                let trusted = try await offThePool {
                    try HuddleCommand.run(
                        ["schema", "--schema", url, "--header", "Authorization: Bearer ci-token"], environment: ["SSL_CERT_FILE": cert])
                }
                #expect(trusted.status == 0, "\(trusted.standardError)")
                let requests = try String(contentsOfFile: log, encoding: .utf8)
                if legacy {
                    // Refused the full query, it asked again with graphql-js 16's;
                    // the schema lost what that query does not ask (oneOf, and
                    // deprecated arguments), nothing else.
                    #expect(requests == "/graphql?team=web Bearer ci-token\n/graphql?team=web Bearer ci-token\n")
                    #expect(trusted.standardOutput != builtIn)
                    #expect(trusted.standardOutput.contains("type Query {"))
                    #expect(!trusted.standardOutput.contains("@oneOf"))
                } else {
                    #expect(requests == "/graphql?team=web Bearer ci-token\n")
                    #expect(trusted.standardOutput == builtIn)
                }
                // Without the authority, the certificate is refused by name.
                let untrusted = try await offThePool {
                    try HuddleCommand.run(["schema", "--schema", url], environment: ["SSL_CERT_FILE": "/nonexistent.pem"])
                }
                #expect(untrusted.status == 2)
                #expect(
                    untrusted.standardError.contains("TLS with localhost failed: self-signed certificate"), "\(untrusted.standardError)")
            }
        }
    }
}
