import Foundation
import GraphQLTransport
import HuddleRuntime
import RuntimeTestSupport
import TestSupport
import Testing

/// The legacy graphql-ws subprotocol (subscriptions-transport-ws) over real sockets.
@Suite(.serialized) struct GraphQLWSLegacyTests {
    typealias Client = WebSocketClient

    @Test func runsOperationsTheLegacyWay() async throws {
        let running = try await GraphQLTransportWSTests.server()
        let client = try Client(port: running.port, subprotocol: "graphql-ws")
        client.skipsKeepAlives = false
        client.send(#"{"id":"0","type":"start","payload":{"query":"{ hello }"}}"#)
        #expect(
            client.next()?.text
                == #"{"id":"0","type":"error","payload":{"message":"Connection not initialised: send connection_init first."}}"#)
        client.send(#"{"type":"connection_init","payload":{"authToken":"user-bo"}}"#)
        #expect(client.next()?.text == #"{"type":"connection_ack"}"#)
        #expect(client.next()?.text == #"{"type":"ka"}"#)
        client.skipsKeepAlives = true
        client.send(#"{"id":"1","type":"start","payload":{"query":"{ whoami }"}}"#)
        #expect(client.next()?.text == #"{"id":"1","type":"data","payload":{"data":{"whoami":"bo"}}}"#)
        #expect(client.next()?.text == #"{"id":"1","type":"complete"}"#)
        client.send(#"{"id":"2","type":"start","payload":{"query":"subscription { ticks(count: 2) }"}}"#)
        #expect(client.next()?.text == #"{"id":"2","type":"data","payload":{"data":{"ticks":1}}}"#)
        #expect(client.next()?.text == #"{"id":"2","type":"data","payload":{"data":{"ticks":2}}}"#)
        #expect(client.next()?.text == #"{"id":"2","type":"complete"}"#)
        client.send(#"{"id":"3","type":"start","payload":{"query":"{ nope }"}}"#)
        // The error names its operation: the socket's request id, then the operation's.
        let failed = client.next()?.text ?? ""
        #expect(failed.contains(/"requestId":"[0-9a-f]{32}:3"/), "\(failed)")
        #expect(
            failed.replacing(/,"requestId":"[0-9a-f]{32}:3"/, with: "")
                == #"{"id":"3","type":"data","payload":{"errors":[{"message":"Cannot query field \"nope\" on type \"Query\".","locations":[{"line":1,"column":3}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}}"#
        )
        #expect(client.next()?.text == #"{"id":"3","type":"complete"}"#)
        client.send(#"{"id":"4","type":"start","payload":{"query":"subscription { forever }"}}"#)
        client.send(#"{"id":"4","type":"stop"}"#)
        client.send(#"{"id":"5","type":"start","payload":{"query":"{ hello }"}}"#)
        #expect(client.next()?.text == #"{"id":"5","type":"data","payload":{"data":{"hello":"world"}}}"#)
        #expect(client.next()?.text == #"{"id":"5","type":"complete"}"#)
        client.send("{nope")
        #expect(client.next()?.text == #"{"type":"connection_error","payload":{"message":"Message must be JSON-parseable."}}"#)
        client.send(#"{"type":"connection_terminate"}"#)
        #expect(client.next()?.text == "1000 ")
        await running.stop()
    }

    @Test func refusesAnUnauthorisedConnection() async throws {
        let running = try await GraphQLTransportWSTests.server()
        let client = try Client(port: running.port, subprotocol: "graphql-ws")
        client.send(#"{"type":"connection_init","payload":{}}"#)
        #expect(client.next()?.text == #"{"type":"connection_error","payload":{"message":"Forbidden"}}"#)
        #expect(client.next()?.text == "1011 Forbidden")
        await running.stop()
    }
}
