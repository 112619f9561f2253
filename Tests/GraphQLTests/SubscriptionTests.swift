import GraphQL
import Synchronization
import TestSupport
import Testing

/// CreateSourceEventStream and MapSourceToResponseEvent, with cancellation.
@Suite struct SubscriptionTests {
    struct Invitation: Sendable {
        var id: Int
        var from: String
    }

    /// Counts the contexts made, and whether the source stream was ended.
    final class Probe: Sendable {
        let contexts = Atomic<Int>(0)
        let terminated = Atomic<Bool>(false)
    }

    func schema(_ probe: Probe, events: [Invitation], failFirst: Bool = false) throws -> ExecutableSchema {
        var builder = ExecutableSchema.Builder(
            schema: try buildSchema(
                """
                type Query { a: Int }
                type Subscription { invitationReceived(to: ID!): Invitation! }
                type Invitation { id: ID! from: String! }
                """))
        builder.resolve("Query", "a") { _ in .null }
        builder.subscribe("Subscription", "invitationReceived") { input in
            if failFirst { throw GraphQLError.coded("Not signed in", code: "UNAUTHENTICATED") }
            return AsyncThrowingStream { continuation in
                for event in events { continuation.yield(.object(event)) }
                // Left open, as a live feed is, until the subscriber goes away.
                continuation.onTermination = { _ in probe.terminated.store(true, ordering: .relaxed) }
            }
        }
        builder.resolve("Subscription", "invitationReceived") { input in
            guard case .object(let event) = input.parent else { return .null }
            return .object(event)
        }
        builder.resolve("Invitation", "id") { input in
            guard case .object(let invitation as Invitation) = input.parent else { return .null }
            return .value(.int(invitation.id))
        }
        builder.resolve("Invitation", "from") { input in
            guard case .object(let invitation as Invitation) = input.parent else { return .null }
            return .value(.string(invitation.from))
        }
        return try builder.build()
    }

    @Test(.hangGuard)
    func eachEventIsItsOwnResponseAndStoppingEndsTheSource() async throws {
        let probe = Probe()
        let source = Source(body: "subscription { invitationReceived(to: 1) { id from } }")
        let result = await subscribe(
            schema: try schema(
                probe, events: [Invitation(id: 1, from: "Ana"), Invitation(id: 2, from: "Bo"), Invitation(id: 3, from: "Cy")]),
            document: try parse(source), source: source,
            context: {
                probe.contexts.add(1, ordering: .relaxed)
                return ()
            }
        )
        guard case .stream(let responses) = result else {
            Issue.record("no stream")
            return
        }
        let received = Mutex<[String]>([])
        // The subscriber, as a connection would run it: cancelled when its client goes.
        let consumer = Task {
            for await response in responses {
                received.withLock { $0.append(response.json()) }
            }
        }
        while received.withLock({ $0.count }) < 3 { await Task.yield() }
        consumer.cancel()
        await consumer.value
        #expect(
            received.withLock { $0 } == [
                #"{"data":{"invitationReceived":{"id":"1","from":"Ana"}}}"#,
                #"{"data":{"invitationReceived":{"id":"2","from":"Bo"}}}"#,
                #"{"data":{"invitationReceived":{"id":"3","from":"Cy"}}}"#,
            ])
        // One context to subscribe, then one per event executed.
        #expect(probe.contexts.load(ordering: .relaxed) == 4)
        // Cancelling the subscriber ends the response stream, and with it the source.
        while !probe.terminated.load(ordering: .relaxed) { await Task.yield() }
    }

    @Test func subscribeErrorsComeBackWithoutAStream() async throws {
        let source = Source(body: "subscription { invitationReceived(to: 1) { id } }")
        let result = await subscribe(schema: try schema(Probe(), events: [], failFirst: true), document: try parse(source), source: source)
        guard case .failure(let failure) = result else {
            Issue.record("expected a failure")
            return
        }
        #expect(
            failure.json()
                == #"{"errors":[{"message":"Not signed in","locations":[{"line":1,"column":16}],"path":["invitationReceived"],"extensions":{"code":"UNAUTHENTICATED"}}]}"#
        )
    }

    @Test func aQueryIsNotASubscription() async throws {
        let source = Source(body: "{ a }")
        let result = await subscribe(schema: try schema(Probe(), events: []), document: try parse(source), source: source)
        guard case .failure(let failure) = result else {
            Issue.record("expected a failure")
            return
        }
        #expect(failure.errors.map(\.message) == ["Schema is not configured to execute query operation."])
    }
}
