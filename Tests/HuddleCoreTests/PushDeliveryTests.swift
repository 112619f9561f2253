import Foundation
import HuddleCore
import HuddlePush
import HuddleRuntime
import HuddleServer
import PostgresTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Notices pushed outside the app, end to end: a real change on the API,
/// then what each platform's stand-in received, checked by an independent
/// implementation of its protocol (Tests/clients/push_services.py).
@Suite(.serialized) struct PushDeliveryTests {
    static let inbox = "{ notifications(first: 10) { edges { node { id kind message deliveredTo } } } }"

    /// Registers a device of each platform for the token's user; their ids.
    static func registerEveryPlatform(
        on server: TestServer, token: String, services: PushServices, gone: Bool = false
    ) async throws -> (webPush: String, apns: String, fcm: String) {
        let subscription = try services.subscribe(gone: gone)
        let web = try await server.graphql(
            registerPushEndpoint,
            ["input": ["webPush": ["endpoint": subscription.endpoint, "p256dh": subscription.p256dh, "auth": subscription.auth]]],
            token: token)
        let apnsToken = (gone ? "dead" : "abcd") + String(repeating: "0123456789abcdef", count: 4).dropFirst(4)
        let apns = try await server.graphql(
            registerPushEndpoint, ["input": ["apns": ["token": apnsToken, "topic": "com.example.huddle", "environment": "DEVELOPMENT"]]],
            token: token)
        let fcm = try await server.graphql(
            registerPushEndpoint, ["input": ["fcm": ["token": (gone ? "gone-" : "") + "fcm:APA91b-registration_token"]]], token: token)
        #expect(web["data"]["registerPushEndpoint"]["platform"].string == "WEB_PUSH", "\(web)")
        #expect(web["data"]["registerPushEndpoint"]["label"].string == "127.0.0.1")
        #expect(apns["data"]["registerPushEndpoint"]["label"].string == "…" + apnsToken.suffix(8), "\(apns)")
        #expect(fcm["data"]["registerPushEndpoint"]["platform"].string == "FCM", "\(fcm)")
        return (
            web["data"]["registerPushEndpoint"]["id"].string ?? "", apns["data"]["registerPushEndpoint"]["id"].string ?? "",
            fcm["data"]["registerPushEndpoint"]["id"].string ?? ""
        )
    }

