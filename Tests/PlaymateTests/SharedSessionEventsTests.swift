import Foundation
import GraphQL
import GraphQLTransport
import Playmate
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Subscribers of one session event share its run (issue 42): a
/// differential run of two servers on one database, one sharing runs and
/// one running each subscriber's own, the same subscribers on each; every
/// message must be byte for byte the same, and the sharing server runs
/// each event once per document, or once per viewer where the run read who
/// asks.
@Suite(.enabled(if: TestDatabase.available), .serialized, .hangGuard)
struct SharedSessionEventsTests {
    static let documents = [
        // Nothing here reads who asks: one run for everyone.
        "subscription($id: ID!) { sessionUpdated(sessionId: $id) { kind sessionId } }",
        "subscription Watch($id: ID!) { e: sessionUpdated(sessionId: $id) { kind } }",
        // Loaders that never ask who is asking (the session, its players,
        // the actor): one run for everyone as well.
        "subscription($id: ID!) { sessionUpdated(sessionId: $id) { kind actor { username } session { occupied openSpots players { username } } } }",
        // A field about the viewer.
        "subscription($id: ID!) { sessionUpdated(sessionId: $id) { kind session { viewerIsPlayer occupied } } }",
    ]

    @Test func sharedRunsAnswerAsEachSubscribersOwnRunWould() async throws {
        let executions = SharedEventExecutions()
        try await TestDatabase.withScratchDatabase { url in
            let sharing = try await TestServer.start(databaseURL: url, mounting: [Playmate.self]) {
                $0.operations.sharedEvents = executions
            }
            let apart = try await TestServer.start(databaseURL: url, mounting: [Playmate.self]) { $0.operations.sharedEvents = nil }
            do {
                let users = try await sharing.makeUsers(4, prefix: "shared")
                let (ana, bob, cid, dee) = (users[0], users[1], users[2], users[3])
                let session = try await sharing.graphql(SessionTests.create, SessionTests.input(), token: ana.token)
                let sessionID = try #require(session["data"]["createSportsSession"]["id"].string)

                // Ana twice, Cid and Dee once, each document, on each server.
                let watchers = [ana, ana, cid, dee]
                var sockets: [(server: Int, document: Int, watcher: Int, client: WebSocketClient)] = []
                for (serverIndex, server) in [sharing, apart].enumerated() {
                    for (documentIndex, document) in Self.documents.enumerated() {
                        for (watcherIndex, watcher) in watchers.enumerated() {
                            let client = try subscriber(port: server.port, token: watcher.token)
                            let payload = try JSONSerialization.data(
                                withJSONObject: ["query": document, "variables": ["id": sessionID]])
                            client.send(#"{"id":"1","type":"subscribe","payload":\#(String(decoding: payload, as: UTF8.self))}"#)
                            sockets.append((serverIndex, documentIndex, watcherIndex, client))
                        }
                    }
                    try await waitForSubscriptions(Self.documents.count * watchers.count, server: server)
                }

                // Bob joins, then leaves once everyone has heard it.
                var heard: [[String]] = Array(repeating: [], count: sockets.count)
                for mutation in ["joinSportsSession", "leaveSportsSession"] {
                    let answer = try await sharing.graphql(
                        "mutation($id: ID!) { \(mutation)(sessionId: $id) { id } }", ["id": sessionID], token: bob.token)
                    #expect(answer["errors"].isNull, "\(answer)")
                    for (index, socket) in sockets.enumerated() { heard[index].append(socket.client.next()?.text ?? "nothing") }
                }

                for (index, socket) in sockets.enumerated() where socket.server == 0 {
                    let twin = try #require(
                        sockets.indices.first {
                            sockets[$0].server == 1 && sockets[$0].document == socket.document && sockets[$0].watcher == socket.watcher
                        })
                    #expect(heard[index] == heard[twin], "document \(socket.document), watcher \(socket.watcher)")
                    #expect(heard[index].allSatisfy { $0.hasPrefix(#"{"id":"1","type":"next","payload":{"data":"#) }, "\(heard[index])")
                }
                // What each says, once: Ana (the creator) plays, Cid does not.
                let viewerIsPlayer = sockets.indices.filter { sockets[$0].server == 0 && sockets[$0].document == 3 }.map {
                    heard[$0][0].contains(#""viewerIsPlayer":true"#)
                }
                #expect(viewerIsPlayer == [true, true, false, false])
                #expect(heard[0][0].contains(#""kind":"PLAYER_JOINED""#) && heard[0][1].contains(#""kind":"PLAYER_LEFT""#))

                // Per event: one run for each of the first three documents,
                // one per viewer (Ana, Cid, Dee) for the last.
                #expect(executions.runs.load(ordering: .relaxed) == 2 * (1 + 1 + 1 + 3))
                #expect(executions.shared.load(ordering: .relaxed) == 2 * (Self.documents.count * watchers.count - 6))
            } catch {
                await sharing.stopped()
                await apart.stopped()
                throw error
            }
            await sharing.stopped()
            await apart.stopped()
        }
    }
}
