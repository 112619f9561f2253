import ArgumentParser
import Foundation
import HuddleCore
import HuddleMail
import HuddlePush
import HuddleRuntime

/// How `huddle serve` pushes notices: Web Push always (its VAPID key made
/// once and kept in a file), APNs and FCM when their credentials are
/// given, and a webhook when its URL and secret are.
struct PushOptions: ParsableArguments {
    private static let environment = ProcessInfo.processInfo.environment

    @Option(
        name: .customLong("vapid-key"),
        help: "The VAPID private key (PEM), made there on first start if missing (HUDDLE_VAPID_KEY; default: .huddle/push/vapid.pem).")
    var vapidKeyOption: String?

    @Option(
        name: .customLong("vapid-subject"),
        help:
            "The contact push services see for this server: mailto: or https: (HUDDLE_VAPID_SUBJECT; default: mailto: and --mail-from's address)."
    )
    var vapidSubjectOption: String?

    var vapidSubject: String? { vapidSubjectOption ?? Self.environment["HUDDLE_VAPID_SUBJECT"].flatMap { $0.isEmpty ? nil : $0 } }

    @Option(name: .customLong("apns-key"), help: "The APNs token-signing key (the .p8 file from Apple) (HUDDLE_APNS_KEY).")
    var apnsKeyOption: String?

    var apnsKey: String? { apnsKeyOption ?? Self.environment["HUDDLE_APNS_KEY"].flatMap { $0.isEmpty ? nil : $0 } }

    @Option(name: .customLong("apns-key-id"), help: "That key's id (HUDDLE_APNS_KEY_ID).")
    var apnsKeyIDOption: String?

    var apnsKeyID: String? { apnsKeyIDOption ?? Self.environment["HUDDLE_APNS_KEY_ID"].flatMap { $0.isEmpty ? nil : $0 } }

    @Option(name: .customLong("apns-team-id"), help: "The Apple developer team's id (HUDDLE_APNS_TEAM_ID).")
    var apnsTeamIDOption: String?

    var apnsTeamID: String? { apnsTeamIDOption ?? Self.environment["HUDDLE_APNS_TEAM_ID"].flatMap { $0.isEmpty ? nil : $0 } }

    @Option(
        name: .customLong("apns-url"),
        help: "Where APNs is reached for both environments, instead of Apple's hosts: a proxy, or a test's stand-in (HUDDLE_APNS_URL).")
    var apnsURLOption: String?

    var apnsURL: String? { apnsURLOption ?? Self.environment["HUDDLE_APNS_URL"].flatMap { $0.isEmpty ? nil : $0 } }

    @Option(
        name: .customLong("fcm-service-account"),
        help: "The Firebase service account's JSON key file (HUDDLE_FCM_SERVICE_ACCOUNT).")
    var fcmServiceAccountOption: String?

    var fcmServiceAccount: String? {
        fcmServiceAccountOption ?? Self.environment["HUDDLE_FCM_SERVICE_ACCOUNT"].flatMap { $0.isEmpty ? nil : $0 }
    }

    @Option(name: .customLong("fcm-url"), help: "Where FCM's HTTP v1 API is reached (HUDDLE_FCM_URL; default: https://fcm.googleapis.com).")
    var fcmURL: String = environment["HUDDLE_FCM_URL"] ?? "https://fcm.googleapis.com"

    @Option(
        name: .customLong("webhook-url"), help: "Where every notice is also POSTed, signed as Standard Webhooks says (HUDDLE_WEBHOOK_URL).")
    var webhookURLOption: String?

    var webhookURL: String? { webhookURLOption ?? Self.environment["HUDDLE_WEBHOOK_URL"].flatMap { $0.isEmpty ? nil : $0 } }

    @Option(
        name: .customLong("webhook-secret"),
        help: "The webhook's signing secret, whsec_ and base64; `huddle push webhook-secret` makes one (HUDDLE_WEBHOOK_SECRET).")
    var webhookSecretOption: String?

    var webhookSecret: String? { webhookSecretOption ?? Self.environment["HUDDLE_WEBHOOK_SECRET"].flatMap { $0.isEmpty ? nil : $0 } }

    @Option(
        name: .customLong("push-ca-file"),
        help: "Certificates to trust for push services', in PEM (HUDDLE_PUSH_CA_FILE; default: the system's).")
    var pushCAFileOption: String?

    var pushCAFile: String? { pushCAFileOption ?? Self.environment["HUDDLE_PUSH_CA_FILE"].flatMap { $0.isEmpty ? nil : $0 } }

    @Flag(
        name: .customLong("push-private-networks"),
        help: "Lets Web Push endpoints and the webhook be on private networks or plain http: for services of the operator's own, and tests."
    )
    var pushPrivateNetworks = false

    @Option(parsing: .unconditional, help: "Sends of a notice to a device before it is given up as dead, 1 to 100 (HUDDLE_PUSH_ATTEMPTS).")
    var pushAttempts: Int = environment["HUDDLE_PUSH_ATTEMPTS"].flatMap { Int($0) } ?? 8