    @Test func aFriendRequestReachesEveryDeviceAndTheWebhook() async throws {
        let services = try PushServices()
        try await TestServer.with(pushing(to: services)) { server in
            let ana = try await server.signUp("ana")
            let bob = try await server.signUp("bob")
            _ = try await Self.registerEveryPlatform(on: server, token: bob.token, services: services)
            let sent = try await server.graphql(TestServer.sendFriendRequest, ["id": bob.id], token: ana.token)
            #expect(sent.errorCode == nil, "\(sent)")

            let web = try #require(try await services.waitFor(1, of: "webpush").first)
            let key = try await server.graphql("{ webPushPublicKey }")["data"]["webPushPublicKey"].string
            #expect(web["vapid"] as? Bool == true, "\(web)")
            #expect(web["vapidKey"] as? String == key)
            #expect(web["encoding"] as? String == "aes128gcm")
            #expect(web["ttl"] as? String == "86400" && web["urgency"] as? String == "normal", "\(web)")
            let payload = try #require(web["payload"] as? [String: Any])
            #expect(payload["kind"] as? String == "FRIEND_REQUEST_RECEIVED")
            #expect(payload["title"] as? String == "New friend request")
            #expect(payload["body"] as? String == "ana sent you a friend request.")
            let noticeID = try #require(payload["notificationId"] as? String)
            #expect(web["topic"] as? String == "n\(try #require(GlobalID.decode(noticeID)).id)")

            let apns = try #require(try await services.waitFor(1, of: "apns").first)
            #expect(apns["http"] as? String == "2", "APNs is HTTP/2 only: \(apns)")
            #expect(apns["providerToken"] as? Bool == true, "\(apns)")
            #expect(apns["topic"] as? String == "com.example.huddle" && apns["pushType"] as? String == "alert", "\(apns)")
            #expect(apns["collapseId"] as? String == web["topic"] as? String)
            #expect((Int(apns["expiration"] as? String ?? "") ?? 0) > Int(Date().timeIntervalSince1970), "\(apns)")
            let aps = (apns["payload"] as? [String: Any])?["aps"] as? [String: Any]
            #expect((aps?["alert"] as? [String: Any])?["title"] as? String == "New friend request", "\(apns)")
            #expect((apns["payload"] as? [String: Any])?["notificationId"] as? String == noticeID)

            #expect(
                try await services.waitFor(1, of: "oauth").first?["scope"] as? String
                    == "https://www.googleapis.com/auth/firebase.messaging")
            let fcm = try #require(try await services.waitFor(1, of: "fcm").first?["message"] as? [String: Any])
            #expect((fcm["notification"] as? [String: Any])?["title"] as? String == "New friend request", "\(fcm)")
            #expect((fcm["data"] as? [String: Any])?["notificationId"] as? String == noticeID, "\(fcm)")
            #expect((fcm["android"] as? [String: Any])?["collapse_key"] as? String == web["topic"] as? String, "\(fcm)")

            let hook = try #require(try await services.waitFor(1, of: "webhook").first)
            #expect(hook["id"] as? String == "msg_notice_\(try #require(GlobalID.decode(noticeID)).id)")
            let event = try #require(hook["payload"] as? [String: Any])
            #expect(event["type"] as? String == "notice.created")
            #expect((event["data"] as? [String: Any])?["userId"] as? String == bob.id, "\(event)")

            // The inbox says where it went, once the delivery committed.
            var channels: [String] = []
            for _ in 0..<100 {
                let inbox = try await server.graphql(Self.inbox, token: bob.token)
                channels = inbox["data"]["notifications"]["edges"][0]["node"]["deliveredTo"].array.compactMap(\.string)
                if channels.count == 4 { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(channels == ["APNS", "FCM", "WEBHOOK", "WEB_PUSH"])
            for channel in ["WEB_PUSH", "APNS", "FCM", "WEBHOOK"] {
                #expect(
                    try await server.metric("huddle_notice_deliveries_total{channel=\"\(channel)\",outcome=\"sent\"}") == 1, "\(channel)")
            }
            #expect(try services.received().filter { $0["service"] as? String == "error" }.isEmpty)
        }
    }

