import Foundation
import GraphQL
import HuddlePostgres
import HuddlePush
import HuddleRuntime

/// Delivers notices outside the app: the scheduler's work of kind
/// `notice.deliver`, one job per notice, queued in the transaction that
/// wrote the notice (`Notifications.record`). The claimed job's row lock
/// keeps the notice to one process at a time; its bookkeeping goes through
/// a pool of its own, each statement committing at once, and never inside
/// the job's transaction: a delivery row per device of the user (and one
/// for the webhook) is committed before anything is sent, and each outcome
/// as it comes, so no HTTP request waits inside a transaction holding
/// locks, and a job run again (a process killed, the database away) sends
/// only what is still pending. A process killed between a platform's
/// acceptance and that outcome's commit sends that one push again: APNs
/// replaces it on the device by its collapse id, Android by its tag, a
/// browser by the `tag` docs/push.md asks service workers to show it with.
/// Failures back off and end `dead`; a device the platform says is gone is
/// removed.
package struct NoticeDelivery: Sendable {
    package static let jobKind = "notice.deliver"

    /// A notice by mail, for the kinds a user asked to get that way.
    package static let noticeMail = MailTemplate("notice") { input in
        AccountMail.message(
            subject: input.parameters["title"] ?? "Huddle", greeting: input.username, lines: [input.parameters["body"] ?? ""], link: nil,
            button: nil, after: "You get this by mail because you asked to. Turn it off in the app's notification settings.")
    }

    package struct Settings: Sendable {
        /// This server's identity to Web Push services; nil pushes to no browser.
        package var vapid: VAPID?
        package var apns: APNsSender.Settings?
        package var fcm: FCMServiceAccount?
        package var fcmURL = "https://fcm.googleapis.com"
        /// Where every notice is also POSTed, and the Standard Webhooks secret it is signed with.
        package var webhookURL: String?
        package var webhookSecret: String?
        package var client = HTTPClient.Settings()
        /// Attempts before a delivery is given up as dead.
        package var maxAttempts = 8
        package var backoff = Backoff(first: .seconds(30), longest: .seconds(3600))

        package init(vapid: VAPID?) {
            self.vapid = vapid
        }

        /// What resolvers need to know to take registrations.
        package var registration: PushRegistration {
            var platforms: Set<String> = []
            if vapid != nil { platforms.insert("WEB_PUSH") }
            if apns != nil { platforms.insert("APNS") }
            if fcm != nil { platforms.insert("FCM") }
            return PushRegistration(
                webPushPublicKey: vapid?.publicKey, platforms: platforms, allowsPrivateNetworks: client.allowsPrivateNetworks)
        }
    }

    let settings: Settings
    let webPush: WebPushSender?
    let apns: APNsSender?
    let fcm: FCMSender?
    let webhook: WebhookSender?
    let styles: NoticeStyles
    let database: PostgresPool
    let appSettings: AppSettings
    let logger: Logger
    let metrics: Metrics?

    /// The HTTP client the senders share, on the database's loop.
    package let client: HTTPClient

    /// Senders on `database`'s loop, where the scheduler's jobs run, which
    /// keep their books through `database` (a pool of their own).
    package init(
        _ settings: Settings, database: PostgresPool, apps: [any App.Type], appSettings: AppSettings, logger: Logger, metrics: Metrics?
    ) throws {
        let client = HTTPClient(loop: database.loop, settings: settings.client)
        self.client = client
        self.database = database
        self.settings = settings
        webPush = settings.vapid.map { WebPushSender(client: client, vapid: $0) }
        apns = settings.apns.map { APNsSender(client: client, settings: $0) }
        fcm = settings.fcm.map { FCMSender(client: client, account: $0, apiURL: settings.fcmURL) }
        if let url = settings.webhookURL, let secret = settings.webhookSecret {
            webhook = try WebhookSender(client: client, url: url, secret: secret)
        } else {
            webhook = nil
        }
        styles = NoticeStyles(mounting: apps)
        self.appSettings = appSettings
        self.logger = logger
        self.metrics = metrics
    }

    package var work: ScheduledWork {
        ScheduledWork(Self.jobKind) { id, _ in try await deliver(id) }
    }

    /// Records `publicKey` as the deployment's VAPID key unless one is
    /// recorded already; the key recorded.
    package static func recordVAPIDKey(_ publicKey: String, on database: PostgresPool) async throws -> String {
        _ = try await database.query("INSERT INTO push_vapid_key (public_key) VALUES ($1) ON CONFLICT DO NOTHING", [publicKey])
        return try await database.query("SELECT public_key FROM push_vapid_key", [])[0].decode(String.self, at: 0)
    }

    /// Says in the database whether notices are posted to a webhook, so
    /// that notices for users without devices are queued for it too.
    package static func announceWebhook(_ on: Bool, on database: PostgresPool) async throws {
        _ = try await database.query(
            on ? "INSERT INTO notice_webhook DEFAULT VALUES ON CONFLICT DO NOTHING" : "DELETE FROM notice_webhook", [])
    }

    /// One pending delivery, as sent.
    private struct Pending: Sendable {
        var id: Int64
        var channel: String
        var attempts: Int
        var address: String?
        var p256dh: [UInt8]?
        var auth: [UInt8]?
        var topic: String?
        var environment: String?
        var endpointID: Int64?

        /// To a device, which quiet hours and the daily cap hold back.
        var isPush: Bool { endpointID != nil }
    }

    /// Hands the notice to the outbox, which sends it with its own retries;
    /// the delivery is done in the same transaction, so it is queued once.
    private func mail(_ content: Content, to address: String?, of delivery: Pending) async throws {
        let queued = try await database.withTransaction { connection -> Bool in
            let rows = try await connection.query(
                "UPDATE notice_deliveries SET state = 'sent', sent_at = now(), attempts = 1 WHERE id = $1 AND state = 'pending' RETURNING 1",
                [delivery.id])
            guard !rows.isEmpty else { return false }
            guard let address else {
                _ = try await connection.query(
                    "UPDATE notice_deliveries SET state = 'dropped', sent_at = NULL, last_error = 'no confirmed address' WHERE id = $1",
                    [delivery.id])
                return false
            }
            try await Outbox.enqueue(
                Self.noticeMail, to: address, user: content.user, parameters: ["title": content.title, "body": content.body], on: connection
            )
            return true
        }
        metrics?.recordPush(channel: delivery.channel, outcome: queued ? "sent" : "dropped")
    }

    private func deliver(_ notice: Int64) async throws -> ScheduledWork.Outcome {
        let rows = try await database.query(
            """
            SELECT n.user_id, n.kind, n.message, n.subject_type, n.subject_id, n.created_at,
                   p.push, p.email, CASE WHEN u.email_verified_at IS NOT NULL THEN u.email END,
                   q.user_id IS NOT NULL AND CASE WHEN q.starts < q.ends
                       THEN (now() AT TIME ZONE q.time_zone)::time >= q.starts AND (now() AT TIME ZONE q.time_zone)::time < q.ends
                       ELSE (now() AT TIME ZONE q.time_zone)::time >= q.starts OR (now() AT TIME ZONE q.time_zone)::time < q.ends END,
                   ((now() AT TIME ZONE q.time_zone)::date + q.ends
                      + CASE WHEN (now() AT TIME ZONE q.time_zone)::time >= q.ends THEN interval '1 day' ELSE interval '0' END)
                      AT TIME ZONE q.time_zone
            FROM notifications n JOIN users u ON u.id = n.user_id
            LEFT JOIN notice_preferences p ON p.user_id = n.user_id AND p.kind = n.kind
            LEFT JOIN quiet_hours q ON q.user_id = n.user_id
            WHERE n.id = $1
            """, [notice])
        guard let row = rows.first else { return .done }
        let user = try row.decode(Int64.self, at: 0)
        let kind = try row.decode(String.self, at: 1)
        let style = styles[kind]
        let content = Content(
            id: notice, user: user, kind: kind, title: style.title, body: try row.decode(String.self, at: 2),
            subject: try row.decode(String?.self, at: 3).map { GlobalID(type: $0, id: try row.decode(Int64.self, at: 4)).encoded },
            createdAt: try row.decode(Date.self, at: 5))
        let wantsPush = try row.decode(Bool?.self, at: 6) ?? style.pushByDefault
        // Mail goes only to an address shown to reach its owner.
        let mailTo = (try row.decode(Bool?.self, at: 7) ?? style.emailByDefault) ? try row.decode(String?.self, at: 8) : nil
        let quiet = try row.decode(Bool.self, at: 9)
        let quietUntil = try row.decode(Date?.self, at: 10)

        // The deliveries this notice has: one per device when push is
        // wanted, and the webhook's.
        if wantsPush {
            _ = try await database.query(
                """
                INSERT INTO notice_deliveries (notification_id, channel, endpoint_id)
                SELECT $1, e.platform, e.id FROM push_endpoints e WHERE e.user_id = $2 AND e.platform = ANY($3::text[])
                ON CONFLICT DO NOTHING
                """, [notice, user, settings.registration.platforms.sorted()])
        }
        if webhook != nil {
            _ = try await database.query(
                "INSERT INTO notice_deliveries (notification_id, channel) VALUES ($1, 'WEBHOOK') ON CONFLICT DO NOTHING", [notice])
        }
        if mailTo != nil {
            _ = try await database.query(
                "INSERT INTO notice_deliveries (notification_id, channel) VALUES ($1, 'EMAIL') ON CONFLICT DO NOTHING", [notice])
        }
        // A device that has moved to another user since takes none of this one's notices.
        var pending = try await database.query(
            """
            SELECT d.id, d.channel, d.attempts, e.address, e.p256dh, e.auth, e.apns_topic, e.apns_environment, e.id
            FROM notice_deliveries d LEFT JOIN push_endpoints e ON e.id = d.endpoint_id
            WHERE d.notification_id = $1 AND d.state = 'pending' AND (d.endpoint_id IS NULL OR e.user_id = $2) ORDER BY d.id
            """, [notice, user]
        ).map { row in
            Pending(
                id: try row.decode(at: 0), channel: try row.decode(at: 1), attempts: try row.decode(at: 2), address: try row.decode(at: 3),
                p256dh: try row.decode(at: 4), auth: try row.decode(at: 5), topic: try row.decode(at: 6),
                environment: try row.decode(at: 7),
                endpointID: try row.decode(at: 8))
        }
        var waitUntil: Date?
        let pushes = pending.filter(\.isPush)
        if !pushes.isEmpty {
            if quiet, let quietUntil {
                if let staleAfter = style.staleAfter, quietUntil.timeIntervalSince(content.createdAt) > Double(staleAfter) {
                    try await drop(pushes, reason: "quiet hours outlast it", on: database)
                } else {
                    waitUntil = quietUntil
                }
                pending.removeAll(where: \.isPush)
            } else if style.promotional, try await !admitsPromotional(notice, to: user) {
                try await drop(pushes, reason: "the daily cap of promotional pushes", on: database)
                pending.removeAll(where: \.isPush)
            }
        }

        // Each outcome is committed as it comes.
        let retries = try await withThrowingTaskGroup(of: Date?.self) { group in
            for delivery in pending {
                if delivery.channel == "EMAIL" {
                    group.addTask {
                        try await mail(content, to: mailTo, of: delivery)
                        return nil
                    }
                } else {
                    group.addTask {
                        let outcome = await JobSpans.delivering(delivery.channel) {
                            await send(content, style: style, to: delivery)
                        } outcome: {
                            $0.spanName
                        }
                        return try await record(outcome, of: delivery)
                    }
                }
            }
            var retries: [Date] = []
            for try await retry in group { if let retry { retries.append(retry) } }
            return retries
        }
        if let first = retries.min() { waitUntil = min(waitUntil ?? first, first) }
        _ = try await database.query(
            """
            UPDATE notifications SET delivered_to = ARRAY(
              SELECT DISTINCT channel FROM notice_deliveries WHERE notification_id = $1 AND state = 'sent' ORDER BY channel)
            WHERE id = $1
            """, [notice])
        if let waitUntil { return .again(at: waitUntil) }
        return .done
    }

    /// What every channel says of a notice.
    struct Content: Sendable {
        var id: Int64
        var user: Int64
        var kind: String
        var title: String
        var body: String
        var subject: String?
        var createdAt: Date

        var notificationID: String { GlobalID(type: "Notification", id: id).encoded }
        /// What a later push of the same notice replaces on the device.
        var collapseID: String { "n\(id)" }

        var members: [GraphQLValue.Member] {
            [
                .init("notificationId", .string(notificationID)), .init("kind", .string(kind)), .init("title", .string(title)),
                .init("body", .string(body)), .init("subjectId", subject.map { .string($0) } ?? .null),
                .init("createdAt", .string(Instant.text(createdAt))),
            ]
        }
    }

    private func send(_ content: Content, style: NoticeStyle, to delivery: Pending) async -> PushOutcome {
        // What is left of its time to live, after quiet hours or retries.
        let timeToLive = style.timeToLive - Int(Date().timeIntervalSince(content.createdAt))
        guard timeToLive > 0 || delivery.channel == "WEBHOOK" else {
            return .failed("its time to live ran out before it could be sent")
        }
        switch delivery.channel {
        case "WEB_PUSH":
            guard let webPush else { return .retry("Web Push is not configured on this process", after: nil) }
            guard let endpoint = delivery.address, let p256dh = delivery.p256dh, let auth = delivery.auth else {
                return .failed("the subscription is incomplete")
            }
            let payload = Array(GraphQLValue.object(content.members).json.utf8)
            return await webPush.send(
                payload, to: WebPushSubscription(endpoint: endpoint, p256dh: p256dh, auth: auth), timeToLive: timeToLive,
                urgency: style.urgency, topic: content.collapseID)
        case "APNS":
            guard let apns, let token = delivery.address, let topic = delivery.topic,
                let environment = APNsSender.Environment(rawValue: delivery.environment ?? "")
            else { return .retry("APNs is not configured on this process", after: nil) }
            var options = APNsSender.Options()
            options.priority = style.urgency == .high || style.urgency == .normal ? 10 : 5
            options.expiration = content.createdAt.addingTimeInterval(Double(style.timeToLive))
            options.collapseID = content.collapseID
            let alert = GraphQLValue.object([.init("title", .string(content.title)), .init("body", .string(content.body))])
            let aps = GraphQLValue.object([
                .init("alert", alert), .init("sound", .string("default")), .init("thread-id", .string(content.kind)),
            ])
            let payload = GraphQLValue.object([.init("aps", aps)] + content.members.filter { $0.name != "title" && $0.name != "body" })
            return await apns.send(Array(payload.json.utf8), to: token, topic: topic, environment: environment, options: options)
        case "FCM":
            guard let fcm, let token = delivery.address else { return .retry("FCM is not configured on this process", after: nil) }
            let data = content.members.compactMap { member -> GraphQLValue.Member? in
                if case .string(let value) = member.value { return .init(member.name, .string(value)) }
                return nil
            }
            let message: [GraphQLValue.Member] = [
                .init("notification", .object([.init("title", .string(content.title)), .init("body", .string(content.body))])),
                .init("data", .object(data)),
                .init(
                    "android",
                    .object([
                        .init("collapse_key", .string(content.collapseID)), .init("ttl", .string("\(timeToLive)s")),
                        .init("priority", .string(style.urgency == .high ? "HIGH" : "NORMAL")),
                        // A notice shown twice (sent again after a crash) replaces itself.
                        .init("notification", .object([.init("tag", .string(content.collapseID))])),
                    ])),
            ]
            return await fcm.send(message, to: token)
        case "WEBHOOK":
            guard let webhook else { return .retry("no webhook is configured on this process", after: nil) }
            let body = GraphQLValue.object([
                .init("type", .string("notice.created")), .init("timestamp", .string(Instant.text(content.createdAt))),
                .init("data", .object([.init("userId", .string(GlobalID(type: "User", id: content.user).encoded))] + content.members)),
            ])
            return await webhook.send(Array(body.json.utf8), id: "msg_notice_\(content.id)")
        default:
            return .failed("no such channel")
        }
    }

    /// Writes what became of a delivery; when it is to be tried again, when.
    private func record(_ outcome: PushOutcome, of delivery: Pending) async throws -> Date? {
        let attempts = delivery.attempts + 1
        switch outcome {
        case .delivered:
            _ = try await database.query(
                "UPDATE notice_deliveries SET state = 'sent', sent_at = now(), attempts = $2, last_error = NULL WHERE id = $1 AND state = 'pending'",
                [delivery.id, attempts])
            metrics?.recordPush(channel: delivery.channel, outcome: "sent")
            return nil
        case .gone(let reason):
            // The device goes, and its deliveries with it.
            if let endpoint = delivery.endpointID { _ = try await database.query("DELETE FROM push_endpoints WHERE id = $1", [endpoint]) }
            metrics?.recordPush(channel: delivery.channel, outcome: "gone")
            log(.info, "push: the device is gone; forgotten", delivery, attempts: attempts, reason)
            return nil
        case .failed(let reason):
            try await markDead(delivery, attempts: attempts, reason: reason, on: database)
            return nil
        case .retry(let reason, let after):
            guard attempts < settings.maxAttempts else {
                try await markDead(delivery, attempts: attempts, reason: reason, on: database)
                return nil
            }
            _ = try await database.query(
                "UPDATE notice_deliveries SET attempts = $2, last_error = left($3, 2000) WHERE id = $1", [delivery.id, attempts, reason])
            metrics?.recordPush(channel: delivery.channel, outcome: "failed")
            log(.warning, "push: not delivered; trying again later", delivery, attempts: attempts, reason)
            return settings.backoff.nextAttempt(after: attempts, atLeast: after ?? .zero)
        }
    }

    private func markDead(
        _ delivery: Pending, attempts: Int, reason: String, on database: PostgresPool
    ) async throws {
        _ = try await database.query(
            "UPDATE notice_deliveries SET state = 'dead', attempts = $2, last_error = left($3, 2000) WHERE id = $1",
            [delivery.id, attempts, reason])
        metrics?.recordPush(channel: delivery.channel, outcome: "dead")
        log(.error, "push: gave up on a delivery", delivery, attempts: attempts, reason)
    }

    private func log(_ level: LogLevel, _ message: String, _ delivery: Pending, attempts: Int, _ reason: String) {
        logger.log(
            level, message,
            [
                "delivery": .int(Int(delivery.id)), "channel": .string(delivery.channel), "attempt": .int(attempts),
                "reason": .string(reason),
            ])
    }

    private func drop(_ deliveries: [Pending], reason: String, on database: PostgresPool) async throws {
        _ = try await database.query(
            "UPDATE notice_deliveries SET state = 'dropped', last_error = $2 WHERE id = ANY($1::bigint[])", [deliveries.map(\.id), reason])
        for delivery in deliveries { metrics?.recordPush(channel: delivery.channel, outcome: "dropped") }
    }

    /// The advisory lock namespace of a user's promotional admissions.
    private static let admissionLock: Int32 = 0x7072_6f6d  // "prom"

    /// Lets a promotional notice through to `user`'s devices while fewer
    /// than the daily cap were let through in the last 24 hours, and
    /// records it. The user's lock makes two deliveries running at once
    /// take turns, so they cannot both take the last place; a notice let
    /// through before (its job run again) stays let through.
    private func admitsPromotional(_ notice: Int64, to user: Int64) async throws -> Bool {
        let cap = appSettings[Shared.promotionalPushesPerDay]
        return try await database.withTransaction { connection in
            _ = try await connection.query("SELECT pg_advisory_xact_lock($1::int, hashint8($2))", [Int(Self.admissionLock), user])
            return try await !connection.query(
                """
                UPDATE notifications SET promotional_push_at = coalesce(promotional_push_at, now())
                WHERE id = $1 AND (promotional_push_at IS NOT NULL OR (
                  SELECT count(*) FROM notifications
                  WHERE user_id = $2 AND promotional_push_at > now() - interval '1 day') < $3)
                RETURNING 1
                """, [notice, user, cap]
            ).isEmpty
        }
    }
}

/// What the API needs to take device registrations: the key browsers
/// subscribe with, the platforms this deployment can push to, and whether
/// Web Push endpoints on private networks are allowed.
package struct PushRegistration: Sendable {
    package var webPushPublicKey: String?
    package var platforms: Set<String>
    package var allowsPrivateNetworks: Bool

    package init(webPushPublicKey: String? = nil, platforms: Set<String> = [], allowsPrivateNetworks: Bool = false) {
        self.webPushPublicKey = webPushPublicKey
        self.platforms = platforms
        self.allowsPrivateNetworks = allowsPrivateNetworks
    }
}
