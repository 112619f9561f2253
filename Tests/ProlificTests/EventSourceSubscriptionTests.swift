import Foundation
import HuddleServer
import PostgresTestSupport
import Prolific
import ServerTestSupport
import TestSupport
import Testing

/// Subscriptions as a browser's EventSource asks for them: a GET of the
/// stream (graphql-sse allows it: a subscription changes nothing), read by
/// sseclient-py (Tests/clients/incremental_clients.py, `watch`); and ended
/// with `complete` when the server shuts down, not cut off at the end of
/// its grace period.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct EventSourceSubscriptionTests {
    static func watch(_ project: String) -> String {
        "subscription { roundEnded(projectId: \"\(project)\") { round { number } winner { text } } }"
    }

    /// Waits until the server has `count` subscriptions running.
    static func subscribed(_ server: TestServer, _ count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while try await server.metric("huddle_active_subscriptions") != count {
            try #require(ContinuousClock.now < deadline, "the subscription did not start")
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test func aGETSubscribesAsAnEventSourceDoes() async throws {
        try await TestServer.with(mounting: [Prolific.self]) { server in
            let users = try await server.makeUsers(2, prefix: "watch")
            let story = try await ProlificFixtures.project(server, token: users[0].token, title: "Watched")
            _ = try await ProlificFixtures.snippet(server, token: users[1].token, round: story.round, text: "And then, the end.")
            let watcher = try ClientProcess.python("incremental_clients.py", ["watch", String(server.port), Self.watch(story.id)])
            try await Self.subscribed(server, 1)
            try await ProlificFixtures.endNow([story.round], server: server)
            // The event written, the server stops and the stream says it is complete.
            let deadline = ContinuousClock.now + .seconds(120)
            while try await server.metric("huddle_subscription_events_total") < 1 {
                try #require(ContinuousClock.now < deadline, "no event was written")
                try await Task.sleep(for: .milliseconds(20))
            }
            await server.stopped()
            let outcome = try await watcher.finished()
            #expect(outcome.status == 0, "\(outcome.errors)")
            let lines = outcome.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(lines.first == "200 text/event-stream; charset=utf-8", "\(outcome.output)")
            #expect(
                lines.contains(#"next {"data":{"roundEnded":{"round":{"number":1},"winner":{"text":"And then, the end."}}}}"#),
                "\(outcome.output)")
            #expect(lines.last == "complete", "\(outcome.output)")
        }
    }

    @Test func aMutationOverGETIsStillRefused() async throws {
        try await TestServer.with(mounting: [Prolific.self]) { server in
            let outcome = try await ClientProcess.run(
                "curl",
                [
                    "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Accept: text/event-stream",
                    "http://127.0.0.1:\(server.port)/graphql/stream?query=mutation%20%7B%20logOut%20%7D",
                ])
            #expect(outcome.output == "405", "\(outcome.output)")
            // A HEAD would start a subscription only to drop it.
            let head = try await ClientProcess.run(
                "curl",
                [
                    "-s", "-I", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Accept: text/event-stream",
                    "http://127.0.0.1:\(server.port)/graphql/stream?query=subscription%20%7B%20roundEnded%20%7B%20round%20%7B%20number%20%7D%20%7D%20%7D",
                ])
            #expect(head.output == "405", "\(head.output)")
        }
    }

    /// With a grace period far longer than the test, an open stream still
    /// ends at once, with `complete`.
    @Test func shuttingDownCompletesOpenStreams() async throws {
        try await TestDatabase.withScratchDatabase { url in
            let server = try await TestServer.start(databaseURL: url, mounting: [Prolific.self]) { configuration in
                configuration.http.shutdownGracePeriod = .seconds(600)
            }
            let users = try await server.makeUsers(1, prefix: "grace")
            let story = try await ProlificFixtures.project(server, token: users[0].token, title: "Still open")
            let watchers = try (0..<2).map { _ in
                try ClientProcess.python("incremental_clients.py", ["watch", String(server.port), Self.watch(story.id)])
            }
            try await Self.subscribed(server, 2)
            await server.stopped()
            for watcher in watchers {
                let outcome = try await watcher.finished()
                #expect(outcome.output.split(separator: "\n").last?.trimmingCharacters(in: .whitespaces) == "complete", "\(outcome.output)")
            }
        }
    }
}
