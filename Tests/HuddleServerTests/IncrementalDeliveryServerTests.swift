import Foundation
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// `@defer`, `@stream` and GraphQL over SSE against `huddle serve`, with
/// real clients: curl for multipart/mixed, Python websockets for
/// graphql-transport-ws, sseclient-py (over requests) for event streams.
@Suite(.enabled(if: TestDatabase.available)) struct IncrementalDeliveryServerTests {
    static let query = #"{ petTypes @stream(initialCount: 1) { type } ... @defer(label: "t") { checkInTemplate } }"#
    static let initial =
        #"{"data":{"petTypes":[{"type":"DOG"}]},"pending":[{"id":"0","path":[],"label":"t"},{"id":"1","path":["petTypes"]}],"hasNext":true}"#
    static let subsequent =
        #"{"hasNext":false,"incremental":[{"data":{"checkInTemplate":["What did you get done since we last spoke?","What got in the way?","Which day went best, and why?","What will you do differently this week?","How can I help you stay on track?"]},"id":"0"},{"items":[{"type":"CAT"},{"type":"RABBIT"},{"type":"SMALL_AND_FURRY"},{"type":"HORSE"},{"type":"BIRD"},{"type":"SCALES_FINS_AND_OTHER"},{"type":"BARNYARD"}],"id":"1"}],"completed":[{"id":"0"},{"id":"1"}]}"#

    /// The id the curl requests name themselves by, which their responses echo.
    static let requestID = "incremental-1"

    func curl(_ server: TestServer, accept: String, _ query: String) async throws -> String {
        let body = String(decoding: try JSONSerialization.data(withJSONObject: ["query": query]), as: UTF8.self)
        let outcome = try await ClientProcess.run(
            "curl",
            [
                "-s", "-N", "-D", "-", "-H", "Accept: \(accept)", "-H", "Content-Type: application/json",
                "-H", "X-Request-Id: \(Self.requestID)", "--data-binary", body,
                "http://127.0.0.1:\(server.port)/graphql",
            ])
        return outcome.output
    }

    @Test func multipartOverHTTPAndWholeForOtherClients() async throws {
        try await TestDatabase.withScratchDatabase { url in
            let server = try await TestServer.start(databaseURL: url, mounting: everyApp)
            defer { server.stop() }
            let multipart = try await curl(server, accept: "multipart/mixed;incrementalSpec=v0.2, application/json", Self.query)
            #expect(
                multipart == """
                    HTTP/1.1 200 OK\r
                    Content-Type: multipart/mixed; boundary="-"\r
                    X-Request-Id: \(Self.requestID)\r
                    Transfer-Encoding: chunked\r
                    \r
                    \r
                    ---\r
                    Content-Type: application/json; charset=utf-8\r
                    \r
                    \(Self.initial)\r
                    ---\r
                    Content-Type: application/json; charset=utf-8\r
                    \r
                    \(Self.subsequent)\r
                    -----\r

                    """, "\(multipart)")
            // A client that does not read multipart gets everything at once.
            let whole = try await curl(server, accept: "application/json", Self.query)
            #expect(
                whole.hasSuffix(
                    #"{"data":{"petTypes":[{"type":"DOG"},{"type":"CAT"},{"type":"RABBIT"},{"type":"SMALL_AND_FURRY"},{"type":"HORSE"},{"type":"BIRD"},{"type":"SCALES_FINS_AND_OTHER"},{"type":"BARNYARD"}],"checkInTemplate":["What did you get done since we last spoke?","What got in the way?","Which day went best, and why?","What will you do differently this week?","How can I help you stay on track?"]}}"#
                ), "\(whole)")
            // Nothing deferred: one JSON body even for a multipart client.
            let plain = try await curl(server, accept: "multipart/mixed, application/json", "{ petTypes { type } }")
            #expect(plain.contains("Content-Type: application/json; charset=utf-8") && plain.contains("Content-Length:"), "\(plain)")

            // graphql-transport-ws: each result a next message.
            let ws = try await ClientProcess.python("incremental_clients.py", ["ws", "\(server.port)", Self.query]).finished()
            #expect(ws.status == 0, "\(ws.errors)")
            #expect(ws.output == "next \(Self.initial)\nnext \(Self.subsequent)\ncomplete\n", "\(ws.output)")
        }
    }

    @Test func graphQLOverServerSentEvents() async throws {
        try await TestDatabase.withScratchDatabase { url in
            let server = try await TestServer.start(databaseURL: url, mounting: everyApp)
            defer { server.stop() }
            let port = "\(server.port)"
            let incremental = try await ClientProcess.python("incremental_clients.py", ["sse", port, Self.query]).finished()
            #expect(incremental.status == 0, "\(incremental.errors)")
            #expect(
                incremental.output == """
                    200 text/event-stream; charset=utf-8
                    next \(Self.initial)
                    next \(Self.subsequent)
                    complete 

                    """, "\(incremental.output)")
            // A browser's EventSource: a GET of /graphql/stream with no headers of its own.
            let get = try await ClientProcess.python("incremental_clients.py", ["eventsource", port, "{ petTypes { type } }"]).finished()
            #expect(get.status == 0, "\(get.errors)")
            #expect(
                get.output == """
                    200 text/event-stream; charset=utf-8
                    next {"data":{"petTypes":[{"type":"DOG"},{"type":"CAT"},{"type":"RABBIT"},{"type":"SMALL_AND_FURRY"},{"type":"HORSE"},{"type":"BIRD"},{"type":"SCALES_FINS_AND_OTHER"},{"type":"BARNYARD"}]}}
                    complete 

                    """, "\(get.output)")
            // Errors before execution are events too, with their codes.
            let invalid = try await ClientProcess.python("incremental_clients.py", ["sse", port, "{ nope }"]).finished()
            // Each error names the request it answers (a made id: the client sends none).
            #expect(invalid.output.contains(/"requestId":"[0-9a-f]{32}"/), "\(invalid.output)")
            #expect(
                invalid.output.replacing(/,"requestId":"[0-9a-f]{32}"/, with: "") == """
                    200 text/event-stream; charset=utf-8
                    next {"errors":[{"message":"Cannot query field \\"nope\\" on type \\"Query\\". Did you mean \\"node\\"?","locations":[{"line":1,"column":3}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}
                    complete 

                    """, "\(invalid.output)")

            // A mutation, and a subscription whose event it brings.
            let subscriber = try await server.signUp("sse_subscriber")
            let sender = try await server.signUp("sse_sender")
            let mutation = try await ClientProcess.python(
                "incremental_clients.py",
                ["sse", port, "mutation { updateProfile(input: {firstName: \"Sam\"}) { firstName } }", sender.token]
            ).finished()
            #expect(mutation.output.contains(#"next {"data":{"updateProfile":{"firstName":"Sam"}}}"#), "\(mutation.output)")
            let subscription = try await ClientProcess.python(
                "incremental_clients.py", ["subscribe", port, subscriber.token, sender.token, subscriber.id]
            ).finished()
            #expect(subscription.status == 0, "\(subscription.errors)")
            #expect(
                subscription.output == """
                    200 text/event-stream; charset=utf-8
                    next {"data":{"friendRequestReceived":{"from":{"username":"sse_sender"},"to":{"username":"sse_subscriber"}}}}

                    """, "\(subscription.output)")
        }
    }

    @Test func incrementalDeliveryTurnedOff() async throws {
        try await TestDatabase.withScratchDatabase { url in
            let server = try await TestServer.start(databaseURL: url, mounting: everyApp) { $0.operations.incrementalDelivery = false }
            defer { server.stop() }
            let refused = try await curl(server, accept: "multipart/mixed, application/json", Self.query)
            #expect(
                refused.contains(#"Unknown directive \"@stream\"."#) && refused.contains(#"Unknown directive \"@defer\"."#), "\(refused)")
            let schema = try await server.get("/graphql/schema.graphql")
            #expect(!schema.contains("directive @defer"))
        }
    }
}
