import Foundation
import HuddleRuntime
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// `huddle serve --trusted-documents`: documents named by id over HTTP
/// (POST, GET, Apollo's persisted-query hash) and WebSocket (both
/// subprotocols, from Python), only-trusted mode, and SIGHUP reloads.
@Suite(.enabled(if: TestDatabase.available)) struct TrustedDocumentsTests {
    static let first = "query Ping {\n  __typename\n}"
    static let second = "query Me {\n  me {\n    id\n  }\n}"
    static func id(_ text: String) -> String { "sha256:" + Digest.sha256Hex(Array(text.utf8)) }

    func manifest(_ documents: [String], in scratch: ScratchDirectory) throws -> String {
        let entries = documents.map { document -> String in
            let quoted = String(decoding: try! JSONSerialization.data(withJSONObject: [document]), as: UTF8.self).dropFirst().dropLast()
            return "\"\(Self.id(document))\": \(quoted)"
        }
        return try scratch.file("manifest.json", "{" + entries.joined(separator: ",") + "}")
    }

    func post(_ server: TestServer, _ body: String) async throws -> JSON {
        try await server.post(body: body)
    }

    @Test func documentsAreNamedByIdAndOthersStillRunWithoutOnlyTrusted() async throws {
        let scratch = try ScratchDirectory("huddle-trusted")
        let path = try manifest([Self.first], in: scratch)
        try await TestDatabase.withScratchDatabase { url in
            let server = try await TestServer.launch(databaseURL: url, arguments: ["--trusted-documents", path])
            defer { server.stop() }
            let byId = try await post(server, #"{"documentId":"\#(Self.id(Self.first))"}"#)
            #expect(byId["data"]["__typename"].string == "Query")
            let byHash = try await post(
                server, #"{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"\#(Digest.sha256Hex(Array(Self.first.utf8)))"}}}"#)
            #expect(byHash["data"]["__typename"].string == "Query")
            let get = try await ClientProcess.run(
                "curl",
                ["-s", "-H", "GraphQL-Require-Preflight: 1", "http://127.0.0.1:\(server.port)/graphql?documentId=" + Self.id(Self.first)])
            #expect(get.output == #"{"data":{"__typename":"Query"}}"#, "\(get.output)")
            let unknown = try await post(server, #"{"documentId":"sha256:0000"}"#)
            #expect(unknown.errorCode == "PERSISTED_QUERY_NOT_FOUND")
            #expect(unknown.errorMessage == "Unknown documentId \"sha256:0000\".")
            let notSha = try await post(server, #"{"documentId":"md5:abc"}"#)
            #expect(notSha.errorCode == "BAD_REQUEST")
            // Without --only-trusted, any other document runs as before.
            let free = try await post(server, #"{"query":"{ __typename }"}"#)
            #expect(free["data"]["__typename"].string == "Query")

            // Over WebSocket, both subprotocols, a client holding only the id.
            let ws = try await ClientProcess.python(
                "trusted_document_ws.py", ["\(server.port)", #"{"documentId":"\#(Self.id(Self.first))"}"#]
            )
            .finished()
            #expect(ws.status == 0, "\(ws.errors)")
            #expect(
                ws.output == """
                    graphql-transport-ws next {"data": {"__typename": "Query"}}
                    graphql-ws data {"data": {"__typename": "Query"}}

                    """, "\(ws.output)")
        }
    }

    @Test func onlyTrustedRefusesOtherDocumentsAndSIGHUPReloadsTheManifest() async throws {
        let scratch = try ScratchDirectory("huddle-trusted-only")
        let path = try manifest([Self.first], in: scratch)
        try await TestDatabase.withScratchDatabase { url in
            let server = try await TestServer.launch(databaseURL: url, arguments: ["--trusted-documents", path, "--only-trusted"])
            defer { server.stop() }
            let refused = try await post(server, #"{"query":"{ __typename }"}"#)
            #expect(refused.errorCode == "TRUSTED_DOCUMENT_REQUIRED")
            #expect(refused["data"].isNull)
            // The manifest's own text, sent whole, is trusted.
            let text = String(decoding: try JSONSerialization.data(withJSONObject: ["query": Self.first]), as: UTF8.self)
            #expect(try await post(server, text)["data"]["__typename"].string == "Query")
            // Apollo's automatic persisted queries cannot register a new text.
            let registering = String(
                decoding: try JSONSerialization.data(withJSONObject: [
                    "query": "{ me { id } }",
                    "extensions": ["persistedQuery": ["version": 1, "sha256Hash": Digest.sha256Hex(Array("{ me { id } }".utf8))]],
                ]), as: UTF8.self)
            #expect(try await post(server, registering).errorCode == "TRUSTED_DOCUMENT_REQUIRED")
            let ws = try await ClientProcess.python("trusted_document_ws.py", ["\(server.port)", #"{"query":"{ __typename }"}"#]).finished()
            #expect(
                ws.output.contains(#"graphql-transport-ws error [{"extensions": {"code": "TRUSTED_DOCUMENT_REQUIRED", "requestId": ""#),
                "\(ws.output)")

            // A deploy adds a document; SIGHUP reads the manifest again.
            #expect(try await post(server, #"{"documentId":"\#(Self.id(Self.second))"}"#).errorCode == "PERSISTED_QUERY_NOT_FOUND")
            _ = try manifest([Self.first, Self.second], in: scratch)
            server.signal(SIGHUP)
            var answer = JSON.null
            for _ in 0..<100 {
                answer = try await post(server, #"{"documentId":"\#(Self.id(Self.second))"}"#)
                if answer.errorCode == nil { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(answer.errorCode == nil, "\(answer)")
            #expect(answer["data"]["me"].isNull)
            // A broken manifest is not loaded: the documents stay as they were.
            _ = try scratch.file("manifest.json", "{ not json")
            server.signal(SIGHUP)
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await post(server, #"{"documentId":"\#(Self.id(Self.second))"}"#).errorCode == nil)
        }
    }

    @Test func aBadManifestOrOnlyTrustedAloneStopsTheStart() throws {
        let scratch = try ScratchDirectory("huddle-trusted-bad")
        let wrong = try scratch.file("wrong.json", #"{"sha256:00": "{ __typename }"}"#)
        let outcome = try HuddleCommand.run(
            ["serve", "--port", "0", "--trusted-documents", wrong], environment: ["DATABASE_URL": "postgresql:///none"])
        #expect(outcome.status == 2)
        #expect(
            outcome.standardError.contains("--trusted-documents: \(wrong): the document of sha256:00 hashes to sha256:"),
            "\(outcome.standardError)")
        let alone = try HuddleCommand.run(["serve", "--only-trusted"])
        #expect(alone.status == 2)
        #expect(alone.standardError.contains("--only-trusted needs --trusted-documents"))
    }
}
