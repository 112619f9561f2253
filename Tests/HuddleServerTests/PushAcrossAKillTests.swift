import Foundation
import HuddleCore
import HuddlePush
import HuddleRuntime
import PostgresTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// A server killed while a push is in flight: another server sends what was
/// still pending, once, and nothing that was done. The push in flight
/// reaches its device twice, both carrying the notice's collapse id and tag
/// (`n<id>`), which the platforms and the service worker fold into one.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct PushAcrossAKillTests {
    @Test func theOtherServerSendsOnlyWhatWasPending() async throws {
        let services = try PushServices()
        let scratch = try ScratchDirectory("huddle-kill-push")
        try await TestDatabase.withScratchDatabase { url in
            let first = try await TestServer.launch(
                databaseURL: url,
                arguments: [
                    "--vapid-key", scratch.path("vapid.pem"), "--push-private-networks", "--push-ca-file", services.certificate,
                ])
            let ana = try await first.signUp("ana")
            let bob = try await first.signUp("bob")
            let quick = try services.subscribe(), slow = try services.subscribe(slow: true)
            for subscription in [quick, slow] {
                let reply = try await first.graphql(
                    registerPushEndpoint,
                    ["input": ["webPush": ["endpoint": subscription.endpoint, "p256dh": subscription.p256dh, "auth": subscription.auth]]],
                    token: bob.token)
                #expect(reply.errorCode == nil, "\(reply)")
            }
            _ = try await first.graphql(TestServer.sendFriendRequest, ["id": bob.id], token: ana.token)
            // The quick device's push is done and committed; the slow one's is in flight.
            var quickDone = false
            for _ in 0..<200 {
                let rows = try await first.sql(
                    """
                    SELECT count(*) FILTER (WHERE e.address = $1 AND d.state = 'sent')::int
                    FROM notice_deliveries d JOIN push_endpoints e ON e.id = d.endpoint_id
                    """, [quick.endpoint])
                quickDone = try rows[0].decode(Int.self, at: 0) == 1
                let slowArrived = try services.received().contains { slow.endpoint.hasSuffix($0["subscription"] as? String ?? "-") }
                if quickDone && slowArrived { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(quickDone)
            first.kill()

            // The same VAPID key: the one the browsers subscribed with.
            let key = try PrivateKey(pem: try String(contentsOfFile: scratch.path("vapid.pem"), encoding: .utf8))
            let second = try await TestServer.start(
                databaseURL: url, mounting: everyApp,
                pushing(to: services) { $0.vapid = VAPID(key: key, subject: "mailto:ops@huddle.example") })
            defer { second.stop() }
            var state = ""
            for _ in 0..<300 {
                state =
                    try await second.sql(
                        "SELECT d.state FROM notice_deliveries d JOIN push_endpoints e ON e.id = d.endpoint_id WHERE e.address = $1",
                        [slow.endpoint]
                    ).first?.decode(String.self, at: 0) ?? ""
                if state == "sent" { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(state == "sent")
            let pushes = try services.received().filter { $0["service"] as? String == "webpush" }
            let toQuick = pushes.filter { quick.endpoint.hasSuffix($0["subscription"] as? String ?? "-") }
            let toSlow = pushes.filter { slow.endpoint.hasSuffix($0["subscription"] as? String ?? "-") }
            #expect(toQuick.count == 1, "what was done is not sent again: \(toQuick.count)")
            #expect(toSlow.count == 2, "the push in flight is sent again: \(toSlow.count)")
            let topics = Set(toSlow.compactMap { $0["topic"] as? String })
            let notices = Set(toSlow.compactMap { ($0["payload"] as? [String: Any])?["notificationId"] as? String })
            #expect(topics.count == 1 && notices.count == 1, "both carry one collapse id and notice: \(topics) \(notices)")
            #expect(toSlow.allSatisfy { $0["vapid"] as? Bool == true })
            #expect(
                try await second.sql("SELECT count(*)::int FROM scheduled_jobs WHERE kind = 'notice.deliver'")[0].decode(Int.self, at: 0)
                    == 0)
        }
    }

    /// Every process of a deployment must push with the key its browsers
    /// subscribed with: one started with another pushes to no browser.
    @Test func aProcessWithAnotherVAPIDKeyPushesToNoBrowser() async throws {
        let scratch = try ScratchDirectory("huddle-two-keys")
        try await TestDatabase.withScratchDatabase { url in
            let first = try await TestServer.launch(databaseURL: url, arguments: ["--vapid-key", scratch.path("a.pem")])
            defer { first.stop() }
            let second = try await TestServer.launch(databaseURL: url, arguments: ["--vapid-key", scratch.path("b.pem")])
            defer { second.stop() }
            let query = "{ webPushPublicKey pushPlatforms }"
            let one = try await first.graphql(query), other = try await second.graphql(query)
            let key = try #require(one["data"]["webPushPublicKey"].string, "\(one)")
            #expect(one["data"]["pushPlatforms"].array.compactMap(\.string) == ["WEB_PUSH"])
            #expect(other["data"]["webPushPublicKey"].isNull && other["data"]["pushPlatforms"].array.isEmpty, "\(other)")
            #expect(try await first.sql("SELECT public_key FROM push_vapid_key")[0].decode(String.self, at: 0) == key)
        }
    }
}