    /// The VAPID key's file: the one given, else in a checkout's `.huddle`
    /// (the quick start's); elsewhere none, and no Web Push, since a key
    /// made in a container's passing files would strand every subscription.
    var vapidKeyFile: URL? {
        if let path = vapidKeyOption ?? Self.environment["HUDDLE_VAPID_KEY"] { return URL(fileURLWithPath: path) }
        return SchemaDirectory.locate()?.deletingLastPathComponent().appendingPathComponent(".huddle/push/vapid.pem")
    }

    /// The settings the options make, checked; the VAPID key made if
    /// missing; nil when nothing is pushed.
    func settings(mailFrom: String) throws -> NoticeDelivery.Settings? {
        let subject = vapidSubject ?? "mailto:" + (MailAddress(parsing: mailFrom)?.address ?? "huddle@localhost")
        guard subject.hasPrefix("mailto:") || subject.hasPrefix("https://") else {
            throw ValidationError("--vapid-subject must be a mailto: or https: URL")
        }
        var settings = NoticeDelivery.Settings(vapid: try vapidKeyFile.map { VAPID(key: try Self.vapidKey(at: $0), subject: subject) })
        settings.client.certificateAuthorities = pushCAFile
        settings.client.allowsPrivateNetworks = pushPrivateNetworks
        guard (1...100).contains(pushAttempts) else { throw ValidationError("--push-attempts must be between 1 and 100") }
        settings.maxAttempts = pushAttempts
        if apnsKey != nil || apnsKeyID != nil || apnsTeamID != nil {
            guard let apnsKey, let apnsKeyID, let apnsTeamID else {
                throw ValidationError("APNs needs --apns-key, --apns-key-id and --apns-team-id together")
            }
            let key: PrivateKey
            do {
                key = try PrivateKey(pem: try String(contentsOfFile: apnsKey, encoding: .utf8))
            } catch {
                throw ValidationError("--apns-key \(apnsKey): \(error)")
            }
            guard key.isP256 else { throw ValidationError("--apns-key \(apnsKey): not a P-256 key (Apple's .p8 files are)") }
            var apns = APNsSender.Settings(key: key, keyID: apnsKeyID, teamID: apnsTeamID)
            if let apnsURL {
                apns.productionURL = apnsURL
                apns.developmentURL = apnsURL
            }
            settings.apns = apns
        }
        if let fcmServiceAccount {
            do {
                settings.fcm = try FCMServiceAccount(json: try String(contentsOfFile: fcmServiceAccount, encoding: .utf8))
            } catch {
                throw ValidationError("--fcm-service-account \(fcmServiceAccount): \(error)")
            }
            settings.fcmURL = fcmURL
        }
        if webhookURL != nil || webhookSecret != nil {
            guard let webhookURL, let webhookSecret else {
                throw ValidationError("a webhook needs --webhook-url and --webhook-secret together")
            }
            guard webhookURL.hasPrefix("https://") || webhookURL.hasPrefix("http://") else {
                throw ValidationError("--webhook-url must be an https:// (or, on the operator's own network, http://) URL")
            }
            do {
                _ = try WebhookSender.secretBytes(webhookSecret)
            } catch {
                throw ValidationError("--webhook-secret: \(error)")
            }
            settings.webhookURL = webhookURL
            settings.webhookSecret = webhookSecret
        }
        if settings.vapid == nil && settings.apns == nil && settings.fcm == nil && settings.webhookURL == nil { return nil }
        return settings
    }

    /// The key in `file`, or a new one written there (readable by its owner only).
    static func vapidKey(at file: URL) throws -> PrivateKey {
        if !FileManager.default.fileExists(atPath: file.path) {
            let key = PrivateKey.generateP256()
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            let partial = file.appendingPathExtension("partial-\(getpid())")
            guard
                FileManager.default.createFile(atPath: partial.path, contents: Data(key.pem.utf8), attributes: [.posixPermissions: 0o600])
            else { throw ValidationError("cannot write the VAPID key to \(file.path)") }
            // Two processes starting at once: the first to link its file wins, and both read that one.
            let linked = link(partial.path, file.path) == 0 || errno == EEXIST
            unlink(partial.path)
            guard linked else { throw ValidationError("cannot write the VAPID key to \(file.path)") }
        }
        let text: String
        do {
            text = try String(contentsOf: file, encoding: .utf8)
        } catch {
            throw ValidationError("cannot read the VAPID key \(file.path): \(error.localizedDescription)")
        }
        do {
            let key = try PrivateKey(pem: text)
            guard key.isP256 else { throw ValidationError("\(file.path): a VAPID key is a P-256 key") }
            return key
        } catch let error as ValidationError {
            throw error
        } catch {
            throw ValidationError("\(file.path): \(error)")
        }
    }
}
