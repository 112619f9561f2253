import Foundation
import GraphQL
import HuddleRuntime
import Synchronization

/// Apple Push Notification service over HTTP/2 with token-based
/// authentication: an ES256 provider token signed by the team's key
/// (the `.p8` file from Apple's developer site), made again before it is
/// an hour old as Apple requires, and not more often than every 20 minutes.
public final class APNsSender: Sendable {
    public struct Settings: Sendable {
        public var key: PrivateKey
        /// The key's id, and the developer team's, as Apple shows them.
        public var keyID: String
        public var teamID: String
        /// Where devices of each environment are reached.
        public var productionURL = "https://api.push.apple.com"
        public var developmentURL = "https://api.sandbox.push.apple.com"

        public init(key: PrivateKey, keyID: String, teamID: String) {
            self.key = key
            self.keyID = keyID
            self.teamID = teamID
        }
    }

    public enum Environment: String, Sendable {
        case production = "PRODUCTION"
        case development = "DEVELOPMENT"
    }

    /// One notification's headers: what it is, how long Apple keeps it
    /// for an absent device, what it replaces.
    public struct Options: Sendable {
        /// `alert` (shown) or `background` (delivered silently).
        public var pushType = "alert"
        /// 10: at once; 5: when the device sees fit.
        public var priority = 10
        /// When Apple may stop trying (nil: once, now).
        public var expiration: Date?
        /// A notification with the same id replaces this one on the device.
        public var collapseID: String?

        public init() {}
    }

    public let client: HTTPClient
    public let settings: Settings
    private let token = Mutex<(text: String, issued: Date)?>(nil)

    /// How long a provider token is reused.
    static let tokenLifetime: TimeInterval = 50 * 60

    public init(client: HTTPClient, settings: Settings) {
        self.client = client
        self.settings = settings
    }

    /// The provider token for `now`.
    func providerToken(now: Date = Date()) -> String {
        token.withLock { current in
            if let current, now.timeIntervalSince(current.issued) < Self.tokenLifetime { return current.text }
            let text = JSONWebToken.sign(
                [.init("iss", .string(settings.teamID)), .init("iat", .int(Int(now.timeIntervalSince1970)))],
                header: [.init("kid", .string(settings.keyID))], key: settings.key)
            current = (text, now)
            return text
        }
    }

    /// Sends `payload` (the JSON with `aps`) to the device `token` of app `topic` (its bundle id).
    public func send(_ payload: [UInt8], to deviceToken: String, topic: String, environment: Environment, options: Options)
        async -> PushOutcome
    {
        let base = environment == .production ? settings.productionURL : settings.developmentURL
        var headers: [(name: String, value: String)] = [
            ("authorization", "bearer \(providerToken())"), ("apns-topic", topic), ("apns-push-type", options.pushType),
            ("apns-priority", String(options.priority)),
            ("apns-expiration", String(options.expiration.map { Int($0.timeIntervalSince1970) } ?? 0)),
            ("content-type", "application/json"),
        ]
        if let collapseID = options.collapseID { headers.append(("apns-collapse-id", collapseID)) }
        let request = HTTPClient.Request(url: "\(base)/3/device/\(deviceToken)", headers: headers, body: payload, isTrusted: true)
        switch await client.send(request) {
        case .success(let response):
            let reason = Self.reason(response.body)
            // A token Apple no longer knows, or never did, will never take a notification.
            if response.status == 410 || (response.status == 400 && reason == "BadDeviceToken") {
                return .gone("APNs \(response.status) \(reason ?? "")")
            }
            if response.status == 403 && reason == "ExpiredProviderToken" {
                token.withLock { $0 = nil }
                return .retry("APNs: the provider token expired", after: nil)
            }
            return .of(status: response.status, headers: response.headers, body: response.body)
        case .failure(let failure):
            return .of(failure)
        }
    }

    /// The `reason` of APNs' error body.
    static func reason(_ body: [UInt8]) -> String? {
        guard case .string(let reason)? = (try? JSONReader().read(String(decoding: body, as: UTF8.self)))?["reason"] else {
            return nil
        }
        return reason
    }
}