    @Test func devicesThePlatformsCallGoneAreForgotten() async throws {
        let services = try PushServices()
        try await TestServer.with(pushing(to: services)) { server in
            let ana = try await server.signUp("ana")
            let bob = try await server.signUp("bob")
            _ = try await Self.registerEveryPlatform(on: server, token: bob.token, services: services, gone: true)
            #expect(try await server.graphql("{ pushEndpoints { id } }", token: bob.token)["data"]["pushEndpoints"].array.count == 3)
            _ = try await server.graphql(TestServer.sendFriendRequest, ["id": bob.id], token: ana.token)
            #expect(try await services.waitFor(1, of: "webhook").count == 1)
            var left = -1
            for _ in 0..<100 {
                left = try await server.graphql("{ pushEndpoints { id } }", token: bob.token)["data"]["pushEndpoints"].array.count
                if left == 0 { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(left == 0, "410 from Web Push and APNs, 404 UNREGISTERED from FCM each remove the device")
        }
    }

    /// A device belongs to whoever registered it last, and an account keeps
    /// its newest `push-endpoints-per-user` devices.
    @Test func aDeviceMovesToItsLatestUserAndAccountsKeepTheirNewest() async throws {
        let services = try PushServices()
        let limited: @Sendable (inout HuddleServer.Configuration) -> Void = { configuration in
            pushing(to: services)(&configuration)
            configuration.appSettings = try! AppSettings(Shared.settings, environment: [:], assignments: ["push-endpoints-per-user=2"])
        }
        try await TestServer.with(limited) { server in
            let ana = try await server.signUp("ana")
            let bob = try await server.signUp("bob")
            func register(_ token: String, _ fcm: String) async throws {
                let reply = try await server.graphql(registerPushEndpoint, ["input": ["fcm": ["token": fcm]]], token: token)
                #expect(reply.errorCode == nil, "\(reply)")
            }
            func devices(_ token: String) async throws -> [String] {
                try await server.graphql("{ pushEndpoints { label } }", token: token)["data"]["pushEndpoints"].array.compactMap {
                    $0["label"].string
                }
            }
            try await register(bob.token, "shared-phone-token")
            try await register(ana.token, "shared-phone-token")
            #expect(try await devices(bob.token).isEmpty)
            #expect(try await devices(ana.token) == ["…ne-token"])
            // At the limit, then one over: the oldest goes.
            try await register(ana.token, "second-phone-token")
            #expect(try await devices(ana.token).count == 2)
            try await register(ana.token, "third-tablet-token")
            #expect(try await devices(ana.token) == ["…et-token", "…ne-token"])
            #expect(
                try await server.sql("SELECT count(*)::int FROM push_endpoints WHERE address = 'shared-phone-token'")[0].decode(
                    Int.self, at: 0) == 0)
            let id = try await server.graphql("{ pushEndpoints { id } }", token: ana.token)["data"]["pushEndpoints"][0]["id"].string ?? ""
            let stranger = try await server.graphql("mutation($id: ID!) { unregisterPushEndpoint(id: $id) }", ["id": id], token: bob.token)
            #expect(stranger.errorCode == "NOT_FOUND", "\(stranger)")
            let own = try await server.graphql("mutation($id: ID!) { unregisterPushEndpoint(id: $id) }", ["id": id], token: ana.token)
            #expect(own["data"]["unregisterPushEndpoint"].bool == true, "\(own)")
            #expect(try await devices(ana.token).count == 1)
        }
    }

    @Test func aDeviceThatCannotBeReachedIsTriedAgainThenGivenUp() async throws {
        let services = try PushServices()
        try await TestServer.with(pushing(to: services) { $0.maxAttempts = 3 }) { server in
            let ana = try await server.signUp("ana")
            let bob = try await server.signUp("bob")
            // Nothing listens on port 1.
            let subscription = try services.subscribe()
            let unreachable = try await server.graphql(
                registerPushEndpoint,
                [
                    "input": [
                        "webPush": ["endpoint": "https://127.0.0.1:1/push/x", "p256dh": subscription.p256dh, "auth": subscription.auth]
                    ]
                ],
                token: bob.token)
            #expect(unreachable.errorCode == nil, "\(unreachable)")
            _ = try await server.graphql(TestServer.sendFriendRequest, ["id": bob.id], token: ana.token)
            var state = ""
            for _ in 0..<200 {
                let rows = try await server.sql("SELECT state, attempts, last_error FROM notice_deliveries WHERE channel = 'WEB_PUSH'")
                state = try rows.first?.decode(String.self, at: 0) ?? ""
                if state == "dead" {
                    #expect(try rows[0].decode(Int.self, at: 1) == 3)
                    let error = try rows[0].decode(String.self, at: 2)
                    #expect(error.contains("onnect"), "\(error)")
                    break
                }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(state == "dead")
            // The webhook's delivery went through meanwhile, once.
            #expect(try await services.waitFor(1, of: "webhook").count == 1)
            #expect(
                try await server.sql("SELECT count(*)::int FROM scheduled_jobs WHERE kind = 'notice.deliver'")[0].decode(Int.self, at: 0)
                    == 0)
        }
    }

    @Test func whatAUserChoseDecidesWhatIsPushed() async throws {
        let services = try PushServices()
        try await TestServer.with(pushing(to: services)) { server in
            let ana = try await server.signUp("ana")
            let bob = try await server.signUp("bob")
            _ = try await Self.registerEveryPlatform(on: server, token: bob.token, services: services)
            let off = try await server.graphql(
                "mutation { setNotificationPreference(kind: FRIEND_REQUEST_RECEIVED, push: false) { kind push isDefault promotional } }",
                token: bob.token)
            #expect(off["data"]["setNotificationPreference"]["push"].bool == false, "\(off)")
            #expect(off["data"]["setNotificationPreference"]["isDefault"].bool == false)
            let listed = try await server.graphql("{ notificationPreferences { kind push isDefault } }", token: bob.token)
            #expect(listed["data"]["notificationPreferences"].array.count == 2, "\(listed)")
            _ = try await server.graphql(TestServer.sendFriendRequest, ["id": bob.id], token: ana.token)
            #expect(try await services.waitFor(1, of: "webhook").count == 1)
            // The webhook's delivery and the job are done: nothing went to a device.
            for _ in 0..<100 {
                if try await server.sql("SELECT count(*)::int FROM scheduled_jobs WHERE kind = 'notice.deliver'")[0].decode(Int.self, at: 0)
                    == 0
                {
                    break
                }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(try services.received().filter { ["webpush", "apns", "fcm"].contains($0["service"] as? String) }.isEmpty)

            // Quiet hours around now, in a zone: the push waits for their end.
            let now = try await server.sql(
                "SELECT to_char((now() AT TIME ZONE 'Asia/Tokyo') - interval '1 hour', 'HH24:MI'), to_char((now() AT TIME ZONE 'Asia/Tokyo') + interval '2 hours', 'HH24:MI')"
            )
            let starts = try now[0].decode(String.self, at: 0), ends = try now[0].decode(String.self, at: 1)
            let quiet = try await server.graphql(
                "mutation($i: QuietHoursInput) { setQuietHours(input: $i) { starts ends timeZone } }",
                ["i": ["starts": starts, "ends": ends, "timeZone": "Asia/Tokyo"]], token: ana.token)
            #expect(quiet["data"]["setQuietHours"]["timeZone"].string == "Asia/Tokyo", "\(quiet)")
            _ = try await Self.registerEveryPlatform(on: server, token: ana.token, services: services)
            let accepted = try await server.graphql(
                "mutation($id: ID!) { acceptFriendRequest(requestId: $id) { id } }",
                [
                    "id": try await server.graphql(
                        "{ notifications(first: 1) { edges { node { friendRequest { id } } } } }", token: bob.token)[
                            "data"]["notifications"]["edges"][0]["node"]["friendRequest"]["id"].string ?? ""
                ], token: bob.token)
            #expect(accepted.errorCode == nil, "\(accepted)")
            #expect(try await services.waitFor(2, of: "webhook").count == 2)
            // The job keeps its books after each send: the webhook may have
            // its post before the job has put the pushes off. Until then the
            // job is still due now.
            var wait = 0.0
            for _ in 0..<200 {
                let due = try await server.sql(
                    "SELECT extract(epoch FROM due_at - now())::float8 FROM scheduled_jobs WHERE kind = 'notice.deliver'")
                wait = try #require(try due.first?.decode(Double.self, at: 0))
                if wait > 60 { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(wait > 3600 && wait < 2 * 3600 + 60, "the push waits for the quiet hours' end: \(wait) s")
            #expect(try services.received().filter { ["webpush", "apns", "fcm"].contains($0["service"] as? String) }.isEmpty)

            let bad = try await server.graphql(
                "mutation($i: QuietHoursInput) { setQuietHours(input: $i) { starts } }",
                ["i": ["starts": "25:00", "ends": "07:00", "timeZone": "Asia/Tokyo"]], token: ana.token)
            #expect(bad.errorCode == "BAD_USER_INPUT")
            let zone = try await server.graphql(
                "mutation($i: QuietHoursInput) { setQuietHours(input: $i) { starts } }",
                ["i": ["starts": "22:00", "ends": "07:00", "timeZone": "Mars/Olympus"]], token: ana.token)
            #expect(zone.errorCode == "BAD_USER_INPUT")
            let cleared = try await server.graphql("mutation { setQuietHours(input: null) { starts } }", token: ana.token)
            #expect(cleared["data"]["setQuietHours"].isNull, "\(cleared)")
        }
    }

    /// A kind asked for by mail goes to the account's address once it is
    /// confirmed, through the outbox; an unconfirmed address gets nothing.
    @Test func aKindAskedForByMailIsMailedToAConfirmedAddress() async throws {
        let services = try PushServices()
        let smtp = try SMTPServer()
        let both: @Sendable (inout HuddleServer.Configuration) -> Void = { configuration in
            mailing(to: smtp)(&configuration)
            pushing(to: services)(&configuration)
        }
        try await TestServer.with(both) { server in
            let ana = try await server.signUp("ana")
            let bob = try await server.signUp("bob")
            let carl = try await server.signUp("carl")
            _ = try await server.sql("UPDATE users SET email_verified_at = now() WHERE username = 'bob'")
            for user in [bob, carl] {
                let chosen = try await server.graphql(
                    "mutation { setNotificationPreference(kind: FRIEND_REQUEST_RECEIVED, email: true) { push email isDefault } }",
                    token: user.token)
                #expect(chosen["data"]["setNotificationPreference"]["email"].bool == true, "\(chosen)")
                #expect(chosen["data"]["setNotificationPreference"]["push"].bool == true, "push keeps its default")
                #expect(chosen["data"]["setNotificationPreference"]["isDefault"].bool == false)
                _ = try await server.graphql(TestServer.sendFriendRequest, ["id": user.id], token: ana.token)
            }
            // Three sign-up confirmations, then the one notice.
            let received = try await smtp.waitForMessages(4)
            let notices = received.filter { $0.message.contains("Subject: New friend request") }
            #expect(notices.count == 1, "\(received.map(\.recipients))")
            #expect(notices.first?.recipients == ["bob@example.com"])
            let mail = try await ParsedMail(try #require(notices.first))
            #expect(mail.text.contains("ana sent you a friend request."), "\(mail.text)")
            var channels: [String] = []
            for _ in 0..<100 {
                channels = try await server.graphql(Self.inbox, token: bob.token)["data"]["notifications"]["edges"][0]["node"][
                    "deliveredTo"
                ].array
                    .compactMap(\.string)
                if channels.contains("EMAIL") { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(channels == ["EMAIL", "WEBHOOK"], "\(channels)")
            let carls = try await server.sql(
                "SELECT d.state FROM notice_deliveries d JOIN notifications n ON n.id = d.notification_id JOIN users u ON u.id = n.user_id WHERE u.username = 'carl' AND d.channel = 'EMAIL'"
            )
            #expect(carls.isEmpty, "no delivery by mail to an address not confirmed")
            // Back to the defaults: no row kept.
            let reset = try await server.graphql(
                "mutation { setNotificationPreference(kind: FRIEND_REQUEST_RECEIVED, email: false) { email isDefault } }", token: bob.token)
            #expect(reset["data"]["setNotificationPreference"]["isDefault"].bool == true, "\(reset)")
            #expect(
                try await server.sql("SELECT count(*)::int FROM notice_preferences WHERE user_id = $1", [Int64(rowID(bob.id))!])[0].decode(
                    Int.self, at: 0) == 0)
        }
    }

    /// Mail alone (no device, no webhook) is reason enough to deliver a notice.
    @Test func aUserWithoutDevicesIsMailedTheKindsTheyAskedFor() async throws {
        let smtp = try SMTPServer()
        let services = try PushServices()
        let mailOnly: @Sendable (inout HuddleServer.Configuration) -> Void = { configuration in
            mailing(to: smtp)(&configuration)
            pushing(to: services) {
                $0.webhookURL = nil
                $0.webhookSecret = nil
            }(&configuration)
        }
        try await TestServer.with(mailOnly) { server in
            let ana = try await server.signUp("ana")
            let bob = try await server.signUp("bob")
            _ = try await server.sql("UPDATE users SET email_verified_at = now() WHERE username = 'bob'")
            _ = try await server.graphql(
                "mutation { setNotificationPreference(kind: FRIEND_REQUEST_RECEIVED, email: true) { email } }", token: bob.token)
            _ = try await server.graphql(TestServer.sendFriendRequest, ["id": bob.id], token: ana.token)
            let received = try await smtp.waitForMessages(3)
            let notices = received.filter { $0.message.contains("Subject: New friend request") }
            #expect(notices.map(\.recipients) == [["bob@example.com"]], "\(received.map(\.recipients))")
        }
    }

    @Test func registrationsAreCheckedBeforeTheServerWillCallThem() async throws {
        let services = try PushServices()
        try await TestServer.with(pushing(to: services) { $0.client.allowsPrivateNetworks = false }) { server in
            let bob = try await server.signUp("bob")
            let subscription = try services.subscribe()
            func register(_ endpoint: String, p256dh: String? = nil, auth: String? = nil) async throws -> JSON {
                try await server.graphql(
                    registerPushEndpoint,
                    [
                        "input": [
                            "webPush": ["endpoint": endpoint, "p256dh": p256dh ?? subscription.p256dh, "auth": auth ?? subscription.auth]
                        ]
                    ],
                    token: bob.token)
            }
            for endpoint in [
                subscription.endpoint, "https://localhost/push", "https://10.0.0.8/push", "https://169.254.169.254/latest/meta-data",
                "https://[::1]/push", "https://[::ffff:127.0.0.1]/push", "https://[fd00::1]/push", "http://push.example.com/push",
                "https://user:pw@push.example.com/x", "https://" + String(repeating: "a", count: 2050),
            ] {
                let refused = try await register(endpoint)
                #expect(refused.errorCode == "BAD_USER_INPUT", "\(endpoint): \(refused)")
            }
            let badKey = try await register("https://push.example.com/x", p256dh: "BAAA")
            #expect(badKey.errorCode == "BAD_USER_INPUT", "\(badKey)")
            let badAuth = try await register("https://push.example.com/x", auth: "AAAA")
            #expect(badAuth.errorCode == "BAD_USER_INPUT", "\(badAuth)")
            let apns = try await server.graphql(
                registerPushEndpoint, ["input": ["apns": ["token": "not-hex", "topic": "com.example", "environment": "PRODUCTION"]]],
                token: bob.token)
            #expect(apns.errorCode == "BAD_USER_INPUT", "\(apns)")
            let both = try await server.graphql(
                registerPushEndpoint,
                ["input": ["fcm": ["token": "a"], "apns": ["token": "ab", "topic": "a", "environment": "PRODUCTION"]]],
                token: bob.token)
            #expect(both.errorCode != nil, "@oneOf: \(both)")
            let anonymous = try await server.graphql(registerPushEndpoint, ["input": ["fcm": ["token": "abc"]]])
            #expect(anonymous.errorCode == "UNAUTHENTICATED")
            #expect(try await server.sql("SELECT count(*)::int FROM push_endpoints")[0].decode(Int.self, at: 0) == 0)
        }
    }

    /// A name that resolved to a public address when registered may resolve
    /// to a private one when called (DNS rebinding): the client checks the
    /// address it connects to, after resolution.
    @Test func theClientRefusesPrivateAddressesAtConnectTime() async throws {
        let services = try PushServices()
        let outcome = try await EventLoop.withOwnThread { loop in
            var settings = HTTPClient.Settings()
            settings.certificateAuthorities = services.certificate
            let client = HTTPClient(loop: loop, settings: settings)
            return await client.send(.init(url: "https://localhost:\(services.port)/received", body: []))
        }
        guard case .failure(let failure) = outcome else {
            Issue.record("a private address was called")
            return
        }
        #expect(failure.refusedAddress, "\(failure)")
        let allowed = try await EventLoop.withOwnThread { loop in
            var settings = HTTPClient.Settings()
            settings.certificateAuthorities = services.certificate
            settings.allowsPrivateNetworks = true
            return await HTTPClient(loop: loop, settings: settings).send(
                .init(method: "GET", url: "https://localhost:\(services.port)/received"))
        }
        #expect((try? allowed.get().status) == 200, "\(allowed)")
    }
}
