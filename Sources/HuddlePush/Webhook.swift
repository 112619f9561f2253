import Foundation
import HuddleRuntime

/// Notices POSTed to the operator's own service, signed as the Standard
/// Webhooks specification says: `webhook-id`, `webhook-timestamp` and
/// `webhook-signature` (`v1,` and the base64 HMAC-SHA256 of
/// `id.timestamp.body` under the shared secret).
public struct WebhookSender: Sendable {
    public let client: HTTPClient
    public let url: String
    private let secret: [UInt8]

    public struct InvalidSecret: Error, CustomStringConvertible {
        public var description: String { "the webhook secret must be whsec_ followed by base64 (24 to 64 bytes)" }
    }

    /// `secret` as Standard Webhooks writes it: `whsec_` and base64.
    public init(client: HTTPClient, url: String, secret: String) throws(InvalidSecret) {
        self.client = client
        self.url = url
        self.secret = try Self.secretBytes(secret)
    }

    /// The key in a secret as Standard Webhooks writes it.
    public static func secretBytes(_ secret: String) throws(InvalidSecret) -> [UInt8] {
        guard secret.hasPrefix("whsec_"), let bytes = Data(base64Encoded: String(secret.dropFirst(6))), (24...64).contains(bytes.count)
        else { throw InvalidSecret() }
        return Array(bytes)
    }

    /// A new secret, as `huddle push webhook-secret` prints it.
    public static func makeSecret() -> String {
        "whsec_" + Data(RandomBytes.make(32)).base64EncodedString()
    }

    /// The signature headers for `body` sent as message `id` at `timestamp`.
    public func signatureHeaders(id: String, timestamp: Date, body: [UInt8]) -> [(name: String, value: String)] {
        let seconds = String(Int(timestamp.timeIntervalSince1970))
        let signed = Array("\(id).\(seconds).".utf8) + body
        let signature = Data(HMACSHA256.authenticate(signed, key: secret)).base64EncodedString()
        return [("webhook-id", id), ("webhook-timestamp", seconds), ("webhook-signature", "v1,\(signature)")]
    }

    /// POSTs `body` (JSON) as message `id`: the same id on every attempt,
    /// so the receiver can tell a retry from a new notice.
    public func send(_ body: [UInt8], id: String, now: Date = Date()) async -> PushOutcome {
        let headers = signatureHeaders(id: id, timestamp: now, body: body) + [("Content-Type", "application/json")]
        switch await client.send(.init(url: url, headers: headers, body: body, isTrusted: true, propagatesTrace: true)) {
        case .success(let response):
            // A receiver's 4xx other than a rate limit is still worth another
            // try later (it may be mid-deploy); only attempts run out.
            let outcome = PushOutcome.of(status: response.status, headers: response.headers, body: response.body)
            if case .delivered = outcome { return .delivered }
            if case .retry = outcome { return outcome }
            return .retry("HTTP \(response.status)", after: nil)
        case .failure(let failure):
            return .retry(failure.description, after: nil)
        }
    }
}
