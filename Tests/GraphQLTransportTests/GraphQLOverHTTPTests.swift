import Foundation
import GraphQL
import GraphQLTransport
import HuddleRuntime
import RuntimeTestSupport
import TestSupport
import Testing

/// GraphQL over HTTP through a real server, with curl as the client.
@Suite(.serialized) struct GraphQLOverHTTPTests {
    static let endpoint: GraphQLOverHTTP = {
        let schema = try! buildSchema(
            """
            type Query { hello(name: String = "world"): String, context: String, broken: String }
            type Mutation { bump: Int }
            """)
        var builder = ExecutableSchema.Builder(schema: schema)
        builder.resolve("Query", "hello") { input in
            guard case .string(let name)? = input.argument("name") else { return .null }
            return .value(.string("Hello, \(name)!"))
        }
        builder.resolve("Query", "context") { input in .value(.string(input.context as? String ?? "none")) }
        builder.resolve("Query", "broken") { _ in throw GraphQLError(message: "it broke") }
        builder.resolve("Mutation", "bump") { _ in .value(.int(1)) }
        var configuration = GraphQLOverHTTP.Configuration()
        configuration.allowedOrigins = ["https://app.example"]
        configuration.maxBatchSize = 2
        return GraphQLOverHTTP(schema: try! builder.build(), configuration: configuration) { _, parameters in
            // What a client put in `extensions` reaches the resolvers' context.
            if case .string(let tag)? = parameters.extensions.first(where: { $0.name == "tag" })?.value { return tag }
            return "none"
        }
    }()

    struct Answer {
        var status: Int
        var contentType: String
        var body: String
        var headers: String
    }

