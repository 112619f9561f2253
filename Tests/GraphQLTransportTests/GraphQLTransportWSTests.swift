import Foundation
import GraphQL
import GraphQLTransport
import HuddleRuntime
import RuntimeTestSupport
import TestSupport
import Testing

/// graphql-transport-ws over real sockets: every rule and close code of
/// the protocol.
@Suite(.serialized) struct GraphQLTransportWSTests {
    static let endpoint = makeEndpoint()

    static func makeEndpoint(keepAliveInterval: Duration = .seconds(12)) -> GraphQLOverWebSocket {
        let schema = try! buildSchema(
            """
            type Query { hello: String, whoami: String }
            type Subscription { ticks(count: Int!): Int, forever: Int, blobs(count: Int!, size: Int!): String }
            """)
        var builder = ExecutableSchema.Builder(schema: schema)
        builder.resolve("Query", "hello") { _ in .value(.string("world")) }
        builder.resolve("Query", "whoami") { input in .value(.string(input.context as? String ?? "?")) }
        builder.subscribe("Subscription", "ticks") { input in
            guard case .int(let count)? = input.argument("count") else { throw GraphQLError(message: "no count") }
            return AsyncThrowingStream { continuation in
                for tick in 1...max(1, count) { continuation.yield(.value(.int(tick))) }
                continuation.finish()
            }
        }
        builder.subscribe("Subscription", "forever") { _ in AsyncThrowingStream { _ in } }
        builder.subscribe("Subscription", "blobs") { input in
            guard case .int(let count)? = input.argument("count"), case .int(let size)? = input.argument("size") else {
                throw GraphQLError(message: "no count or size")
            }
            let blob = String(repeating: "x", count: size)
            return AsyncThrowingStream { continuation in
                for _ in 0..<count { continuation.yield(.value(.string(blob))) }
                continuation.finish()
            }
        }
        for field in ["ticks", "forever", "blobs"] {
            builder.resolve("Subscription", field) { input in
                if case .value(let value) = input.parent { return .value(value) }
                return .null
            }
        }
        var configuration = GraphQLOverWebSocket.Configuration()
        configuration.connectionInitTimeout = .milliseconds(300)
        configuration.maxSubscriptions = 2
        configuration.keepAliveInterval = keepAliveInterval
        return GraphQLOverWebSocket(schema: try! builder.build(), configuration: configuration) { payload, _ in
            // The same token an HTTP client sends in Authorization.
            guard case .string(let token)? = payload.first(where: { $0.name == "authToken" })?.value, token.hasPrefix("user-") else {
                return nil
            }
            return String(token.dropFirst(5))
        }
    }

    static func server(
        maxUnsentBytes: Int = 4 << 20, sendTimeout: Duration = .seconds(10), endpoint: GraphQLOverWebSocket = endpoint
    ) async throws -> RunningServer {
        var service = endpoint.service(allowedOrigins: [])
        service.maxUnsentBytes = maxUnsentBytes
        return try await RunningServer(
            configure: {
                $0.drainTimeout = .milliseconds(100)
                $0.sendTimeout = sendTimeout
            }, webSocket: service,
            handler: { _ in HTTPResponse(status: 404) }
        )
    }

