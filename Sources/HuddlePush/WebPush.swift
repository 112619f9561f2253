import Foundation
import GraphQL
import HuddleRuntime
import Synchronization

/// A browser's push subscription (what `PushManager.subscribe()` returns).
public struct WebPushSubscription: Sendable {
    /// The push service's URL for this subscription (RFC 8030).
    public var endpoint: String
    /// The user agent's P-256 public key, uncompressed (65 bytes).
    public var p256dh: [UInt8]
    /// The authentication secret (16 bytes).
    public var auth: [UInt8]

    public init(endpoint: String, p256dh: [UInt8], auth: [UInt8]) {
        self.endpoint = endpoint
        self.p256dh = p256dh
        self.auth = auth
    }
}

/// Message encryption for Web Push (RFC 8291): ECDH with the subscription's
/// key and a key of the message's own, HKDF with the subscription's
/// secret, and the `aes128gcm` content coding (RFC 8188) in one record.
public enum WebPushEncryption {
    /// The most a message's plaintext may be: push services take 4096-byte
    /// bodies, of which the header takes 86 and the record's padding
    /// delimiter and tag 17.
    public static let maxPlaintextBytes = 3993

    /// The body to POST, or nil when the subscription's key is not a P-256 point.
    public static func encrypt(
        _ plaintext: [UInt8], for subscription: WebPushSubscription, messageKey: PrivateKey = .generateP256(),
        salt: [UInt8] = RandomBytes.make(16)
    ) -> [UInt8]? {
        precondition(plaintext.count <= maxPlaintextBytes, "a Web Push message is at most \(maxPlaintextBytes) bytes")
        guard subscription.auth.count == 16, let shared = messageKey.sharedSecret(withPublicKey: subscription.p256dh) else { return nil }
        let messagePublicKey = messageKey.rawPublicKey
        // RFC 8291 §3.4: the input keying material binds both public keys.
        let keyInfo = Array("WebPush: info".utf8) + [0] + subscription.p256dh + messagePublicKey
        let inputKey = HMACSHA256.hkdf(salt: subscription.auth, inputKey: shared, info: keyInfo, length: 32)
        // RFC 8188 §2.2 and §2.3.
        let contentKey = HMACSHA256.hkdf(salt: salt, inputKey: inputKey, info: Array("Content-Encoding: aes128gcm".utf8) + [0], length: 16)
        let nonce = HMACSHA256.hkdf(salt: salt, inputKey: inputKey, info: Array("Content-Encoding: nonce".utf8) + [0], length: 12)
        // One record, the last: the plaintext, then the delimiter 0x02.
        let ciphertext = AES128GCM.seal(plaintext + [0x02], key: contentKey, nonce: nonce)
        let recordSize = UInt32(4096)
        let header =
            salt + withUnsafeBytes(of: recordSize.bigEndian) { Array($0) } + [UInt8(messagePublicKey.count)] + messagePublicKey
        return header + ciphertext
    }
}

/// The application server's identity to push services (RFC 8292): a P-256
/// key whose public half browsers are given when they subscribe, and a
/// contact (`mailto:` or `https:`) the services may use.
public final class VAPID: Sendable {
    public let key: PrivateKey
    public let subject: String
    /// The public key as `applicationServerKey` takes it (base64url).
    public let publicKey: String
    /// Tokens by audience (a push service's origin), reused until near expiry.
    private let tokens = Mutex<[String: (token: String, expires: Date)]>([:])

    /// How long a token is good for; RFC 8292 allows at most 24 hours.
    static let lifetime: TimeInterval = 12 * 3600

    public init(key: PrivateKey, subject: String) {
        self.key = key
        self.subject = subject
        publicKey = Base64URL.encode(key.rawPublicKey)
    }

    /// The `Authorization` header for a request to `endpoint`.
    public func authorization(for endpoint: String, now: Date = Date()) -> String? {
        guard let url = URLComponents(string: endpoint), let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else {
            return nil
        }
        // The origin as RFC 6454 serialises it: no default port, IPv6 in brackets.
        let defaultPort = scheme == "https" ? 443 : 80
        let port = url.port.flatMap { $0 == defaultPort ? nil : ":\($0)" } ?? ""
        let audience = "\(scheme)://" + (host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host) + port
        let token = tokens.withLock { cache -> String in
            if let cached = cache[audience], cached.expires > now.addingTimeInterval(3600) { return cached.token }
            let expires = now.addingTimeInterval(Self.lifetime)
            let token = JSONWebToken.sign(
                [.init("aud", .string(audience)), .init("exp", .int(Int(expires.timeIntervalSince1970))), .init("sub", .string(subject))],
                key: key)
            if cache.count > 1000 { cache.removeAll() }
            cache[audience] = (token, expires)
            return token
        }
        return "vapid t=\(token), k=\(publicKey)"
    }
}

/// How soon a message matters (RFC 8030 §5.3): push services hold back
/// the less urgent ones from a device saving its battery.
public enum WebPushUrgency: String, Sendable {
    case veryLow = "very-low"
    case low
    case normal
    case high
}

/// Sends Web Push messages through the HTTP client.
public struct WebPushSender: Sendable {
    public let client: HTTPClient
    public let vapid: VAPID

    public init(client: HTTPClient, vapid: VAPID) {
        self.client = client
        self.vapid = vapid
    }

    /// Pushes `payload` (JSON, at most `WebPushEncryption.maxPlaintextBytes`)
    /// to `subscription`, kept by the service for `timeToLive` while the
    /// device is away; a later message with the same `topic` replaces it there.
    public func send(
        _ payload: [UInt8], to subscription: WebPushSubscription, timeToLive: Int, urgency: WebPushUrgency, topic: String?
    ) async -> PushOutcome {
        guard payload.count <= WebPushEncryption.maxPlaintextBytes else { return .failed("the payload is too large for Web Push") }
        guard let body = WebPushEncryption.encrypt(payload, for: subscription) else {
            return .gone("the subscription's key is not a P-256 public key")
        }
        guard let authorization = vapid.authorization(for: subscription.endpoint) else { return .gone("the endpoint is not a URL") }
        var headers: [(name: String, value: String)] = [
            ("Authorization", authorization), ("TTL", String(max(0, timeToLive))), ("Urgency", urgency.rawValue),
            ("Content-Encoding", "aes128gcm"), ("Content-Type", "application/octet-stream"),
        ]
        if let topic { headers.append(("Topic", topic)) }
        switch await client.send(.init(url: subscription.endpoint, headers: headers, body: body)) {
        case .success(let response): return .of(status: response.status, headers: response.headers, body: response.body)
        case .failure(let failure): return .of(failure)
        }
    }
}
