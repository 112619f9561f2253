import Foundation
import HuddleCore
import PostgresTestSupport
import Prolific
import ServerTestSupport
import TestSupport
import Testing

/// A round's end reaches its audience's phones and browsers: pushed by the
/// scheduler after the round-end job commits, decrypted by the Web Push
/// stand-in (http_ece) and each device hearing of it once, with two server
/// processes sharing the work.
@Suite(.enabled(if: TestDatabase.available), .hangGuard, .serialized)
struct RoundEndPushTests {
    /// Registers a Web Push subscription for the token's user; its endpoint.
    static func subscribe(_ server: TestServer, token: String, services: PushServices) async throws -> String {
        let subscription = try services.subscribe()
        let reply = try await server.graphql(
            registerPushEndpoint,
            ["input": ["webPush": ["endpoint": subscription.endpoint, "p256dh": subscription.p256dh, "auth": subscription.auth]]],
            token: token)
        #expect(reply.errorCode == nil, "\(reply)")
        return subscription.endpoint
    }

    @Test func theWinnerAndTheFollowersArePushedTheRoundsEnd() async throws {
        let services = try PushServices()
        try await TestServer.with(mounting: [Prolific.self], pushing(to: services)) { server in
            let users = try await server.makeUsers(3, prefix: "pushed")
            let (owner, writer, follower) = (users[0], users[1], users[2])
            let project = try await ProlificFixtures.project(server, token: owner.token, title: "Harbour Lights")
            _ = try await server.graphql(
                "mutation($id: ID!) { followProject(projectId: $id) { id } }", ["id": project.id], token: follower.token)
            _ = try await ProlificFixtures.snippet(server, token: writer.token, round: project.round, text: "The lamp blinked twice.")
            let writerDevice = try await Self.subscribe(server, token: writer.token, services: services)
            let followerDevice = try await Self.subscribe(server, token: follower.token, services: services)

            try await ProlificFixtures.endNow([project.round], server: server)
            // The writer hears of the end and of the win, the follower of the end.
            let pushes = try await services.waitFor(3, of: "webpush")
            #expect(pushes.count == 3)
            #expect(pushes.allSatisfy { $0["vapid"] as? Bool == true }, "\(pushes)")
            func kinds(_ device: String) -> [String] {
                pushes.filter { device.hasSuffix($0["subscription"] as? String ?? "-") }.compactMap {
                    ($0["payload"] as? [String: Any])?["kind"] as? String
                }.sorted()
            }
            #expect(kinds(writerDevice) == ["ROUND_ENDED", "SNIPPET_WON"], "\(pushes)")
            #expect(kinds(followerDevice) == ["ROUND_ENDED"], "\(pushes)")
            let ended = try #require(pushes.first { ($0["payload"] as? [String: Any])?["kind"] as? String == "ROUND_ENDED" })
            let payload = try #require(ended["payload"] as? [String: Any])
            #expect(payload["title"] as? String == "Prolific: round ended")
            #expect(payload["body"] as? String == "Round 1 of \"Harbour Lights\" has ended.")
            #expect((payload["subjectId"] as? String).flatMap(GlobalID.decode)?.type == "Round", "\(payload)")
        }
    }

    @Test func twoServersPushEachDeviceOnce() async throws {
        let services = try PushServices()
        try await TestServer.withTwo(mounting: [Prolific.self], pushing(to: services)) { first, second in
            let users = try await first.makeUsers(21, prefix: "many")
            let owner = users[0]
            let project = try await ProlificFixtures.project(first, token: owner.token, title: "Many Readers")
            // A round nobody wrote in gets more time rather than ending.
            _ = try await ProlificFixtures.snippet(first, token: owner.token, round: project.round, text: "Once.")
            var devices: [String] = []
            for (index, user) in users.dropFirst().enumerated() {
                let server = index % 2 == 0 ? first : second
                _ = try await server.graphql(
                    "mutation($id: ID!) { followProject(projectId: $id) { id } }", ["id": project.id], token: user.token)
                devices.append(try await Self.subscribe(server, token: user.token, services: services))
            }
            try await ProlificFixtures.endNow([project.round], server: first)
            // The owner wrote, and won: no device of theirs.
            let pushes = try await services.waitFor(20, of: "webpush")
            // Both schedulers had the chance to take each job; a little
            // longer shows that neither sent one twice.
            try await Task.sleep(for: .milliseconds(500))
            let received = try services.received().filter { $0["service"] as? String == "webpush" }
            #expect(pushes.count == 20 && received.count == 20, "\(received.count) pushes for 20 devices")
            let reached = Set(received.compactMap { $0["subscription"] as? String })
            #expect(reached.count == 20 && devices.allSatisfy { device in reached.contains { device.hasSuffix($0) } })
            let sent = try await first.sql("SELECT count(*)::int FROM notice_deliveries WHERE state = 'sent' AND channel = 'WEB_PUSH'")[0]
                .decode(Int.self, at: 0)
            #expect(sent == 20)
        }
    }
}