    /// The server pings each connection every keep-alive interval (from
    /// the loop's one wheel of such timers), whether or not it is busy,
    /// and stops when the socket closes.
    @Test func theServerPingsEachIdleConnection() async throws {
        let running = try await Self.server(endpoint: Self.makeEndpoint(keepAliveInterval: .milliseconds(200)))
        let clients = try (0..<3).map { _ in try WebSocketClient(port: running.port) }
        for client in clients {
            client.skipsKeepAlives = false
            client.initialise()
        }
        for client in clients {
            for _ in 0..<2 {
                #expect(client.next()?.text == #"{"type":"ping"}"#)
                client.send(#"{"type":"pong"}"#)
            }
        }
        // Still a working connection between the pings.
        clients[0].send(#"{"id":"1","type":"subscribe","payload":{"query":"{ hello }"}}"#)
        var answer = clients[0].next()
        while answer?.text == #"{"type":"ping"}"# { answer = clients[0].next() }
        #expect(answer?.text == #"{"id":"1","type":"next","payload":{"data":{"hello":"world"}}}"#)
    }

    /// A subscriber that does not read: the server keeps at most
    /// `maxUnsentBytes` (and what the kernel buffers) for it, and once it
    /// has read nothing for the send timeout, closes (1008).
    @Test func closesOnASubscriberThatDoesNotRead() async throws {
        let running = try await Self.server(maxUnsentBytes: 256 << 10, sendTimeout: .milliseconds(500))
        let client = try WebSocketClient(port: running.port)
        client.initialise()
        // 4,000 events of 16 KiB: 64 MiB, far more than socket buffers hold.
        client.send(#"{"id":"1","type":"subscribe","payload":{"query":"subscription { blobs(count: 4000, size: 16384) }"}}"#)
        // Reading nothing for six send timeouts: stalled, whatever the machine's speed.
        try await Task.sleep(for: .seconds(3))
        var events = 0
        var last: (kind: String, text: String)?
        while let message = client.next() {
            last = message
            if message.kind == "close" { break }
            events += 1
        }
        #expect(events < 4000, "every event was queued for a client that did not read")
        #expect(events > 0)
        #expect(last?.kind != "text" || last?.text.contains("complete") != true)
        await running.stop()
    }

    /// A subscriber that reads slowly is held back, not dropped: its
    /// events wait while the backlog is past `maxUnsentBytes`, and every
    /// one arrives, in order, as it reads.
    @Test func aSubscriberThatReadsSlowlyGetsEveryEvent() async throws {
        let running = try await Self.server(maxUnsentBytes: 64 << 10, sendTimeout: .seconds(20))
        let client = try WebSocketClient(port: running.port)
        client.initialise()
        // 200 events of 16 KiB: 3.2 MiB, fifty times the bound.
        client.send(#"{"id":"1","type":"subscribe","payload":{"query":"subscription { blobs(count: 200, size: 16384) }"}}"#)
        try await Task.sleep(for: .milliseconds(300))
        var events = 0
        var last: (kind: String, text: String)?
        while let message = client.next() {
            last = message
            guard message.kind == "text", message.text.contains(#""type":"next""#) else { break }
            events += 1
            if events % 20 == 0 { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(events == 200)
        #expect(last?.text == #"{"id":"1","type":"complete"}"#)
        await running.stop()
    }

    @Test func runsQueriesAndSubscriptions() async throws {
        let running = try await Self.server()
        let client = try WebSocketClient(port: running.port)
        client.initialise()
        client.send(#"{"id":"1","type":"subscribe","payload":{"query":"{ hello whoami }"}}"#)
        #expect(client.next()?.text == #"{"id":"1","type":"next","payload":{"data":{"hello":"world","whoami":"ada"}}}"#)
        #expect(client.next()?.text == #"{"id":"1","type":"complete"}"#)
        client.send(#"{"id":"2","type":"subscribe","payload":{"query":"subscription($n: Int!) { ticks(count: $n) }","variables":{"n":3}}}"#)
        for tick in 1...3 {
            #expect(client.next()?.text == #"{"id":"2","type":"next","payload":{"data":{"ticks":\#(tick)}}}"#)
        }
        #expect(client.next()?.text == #"{"id":"2","type":"complete"}"#)
        client.send(#"{"type":"ping"}"#)
        #expect(client.next()?.text == #"{"type":"pong"}"#)
        client.send(#"{"id":"3","type":"subscribe","payload":{"query":"{ nope }"}}"#)
        // The error names its operation: the socket's request id, then the operation's.
        let failed = client.next()?.text ?? ""
        #expect(failed.contains(/"requestId":"[0-9a-f]{32}:3"/), "\(failed)")
        #expect(
            failed.replacing(/,"requestId":"[0-9a-f]{32}:3"/, with: "")
                == #"{"id":"3","type":"error","payload":[{"message":"Cannot query field \"nope\" on type \"Query\".","locations":[{"line":1,"column":3}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}"#
        )
        await running.stop()
    }

    @Test func completesASubscriptionTheClientCompletes() async throws {
        let running = try await Self.server()
        let client = try WebSocketClient(port: running.port)
        client.initialise()
        client.send(#"{"id":"f","type":"subscribe","payload":{"query":"subscription { forever }"}}"#)
        client.send(#"{"id":"f","type":"complete"}"#)
        // The id is free again: a duplicate would close 4409.
        client.send(#"{"id":"f","type":"subscribe","payload":{"query":"{ hello }"}}"#)
        #expect(client.next()?.text == #"{"id":"f","type":"next","payload":{"data":{"hello":"world"}}}"#)
        await running.stop()
    }

    @Test func limitsOperationsPerConnection() async throws {
        let running = try await Self.server()
        let client = try WebSocketClient(port: running.port)
        client.initialise()
        client.send(#"{"id":"a","type":"subscribe","payload":{"query":"subscription { forever }"}}"#)
        client.send(#"{"id":"b","type":"subscribe","payload":{"query":"subscription { forever }"}}"#)
        client.send(#"{"id":"c","type":"subscribe","payload":{"query":"subscription { forever }"}}"#)
        #expect(
            client.next()?.text
                == #"{"id":"c","type":"error","payload":[{"message":"Too many active operations on this connection (at most 2)."}]}"#)
        await running.stop()
    }

    @Test func closesWithTheProtocolsCodes() async throws {
        let running = try await Self.server()
        func closeCode(_ steps: (WebSocketClient) -> Void, subprotocol: String? = "graphql-transport-ws") throws -> String? {
            let client = try WebSocketClient(port: running.port, subprotocol: subprotocol)
            steps(client)
            while let frame = client.next() {
                if frame.kind == "close" { return frame.text }
            }
            return nil
        }
        #expect(try closeCode { $0.send("{nope") } == "4400 Invalid message received")
        #expect(try closeCode { $0.send(#"{"type":"dance"}"#) } == "4400 Invalid message received")
        #expect(try closeCode { $0.send(#"{"id":"1","type":"subscribe","payload":{"query":"{ hello }"}}"#) } == "4401 Unauthorized")
        #expect(try closeCode { $0.send(#"{"type":"connection_init","payload":{"authToken":"nobody"}}"#) } == "4403 Forbidden")
        #expect(try closeCode({ _ in }, subprotocol: nil) == "4406 Subprotocol not acceptable")
        #expect(try closeCode { _ in } == "4408 Connection initialisation timeout")
        #expect(
            try closeCode {
                $0.initialise()
                $0.send(#"{"id":"x","type":"subscribe","payload":{"query":"subscription { forever }"}}"#)
                $0.send(#"{"id":"x","type":"subscribe","payload":{"query":"subscription { forever }"}}"#)
            } == "4409 Subscriber for x already exists")
        #expect(
            try closeCode {
                $0.initialise()
                $0.send(#"{"type":"connection_init"}"#)
            } == "4429 Too many initialisation requests")
        await running.stop()
    }
}
