import ArgumentParser
import Foundation
import GraphQL
import GraphQLTransport
import HuddleRuntime

extension Bench {
    /// What each stage of a small GraphQL request costs on its own, so
    /// that a regression on the request path shows where it is: the HTTP
    /// request parsed, its JSON body read, the document cache's hit, the
    /// operation measured against the limits, the execution (the measure
    /// memorised, as a cached document has it), the response's JSON, and the
    /// request's log line; and, as a whole, GraphQL over HTTP's answer to
    /// the parsed request (the stages above but the log line, and the
    /// transport's own work between them), as wrk asks and with the Accept
    /// header of a GraphQL client. One loop thread, no I/O; the sum is not
    /// the server's time per request (the kernel's part, the tasks and the
    /// connection's state are not in it), the parts are what a change moves.
    struct RequestStages: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "request-stages",
            abstract: "Time each stage of { __typename } and { me { id } } on their own: name, bytes, ns per call."
        )

        @OptionGroup var timing: TimingOptions

        static let stages = [
            "http-parse", "json-read", "document-cache-hit", "limits-measure", "execute", "json-write", "graphql-over-http",
            "graphql-over-http-accept", "log-line",
        ]

        @Option(help: "Time this stage alone (a profiler's run): one of \(stages.joined(separator: ", ")).")
        var stage: String?

        func validate() throws {
            if let stage, !Self.stages.contains(stage) {
                throw ValidationError("No stage \(stage); the stages are \(Self.stages.joined(separator: ", ")).")
            }
        }

        static let sdl = "type Query { me: User } type User { id: ID! name: String }"

        func run() async throws {
            let schema = try buildSchema(Self.sdl)
            var builder = ExecutableSchema.Builder(schema: schema)
            builder.resolve("Query", "me") { _ in .value(.object([.init("id", .string("VXNlcjox")), .init("name", .string("Ana"))])) }
            builder.readFieldsByName("User")
            let executable = try builder.build()
            let cache = DocumentCache(schema: schema)
            var limits = ExecutionLimits.default
            // Its timer is the server loop's (DeadlineScheduling); here there is no loop.
            limits.maxExecutionTime = nil
            var configuration = GraphQLOverHTTP.Configuration()
            configuration.operations.executionLimits = limits
            let transport = GraphQLOverHTTP(schema: executable, configuration: configuration)
            for query in ["{ __typename }", "{ me { id } }"] {
                try await measure(query, executable: executable, cache: cache, limits: limits, transport: transport)
            }
        }

        private func measure(
            _ query: String, executable: ExecutableSchema, cache: DocumentCache, limits: ExecutionLimits, transport: GraphQLOverHTTP
        ) async throws {
            let label = query == "{ __typename }" ? "typename" : "me"
            let body = Array(#"{"query":"\#(query)"}"#.utf8)
            let request =
                Array(
                    "POST /graphql HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
                        .utf8)
                + body
            func time(_ name: String, _ operation: () throws -> Void) rethrows {
                guard stage == nil || stage == name else { return }
                let nanoseconds = try Measurement.median(rounds: timing.rounds, roundSeconds: timing.roundSeconds) {
                    () throws in try operation()
                }
                Measurement.report(name: "\(label) \(name)", bytes: body.count, nanoseconds: nanoseconds)
            }
            time("http-parse") {
                var parser = HTTPRequestParser()
                guard case .request? = parser.feed(request).first else { preconditionFailure("the request is whole") }
            }
            let reader = JSONReader()
            try time("json-read") { _ = try body.withUnsafeBufferPointer { try reader.read($0) } }
            guard case .valid(let document, let source, let memo) = cache.entry(for: query),
                case .success(let operation) = selectOperation(document, nil)
            else { throw ValidationError("\(query) is not a valid document") }
            time("document-cache-hit") { _ = cache.entry(for: query) }
            time("limits-measure") {
                _ = OperationCost.measure(
                    schema: executable.schema, document: document, operation: operation, variableValues: [:],
                    defaultListSize: limits.defaultListSize)
            }
            let result = await execute(schema: executable, document: document, source: source, limits: limits, memo: memo)
            if stage == nil || stage == "execute" {
                let executed = await Measurement.medianAsync(rounds: timing.rounds, roundSeconds: timing.roundSeconds) {
                    _ = await execute(schema: executable, document: document, source: source, limits: limits, memo: memo)
                }
                Measurement.report(name: "\(label) execute", bytes: body.count, nanoseconds: executed)
            }
            time("json-write") {
                var writer = JSONWriter(capacity: 256)
                result.write(to: &writer)
            }
            var parser = HTTPRequestParser()
            guard case .request(let parsed)? = parser.feed(request).first, await transport.respond(to: parsed)?.status == 200 else {
                throw ValidationError("\(query) is not answered 200")
            }
            if stage == nil || stage == "graphql-over-http" {
                let answered = await Measurement.medianAsync(rounds: timing.rounds, roundSeconds: timing.roundSeconds) {
                    _ = await transport.respond(to: parsed)
                }
                Measurement.report(name: "\(label) graphql-over-http", bytes: body.count, nanoseconds: answered)
            }
            // What the GraphQL clients send (Apollo Client's Accept header, for one).
            var accepting = parsed
            accepting.head.headers.append(HTTPHeader(name: "accept", value: "application/graphql-response+json,application/json;q=0.9"))
            guard await transport.respond(to: accepting)?.status == 200 else { throw ValidationError("\(query) is not answered 200") }
            if stage == nil || stage == "graphql-over-http-accept" {
                let answered = await Measurement.medianAsync(rounds: timing.rounds, roundSeconds: timing.roundSeconds) {
                    _ = await transport.respond(to: accepting)
                }
                Measurement.report(name: "\(label) graphql-over-http-accept", bytes: body.count, nanoseconds: answered)
            }
            let logger = Logger(level: .info, sink: { _ in })
            time("log-line") {
                logger.log(
                    .info, "request",
                    [
                        "method": .string("POST"), "path": .string("/graphql"), "operation": nil, "status": .int(200),
                        "duration_ms": .double(0.412), "bytes": .int(31),
                    ])
            }
        }
    }
}