    /// curl against the endpoint; `arguments` go before the URL.
    func call(_ running: RunningServer, _ arguments: [String], path: String = "/graphql") throws -> Answer {
        let headerFile = FileManager.default.temporaryDirectory.appendingPathComponent("huddle-headers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: headerFile) }
        let (output, _) = try curl(
            arguments + ["-D", headerFile.path, "-w", "\n%{http_code}\n%{content_type}", "http://127.0.0.1:\(running.port)\(path)"])
        var lines = output.components(separatedBy: "\n")
        let contentType = lines.removeLast()
        let status = Int(lines.removeLast()) ?? 0
        let headers = (try? String(contentsOf: headerFile, encoding: .utf8)) ?? ""
        return Answer(
            status: status, contentType: contentType, body: Self.withoutRequestIDs(lines.joined(separator: "\n"), headers: headers),
            headers: headers)
    }

    /// `body` with the request's id taken out of its errors' `extensions`,
    /// for comparing with what the errors say; every error must carry the
    /// id the response's `X-Request-Id` names.
    static func withoutRequestIDs(_ body: String, headers: String) -> String {
        let echoed = headers.split(separator: "\r\n").first { $0.lowercased().hasPrefix("x-request-id: ") }.map { String($0.dropFirst(14)) }
        #expect(echoed != nil, "\(headers)")
        let errors = body.matches(of: /"message":/).count
        let ids = body.matches(of: /"requestId":"([^"]*)"/).map { String($0.1) }
        #expect(ids.count == errors && ids.allSatisfy { $0 == echoed }, "\(body)")
        guard let echoed else { return body }
        return body.replacing(#","extensions":{"requestId":"\#(echoed)"}"#, with: "").replacing(#","requestId":"\#(echoed)""#, with: "")
    }

    /// A POST that asks for graphql-response+json unless told otherwise
    /// (curl alone would send `Accept: */*`; an empty `accept` sends none).
    func post(
        _ body: String, accept: String = "application/graphql-response+json", contentType: String = "application/json", extra: [String] = []
    ) -> [String] {
        ["-X", "POST", "-H", "Content-Type: \(contentType)", "--data-binary", body, "-H", "Accept: \(accept)"] + extra
    }

    static func server() async throws -> RunningServer {
        let endpoint = endpoint
        return try await RunningServer(handler: { request in
            await endpoint.respond(to: request) ?? HTTPResponse(status: 404)
        })
    }

    @Test func answersPostsAsGraphQLResponseJSONByDefault() async throws {
        let running = try await Self.server()
        let ok = try call(
            running, post(#"{"query":"query Q($n: String) { hello(name: $n) }","variables":{"n":"Ada"},"operationName":"Q"}"#))
        #expect(ok.status == 200)
        #expect(ok.contentType == "application/graphql-response+json; charset=utf-8")
        #expect(ok.body == #"{"data":{"hello":"Hello, Ada!"}}"#)

        let partial = try call(running, post(#"{"query":"{ hello broken }"}"#))
        #expect(partial.status == 200)
        #expect(
            partial.body
                == #"{"errors":[{"message":"it broke","locations":[{"line":1,"column":9}],"path":["broken"]}],"data":{"hello":"Hello, world!","broken":null}}"#
        )
        await running.stop()
    }

    @Test func boundsTheResponseByItsConfiguredSize() async throws {
        var configuration = GraphQLOverHTTP.Configuration()
        // `{"hello":"Hello, world!"}` is 25 bytes; with a second alias, 47.
        configuration.operations.executionLimits = ExecutionLimits(maxResponseBytes: 25)
        let endpoint = GraphQLOverHTTP(schema: Self.endpoint.schema, configuration: configuration)
        let running = try await RunningServer(handler: { request in
            await endpoint.respond(to: request) ?? HTTPResponse(status: 404)
        })
        let atLimit = try call(running, post(#"{"query":"{ hello }"}"#))
        #expect(atLimit.body == #"{"data":{"hello":"Hello, world!"}}"#)
        let over = try call(running, post(#"{"query":"{ hello again: hello }"}"#))
        #expect(over.status == 200)
        #expect(
            over.body
                == #"{"errors":[{"message":"The response is larger than the limit of 25 bytes; execution stopped.","extensions":{"code":"RESPONSE_TOO_LARGE"}}],"data":null}"#
        )
        await running.stop()
    }

    @Test func givesRequestErrorsTheStatusTheirMediaTypeCallsFor() async throws {
        let running = try await Self.server()
        let cases: [(body: String, message: String)] = [
            (#"{"query":"{ hello "}"#, "Syntax Error"),
            (#"{"query":"{ nope }"}"#, "Cannot query field \\\"nope\\\" on type \\\"Query\\\"."),
            (
                #"{"query":"query Q($n: String!) { hello(name: $n) }"}"#,
                "Variable \\\"$n\\\" of required type \\\"String!\\\" was not provided."
            ),
            (#"{"query":"query A { hello } query B { hello }"}"#, "Must provide operation name if query contains multiple operations."),
            (#"{"variables":{}}"#, "Must provide query string."),
        ]
        for (body, message) in cases {
            let strict = try call(running, post(body))
            #expect(strict.status == 400, "\(body)")
            #expect(strict.body.contains(message), "\(strict.body)")
            #expect(!strict.body.contains("\"data\""))
            let legacy = try call(running, post(body, accept: "application/json"))
            #expect(legacy.status == 200, "\(body)")
            #expect(legacy.contentType == "application/json; charset=utf-8")
            #expect(legacy.body == strict.body)
        }
        await running.stop()
    }

    @Test func refusesMalformedRequests() async throws {
        let running = try await Self.server()
        #expect(try call(running, post("{nope")).status == 400)
        #expect(try call(running, post("{nope", accept: "application/json")).status == 400)
        #expect(try call(running, post(#"{"query":1}"#)).body.contains("The \\\"query\\\" parameter must be a string."))
        #expect(try call(running, post(#"{"query":"{ hello }","variables":[]}"#)).status == 400)
        #expect(try call(running, post("\"text\"")).status == 400)
        #expect(try call(running, post(#"{"query":"{ hello }"}"#, accept: "text/html")).status == 406)
        #expect(try call(running, post(#"{"query":"{ hello }"}"#, accept: "application/json; charset=latin1")).status == 406)
        let form = try call(
            running,
            post("query=%7Bhello%7D", contentType: "application/x-www-form-urlencoded", extra: ["-H", "GraphQL-Require-Preflight: 1"]))
        #expect(form.status == 415)
        // The media type is read without regard to case, its parameters and the spaces around it left out.
        let hello = #"{"query":"{ hello }"}"#
        #expect(try call(running, post(hello, contentType: "Application/JSON ; charset=utf-8")).status == 200)
        // The server's parser trims around a field's value; the tab before the `;` reaches the endpoint.
        #expect(try call(running, post(hello, contentType: "APPLICATION/json\t; charset=utf-8")).status == 200)
        for near in ["application/jsonx", "application/jso", "application/json+x; charset=utf-8", "text/json"] {
            #expect(
                try call(running, post(hello, contentType: near, extra: ["-H", "GraphQL-Require-Preflight: 1"])).status == 415,
                "\(near)")
        }
        let put = try call(running, ["-X", "PUT", "-H", "Content-Type: application/json", "--data", "{}"])
        #expect(put.status == 405)
        #expect(put.headers.contains("Allow: GET, POST"))
        await running.stop()
    }

    @Test func negotiatesTheMediaTypeByQuality() async throws {
        let running = try await Self.server()
        let body = #"{"query":"{ hello }"}"#
        let expectations: [(String, String)] = [
            ("application/graphql-response+json, application/json;q=0.9", "application/graphql-response+json; charset=utf-8"),
            ("application/graphql-response+json;q=0.5, application/json", "application/json; charset=utf-8"),
            // The spec's SHOULD for legacy clients: a wildcard, or no Accept at all, gets application/json.
            ("*/*", "application/json; charset=utf-8"),
            ("application/*", "application/json; charset=utf-8"),
            ("", "application/json; charset=utf-8"),
            ("application/graphql-response+json, */*", "application/graphql-response+json; charset=utf-8"),
            ("application/json, */*;q=0.1", "application/json; charset=utf-8"),
        ]
        for (accept, contentType) in expectations {
            #expect(try call(running, post(body, accept: accept)).contentType == contentType, "\(accept)")
        }
        await running.stop()
    }

    @Test func servesQueriesOverGetButNotMutations() async throws {
        let running = try await Self.server()
        let preflight = ["-H", "GraphQL-Require-Preflight: 1"]
        let query = try call(
            running,
            ["-G", "--data-urlencode", "query=query($n: String) { hello(name: $n) }", "--data-urlencode", #"variables={"n":"Bo"}"#]
                + preflight)
        #expect(query.status == 200)
        #expect(query.body == #"{"data":{"hello":"Hello, Bo!"}}"#)
        let mutation = try call(running, ["-G", "--data-urlencode", "query=mutation { bump }"] + preflight)
        #expect(mutation.status == 405)
        #expect(mutation.headers.contains("Allow: POST"))
        let badVariables = try call(running, ["-G", "--data-urlencode", "query={ hello }", "--data-urlencode", "variables={"] + preflight)
        #expect(badVariables.status == 400)
        await running.stop()
    }

    @Test func blocksRequestsABrowserCouldSendCrossSite() async throws {
        let running = try await Self.server()
        let get = try call(running, ["-G", "--data-urlencode", "query={ hello }"])
        #expect(get.status == 400)
        #expect(get.body.contains("Cross-Site Request Forgery"))
        let form = try call(running, post("query={hello}", contentType: "text/plain"))
        #expect(form.status == 400)
        #expect(form.body.contains("Cross-Site Request Forgery"))
        let apollo = try call(running, ["-G", "--data-urlencode", "query={ hello }", "-H", "X-Apollo-Operation-Name: Q"])
        #expect(apollo.status == 200)
        await running.stop()
    }

    @Test func runsBatchesUpToTheLimit() async throws {
        let running = try await Self.server()
        let two = try call(running, post(#"[{"query":"{ hello }"},{"query":"{ nope }"}]"#))
        #expect(two.status == 200)
        #expect(two.body.hasPrefix(#"[{"data":{"hello":"Hello, world!"}},{"errors":[{"message":"Cannot query field"#))
        let three = try call(running, post(#"[{"query":"{ hello }"},{"query":"{ hello }"},{"query":"{ hello }"}]"#))
        #expect(three.status == 400)
        #expect(three.body.contains("at most 2 operations"))
        #expect(try call(running, post("[]")).status == 400)
        await running.stop()
    }

    @Test func supportsAutomaticPersistedQueries() async throws {
        let running = try await Self.server()
        let query = "{ hello }"
        let hash = "b2a8d1d0f6d0c7e0bb2bcb8fb2e4d0c3c7a2d8e8f5f6a1b9c4d3e2f1a0b9c8d7"
        // A hash nobody registered yet.
        let unknown = try call(running, post(#"{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"\#(hash)"}}}"#))
        #expect(unknown.status == 200)
        #expect(unknown.body == #"{"errors":[{"message":"PersistedQueryNotFound","extensions":{"code":"PERSISTED_QUERY_NOT_FOUND"}}]}"#)
        let mismatch = try call(
            running, post(#"{"query":"\#(query)","extensions":{"persistedQuery":{"version":1,"sha256Hash":"\#(hash)"}}}"#))
        #expect(mismatch.status == 400)
        #expect(mismatch.body.contains("provided sha does not match query"))
        // sha256("{ hello }"), as `printf '{ hello }' | sha256sum` gives it.
        let realHash = "001c3174e099bd72b729d0c0a529ba9f5a740c446e2a6e1d71b283cb84ec3065"
        let registered = try call(
            running, post(#"{"query":"\#(query)","extensions":{"persistedQuery":{"version":1,"sha256Hash":"\#(realHash)"}}}"#))
        #expect(registered.body == #"{"data":{"hello":"Hello, world!"}}"#)
        let byHash = try call(running, post(#"{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"\#(realHash)"}}}"#))
        #expect(byHash.body == #"{"data":{"hello":"Hello, world!"}}"#)
        await running.stop()
    }

    @Test func passesExtensionsToTheContext() async throws {
        let running = try await Self.server()
        let answer = try call(running, post(#"{"query":"{ context }","extensions":{"tag":"from-client"}}"#))
        #expect(answer.body == #"{"data":{"context":"from-client"}}"#)
        await running.stop()
    }

    @Test func allowsOnlyConfiguredOrigins() async throws {
        let running = try await Self.server()
        let allowed = try call(running, post(#"{"query":"{ hello }"}"#, extra: ["-H", "Origin: https://app.example"]))
        #expect(allowed.headers.contains("Access-Control-Allow-Origin: https://app.example"))
        let other = try call(running, post(#"{"query":"{ hello }"}"#, extra: ["-H", "Origin: https://evil.example"]))
        #expect(!other.headers.contains("Access-Control-Allow-Origin"))
        let preflight = try call(
            running, ["-X", "OPTIONS", "-H", "Origin: https://app.example", "-H", "Access-Control-Request-Method: POST"])
        #expect(preflight.status == 204)
        #expect(preflight.headers.contains("Access-Control-Allow-Methods: GET, POST, OPTIONS"))
        let refusedPreflight = try call(running, ["-X", "OPTIONS", "-H", "Origin: https://evil.example"])
        #expect(refusedPreflight.status == 403)
        await running.stop()
    }

    @Test func everyRequestErrorCarriesACode() async throws {
        let running = try await Self.server()
        let cases: [(body: String, code: String)] = [
            (#"{"query":"{ hello "}"#, "GRAPHQL_PARSE_FAILED"),
            (#"{"query":"{ nope }"}"#, "GRAPHQL_VALIDATION_FAILED"),
            (#"{"query":"query Q($n: String!) { hello(name: $n) }"}"#, "BAD_USER_INPUT"),
            (#"{"query":"query Q($n: String) { hello(name: $n) }","variables":{"n":1}}"#, "BAD_USER_INPUT"),
            (#"{"query":"query A { hello } query B { hello }"}"#, "OPERATION_RESOLUTION_FAILURE"),
            (#"{"query":"query A { hello }","operationName":"C"}"#, "OPERATION_RESOLUTION_FAILURE"),
            (#"{"variables":{}}"#, "BAD_REQUEST"),
            ("{nope", "BAD_REQUEST"),
            (#"{"query":1}"#, "BAD_REQUEST"),
        ]
        for (body, code) in cases {
            let answer = try call(running, post(body))
            #expect(answer.body.contains(#""extensions":{"code":"\#(code)"}"#), "\(body): \(answer.body)")
        }
        await running.stop()
    }

    @Test func refusesABodyThatIsNotUTF8() async throws {
        let running = try await Self.server()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("huddle-body-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        // `{"query":"{ hello(name: \"X\") }"}` with X a lone continuation byte, then an overlong slash.
        for bad in [[UInt8(0x80)], [0xC0, 0xAF], [0xED, 0xA0, 0x80]] {
            let body = Array(#"{"query":"{ hello(name: \""#.utf8) + bad + Array(#"\") }"}"#.utf8)
            try Data(body).write(to: file)
            let answer = try call(running, ["-X", "POST", "-H", "Content-Type: application/json", "--data-binary", "@\(file.path)"])
            #expect(answer.status == 400)
            #expect(answer.body.contains("The request body is not valid UTF-8."))
        }
        try Data(#"{"query":"{ hello(name: \"Zoë 🎾\") }"}"#.utf8).write(to: file)
        let good = try call(running, ["-X", "POST", "-H", "Content-Type: application/json", "--data-binary", "@\(file.path)"])
        #expect(good.body == #"{"data":{"hello":"Hello, Zoë 🎾!"}}"#)
        await running.stop()
    }

    static func server(_ configure: (inout GraphQLOverHTTP.Configuration) -> Void) async throws -> RunningServer {
        var configuration = GraphQLOverHTTP.Configuration()
        configure(&configuration)
        let endpoint = GraphQLOverHTTP(schema: Self.endpoint.schema, configuration: configuration)
        return try await RunningServer(handler: { request in
            await endpoint.respond(to: request) ?? HTTPResponse(status: 404)
        })
    }

    @Test func refusesIntrospectionWhenSwitchedOff() async throws {
        let closed = try await Self.server { $0.operations.allowsIntrospection = false }
        let schema = try call(closed, post(#"{"query":"{ __schema { queryType { name } } }"}"#))
        #expect(schema.status == 400)
        #expect(
            schema.body
                == #"{"errors":[{"message":"GraphQL introspection has been disabled, but the requested query contained the field \"__schema\".","locations":[{"line":1,"column":3}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}},{"message":"GraphQL introspection has been disabled, but the requested query contained the field \"queryType\".","locations":[{"line":1,"column":14}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}"#
        )
        #expect(
            try call(closed, post(#"{"query":"{ a: __type(name: \"Query\") { name } }"}"#)).body.contains(
                "contained the field \\\"__type\\\""))
        #expect(
            try call(closed, post(#"{"query":"{ __typename hello }"}"#)).body == #"{"data":{"__typename":"Query","hello":"Hello, world!"}}"#
        )
        await closed.stop()
        let open = try await Self.server { _ in }
        #expect(
            try call(open, post(#"{"query":"{ __schema { queryType { name } } }"}"#)).body
                == #"{"data":{"__schema":{"queryType":{"name":"Query"}}}}"#)
        await open.stop()
    }

    @Test func leavesSuggestionsOutWhenSwitchedOff() async throws {
        let misspelt = #"{"query":"{ helo }"}"#
        let badEnum = #"{"query":"query ($n: String) { hello(name: $n) nope: helo }"}"#
        let open = try await Self.server { _ in }
        #expect(try call(open, post(misspelt)).body.contains(#"Cannot query field \"helo\" on type \"Query\". Did you mean \"hello\"?"#))
        await open.stop()
        let closed = try await Self.server { $0.operations.hidesSuggestions = true }
        let answer = try call(closed, post(misspelt))
        #expect(answer.body.contains(#"Cannot query field \"helo\" on type \"Query\".""#))
        #expect(!answer.body.contains("Did you mean"))
        #expect(!(try call(closed, post(badEnum)).body.contains("Did you mean")))
        await closed.stop()
    }

    @Test func refusesAnOperationOverItsLimitsAndReportsItsCostWhenAsked() async throws {
        let running = try await Self.server {
            $0.operations.executionLimits.maxCost = 3
            $0.operations.executionLimits.maxAliases = 1
        }
        let costly = try call(running, post(#"{"query":"{ a: hello b: context }"}"#))
        #expect(costly.status == 400)
        #expect(costly.body.contains(#""extensions":{"code":"ALIAS_LIMIT_EXCEEDED","aliases":2,"limit":1}"#))
        let over = try call(running, post(#"{"query":"{ hello context broken c: hello }"}"#, accept: "application/json"))
        #expect(over.status == 200)
        #expect(
            over.body
                == #"{"errors":[{"message":"The operation's cost is 4, over the limit of 3. Ask for fewer items (first/last) or fewer nested lists.","extensions":{"code":"COST_LIMIT_EXCEEDED","cost":4,"limit":3}}]}"#
        )
        let reported = try call(running, post(#"{"query":"{ hello context }","extensions":{"cost":true}}"#))
        #expect(
            reported.body
                == #"{"data":{"hello":"Hello, world!","context":"none"},"extensions":{"cost":{"requested":2,"limit":3,"depth":1}}}"#)
        #expect(try call(running, post(#"{"query":"{ hello context }"}"#)).body == #"{"data":{"hello":"Hello, world!","context":"none"}}"#)
        await running.stop()
    }

    @Test func servesTheSchemaAsSDL() async throws {
        let running = try await Self.server()
        let answer = try call(running, [], path: "/graphql/schema.graphql")
        #expect(answer.status == 200)
        #expect(answer.body.hasPrefix("type Query {\n  hello(name: String = \"world\"): String"))
        await running.stop()
    }
}

/// What /metrics counts, through real requests.
@Suite(.serialized) struct MetricsTests {
    @Test func countsRequestsByOperationTypeAndStatusAndTheirLatency() async throws {
        let metrics = Metrics()
        let endpoint = GraphQLOverHTTPTests.endpoint
        let running = try await RunningServer(
            configure: { $0.metrics = metrics },
            handler: { request in
                await endpoint.respond(to: request) ?? HTTPResponse(status: 404)
            })
        let url = "http://127.0.0.1:\(running.port)/graphql"
        for body in [#"{"query":"{ hello }"}"#, #"{"query":"{ hello }"}"#, #"{"query":"mutation { bump }"}"#, #"{"query":"{ nope }"}"#] {
            _ = try curl([
                "-H", "Content-Type: application/json", "-H", "Accept: application/graphql-response+json", "--data-binary", body, url,
            ])
        }
        _ = try curl(["http://127.0.0.1:\(running.port)/elsewhere"])
        await running.stop()
        let text = metrics.renderHTTP()
        #expect(text.contains(#"huddle_http_requests_total{operation_type="query",status="200"} 2"#))
        #expect(text.contains(#"huddle_http_requests_total{operation_type="mutation",status="200"} 1"#))
        #expect(text.contains(#"huddle_http_requests_total{operation_type="none",status="400"} 1"#))
        #expect(text.contains(#"huddle_http_requests_total{operation_type="none",status="404"} 1"#))
        #expect(text.contains(#"huddle_http_request_duration_seconds_bucket{le="+Inf"} 5"#))
        #expect(text.contains("huddle_http_request_duration_seconds_count 5\n"))
        #expect(text.contains("huddle_open_connections 0\n"))
    }

    @Test func countsWebSocketsAndTheOperationsRunningOnThem() async throws {
        let metrics = Metrics()
        let endpoint = GraphQLOverWebSocket(schema: GraphQLTransportWSTests.endpoint.schema, metrics: metrics)
        let running = try await RunningServer(
            configure: {
                $0.metrics = metrics
                $0.drainTimeout = .milliseconds(100)
            },
            webSocket: endpoint.service(allowedOrigins: []),
            handler: { _ in HTTPResponse(status: 404) }
        )
        let client = try WebSocketClient(port: running.port)
        client.send(#"{"type":"connection_init"}"#)
        #expect(client.next()?.text == #"{"type":"connection_ack"}"#)
        client.send(#"{"id":"1","type":"subscribe","payload":{"query":"subscription { forever }"}}"#)
        client.send(#"{"type":"ping"}"#)
        #expect(client.next()?.text == #"{"type":"pong"}"#)
        #expect(metrics.renderHTTP().contains("huddle_open_websockets 1\n"))
        #expect(metrics.activeSubscriptions == 1)
        client.send(#"{"id":"1","type":"complete"}"#)
        client.send(#"{"type":"ping"}"#)
        #expect(client.next()?.text == #"{"type":"pong"}"#)
        // The cancelled operation's task winds down on the loop.
        for _ in 0..<100 where metrics.activeSubscriptions != 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(metrics.activeSubscriptions == 0)
        await running.stop()
        #expect(metrics.renderHTTP().contains("huddle_open_websockets 0\n"))
    }
}
