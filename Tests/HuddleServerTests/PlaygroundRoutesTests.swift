import Foundation
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// The Playground's HTTP side over real sockets: the page and its security
/// headers, CodeMirror from the installed package, a browser's GET of
/// /graphql, the language service with its limit and its errors, and the
/// switches that turn the Playground off.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct PlaygroundRoutesTests {
    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: String
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:] }
        var errorCode: String? {
            ((json["errors"] as? [[String: Any]])?.first?["extensions"] as? [String: Any])?["code"] as? String
        }
    }

    /// A request made with curl, which does not follow redirects, so a 302 is seen as it is.
    static func request(
        _ server: TestServer, _ path: String, method: String = "GET", headers: [String: String] = [:], body: Data? = nil
    ) async throws -> Reply {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("playground-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var arguments = [
            "-sS", "-X", method, "-D", folder.appendingPathComponent("head").path, "-o", folder.appendingPathComponent("body").path,
        ]
        for (name, value) in headers { arguments += ["-H", "\(name): \(value)"] }
        if let body {
            try body.write(to: folder.appendingPathComponent("request"))
            arguments += ["--data-binary", "@" + folder.appendingPathComponent("request").path]
        }
        let curl = try await ClientProcess.run("curl", arguments + ["http://127.0.0.1:\(server.port)\(path)"])
        #expect(curl.status == 0, "\(curl.errors)")
        let head = try String(contentsOf: folder.appendingPathComponent("head"), encoding: .utf8)
        let lines = head.split(separator: "\r\n")
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        let text = (try? String(contentsOf: folder.appendingPathComponent("body"), encoding: .utf8)) ?? ""
        return Reply(status: status, headers: fields, body: text)
    }

    static func languageService(_ server: TestServer, _ object: [String: Any]) async throws -> Reply {
        try await request(
            server, "/playground/language-service", method: "POST", headers: ["Content-Type": "application/json"],
            body: try JSONSerialization.data(withJSONObject: object))
    }

    static func withServer(arguments: [String] = [], _ body: (TestServer) async throws -> Void) async throws {
        try await TestDatabase.withScratchDatabase { url in
            let server = try await TestServer.launch(databaseURL: url, arguments: arguments)
            defer { server.stop() }
            try await body(server)
        }
    }

    @Test func thePageAndItsFilesWithAPolicyAllowingOnlyThem() async throws {
        try await Self.withServer { server in
            let page = try await Self.request(server, "/playground")
            #expect(page.status == 200)
            #expect(page.headers["content-type"] == "text/html; charset=utf-8")
            let policy = page.headers["content-security-policy"] ?? ""
            #expect(policy.contains("default-src 'none'"))
            #expect(policy.contains("script-src 'self';"))
            #expect(policy.contains("connect-src 'self';"))
            #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval") && !policy.contains("http"))
            #expect(page.headers["x-content-type-options"] == "nosniff")
            // No inline script or style for the policy to have to allow.
            #expect(!page.body.contains("<script>") && !page.body.contains("<style") && !page.body.contains(" style="))
            // Nothing from another host: no CDN.
            #expect(!page.body.contains("https://") && !page.body.contains("http://"))

            let codeMirror = try await Self.request(server, "/playground/codemirror/lib/codemirror.js")
            #expect(codeMirror.status == 200)
            #expect(codeMirror.headers["content-type"] == "text/javascript; charset=utf-8")
            let installed = try String(contentsOfFile: "/usr/share/javascript/codemirror/lib/codemirror.js", encoding: .utf8)
            #expect(codeMirror.body == installed)
            #expect(try await Self.request(server, "/playground/playground.js").status == 200)
            #expect(try await Self.request(server, "/playground/graphql-mode.js").status == 200)
            // Only the files the page uses, nothing else from the disk.
            #expect(try await Self.request(server, "/playground/codemirror/mode/sql/sql.js").status == 404)
            #expect(try await Self.request(server, "/playground/../../etc/passwd").status == 404)
            #expect(try await Self.request(server, "/playground", method: "POST").status == 405)
        }
    }

    @Test func aBrowsersVisitToTheEndpointLandsInThePlayground() async throws {
        try await Self.withServer { server in
            let browser = try await Self.request(
                server, "/graphql?query=%7Bme%7Bid%7D%7D",
                headers: ["Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"])
            #expect(browser.status == 302)
            #expect(browser.headers["location"] == "/playground?query=%7Bme%7Bid%7D%7D")
            // API clients still get GraphQL over HTTP.
            let client = try await Self.request(
                server, "/graphql?query=%7B__typename%7D",
                headers: ["Accept": "application/graphql-response+json, text/html", "GraphQL-Require-Preflight": "1"])
            #expect(client.status == 200)
            #expect(client.body == #"{"data":{"__typename":"Query"}}"#)
            let plain = try await Self.request(server, "/graphql?query=%7B__typename%7D", headers: ["GraphQL-Require-Preflight": "1"])
            #expect(plain.status == 200)
        }
    }

    @Test func theLanguageServiceAnswersWithTheServersEngine() async throws {
        try await Self.withServer { server in
            let completion = try await Self.languageService(
                server, ["method": "complete", "text": "{ me { usern", "position": ["line": 0, "character": 12]])
            #expect(completion.status == 200)
            let items = completion.json["items"] as? [[String: Any]] ?? []
            #expect(items.map { $0["label"] as? String } == ["username"])
            #expect(items.first?["detail"] as? String == "String!")
            #expect((completion.json["from"] as? [String: Int]) == ["line": 0, "character": 7])

            let diagnosis = try await Self.languageService(
                server, ["method": "diagnose", "text": "{ me { usernme } }\nquery B { me { id } }"])
            let diagnostics = diagnosis.json["diagnostics"] as? [[String: Any]] ?? []
            #expect(
                diagnostics.map { $0["message"] as? String } == [
                    "This anonymous operation must be the only defined operation.",
                    "Cannot query field \"usernme\" on type \"User\". Did you mean \"username\"?",
                ])
            #expect((diagnosis.json["operations"] as? [[String: Any]])?.map { $0["name"] as? String } == [nil, "B"])

            let formatted = try await Self.languageService(server, ["method": "format", "text": "{me{id}}"])
            #expect(formatted.json["text"] as? String == "{\n  me {\n    id\n  }\n}")
            let broken = try await Self.languageService(server, ["method": "format", "text": "{me{id}"])
            #expect(broken.status == 200)
            #expect(broken.errorCode == "GRAPHQL_PARSE_FAILED")
        }
    }

    /// The attack of issue 41: 19 KB that printed to 2.4 MB and held a
    /// worker for ten seconds is refused from its tree, and the worker answers.
    @Test func formattingADeeplyNestedDocumentIsRefusedBeforeItIsPrinted() async throws {
        try await Self.withServer(arguments: ["--workers", "1"]) { server in
            let text =
                "{"
                + (0..<19).map { "a\($0):" + String(repeating: "me{", count: 250) + "id" + String(repeating: "}", count: 250) }
                .joined(separator: " ") + "}"
            let refused = try await Self.languageService(server, ["method": "format", "text": text])
            #expect(refused.status == 400)
            #expect(refused.errorCode == "FORMAT_TOO_LARGE")
            #expect(refused.body.utf8.count < 1_000)
            #expect(try await server.graphql("{ __typename }")["data"]["__typename"].string == "Query")
        }
    }

    @Test func badLanguageServiceRequestsGetCodedErrors() async throws {
        try await Self.withServer { server in
            let notJSON = try await Self.request(server, "/playground/language-service", method: "POST", body: Data("{".utf8))
            #expect(notJSON.status == 400)
            #expect(notJSON.errorCode == "BAD_REQUEST")
            let unknown = try await Self.languageService(server, ["method": "hover", "text": "{ me }"])
            #expect(unknown.status == 400)
            #expect(unknown.errorCode == "BAD_REQUEST")
            let noPosition = try await Self.languageService(server, ["method": "complete", "text": "{ me }"])
            #expect(noPosition.status == 400)
            #expect(try await Self.request(server, "/playground/language-service").status == 405)

            // Playground.Configuration.maxTextBytes: 256 KiB of text is read, one byte more is not.
            let limit = 256 << 10
            let atLimit = "#" + String(repeating: "x", count: limit - 1)
            let read = try await Self.languageService(server, ["method": "diagnose", "text": atLimit])
            #expect(read.status == 200)
            #expect((read.json["diagnostics"] as? [[String: Any]])?.first?["message"] as? String == "Syntax Error: Unexpected <EOF>.")
            let over = try await Self.languageService(server, ["method": "diagnose", "text": atLimit + "x"])
            #expect(over.status == 413)
            #expect(over.errorCode == "DOCUMENT_TOO_LARGE")
        }
    }

    @Test func switchedOffByFlagWithIntrospectionOrWithoutCodeMirror() async throws {
        try await Self.withServer(arguments: ["--no-playground"]) { server in
            let page = try await Self.request(server, "/playground")
            let service = try await Self.languageService(server, ["method": "diagnose", "text": "{ me { id } }"])
            #expect(page.status == 404)
            #expect(service.status == 404)
        }
        // Completions and docs show the schema: no introspection, no Playground.
        try await Self.withServer(arguments: ["--no-introspection"]) { server in
            let page = try await Self.request(server, "/playground")
            #expect(page.status == 404)
        }
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-codemirror-\(UUID())")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        try await Self.withServer(arguments: ["--codemirror-dir", empty.path]) { server in
            let page = try await Self.request(server, "/playground")
            #expect(page.status == 503)
            #expect(page.body.contains("libjs-codemirror"))
            #expect(try await server.graphql("{ __typename }")["data"]["__typename"].string == "Query")
        }
    }
}
