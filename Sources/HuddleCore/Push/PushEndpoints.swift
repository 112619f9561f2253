import Foundation
import GraphQL
import HuddlePostgres
import HuddlePush
import HuddleRuntime

/// A row of `push_endpoints`, as its owner sees it.
package struct PushEndpointRecord: Sendable {
    var id: Int64
    var platform: String
    var address: String
    var createdAt: Date

    /// A Web Push service's host, or a token's last 8 characters: never a
    /// whole token, which is a capability to push to the device.
    var label: String {
        if platform == "WEB_PUSH" { return URLComponents(string: address)?.host ?? "" }
        return "…" + address.suffix(8)
    }
}

/// Registering devices for push: each platform's token checked for its
/// form, a Web Push endpoint checked to be a public HTTPS URL (its name
/// resolved, every address public) since the server will call it.
package enum PushEndpoints {
    /// A device to store: the platform, its address, and the platform's extras.
    struct Registration {
        var platform: String
        var address: String
        var p256dh: [UInt8]?
        var auth: [UInt8]?
        var topic: String?
        var environment: String?
    }

    static func registration(from input: GraphQLValue, policy: PushRegistration, loop: EventLoop) async throws -> Registration {
        guard case .object(let members) = input, let member = members.first(where: { $0.value != .null }),
            case .object(let fields) = member.value
        else { throw APIError.badInput("Give exactly one of webPush, apns or fcm.") }
        func field(_ name: String) -> String { fields.first { $0.name == name }?.value.enumValue ?? "" }
        let platform = ["webPush": "WEB_PUSH", "apns": "APNS", "fcm": "FCM"][member.name] ?? ""
        guard policy.platforms.contains(platform) else {
            throw APIError.badInput(
                "This server does not push through \(platform); it pushes through \(policy.platforms.sorted().joined(separator: ", ")).")
        }
        switch platform {
        case "WEB_PUSH":
            let endpoint = field("endpoint")
            try await checkWebPushEndpoint(endpoint, policy: policy, loop: loop)
            guard let p256dh = Base64URL.decodeBytes(field("p256dh")), p256dh.count == 65, p256dh[0] == 0x04,
                PrivateKey.generateP256().sharedSecret(withPublicKey: p256dh) != nil
            else { throw APIError.badInput("p256dh must be the subscription's P-256 public key: 65 bytes in base64url.") }
            guard let auth = Base64URL.decodeBytes(field("auth")), auth.count == 16 else {
                throw APIError.badInput("auth must be the subscription's secret: 16 bytes in base64url.")
            }
            return Registration(platform: platform, address: endpoint, p256dh: p256dh, auth: auth)
        case "APNS":
            let token = field("token").lowercased()
            guard (64...200).contains(token.utf8.count), token.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
            else { throw APIError.badInput("An APNs device token is 64 to 200 hexadecimal digits.") }
            let topic = field("topic")
            guard (1...255).contains(topic.utf8.count),
                topic.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "." || $0 == "-") })
            else { throw APIError.badInput("topic must be the app's bundle id (letters, digits, dots and hyphens).") }
            return Registration(platform: platform, address: token, topic: topic, environment: field("environment"))
        default:
            let token = field("token")
            guard (1...2048).contains(token.utf8.count),
                token.unicodeScalars.allSatisfy({
                    $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_:.".unicodeScalars.contains($0))
                })
            else { throw APIError.badInput("An FCM registration token is 1 to 2048 letters, digits, -, _, : and .") }
            return Registration(platform: platform, address: token)
        }
    }

    /// A Web Push endpoint is an `https` URL whose host is public (every
    /// address its name resolves to); an operator may allow private networks
    /// and plain `http` for push services of their own (and tests).
    static func checkWebPushEndpoint(_ endpoint: String, policy: PushRegistration, loop: EventLoop) async throws {
        guard endpoint.utf8.count <= 2048, let url = URLComponents(string: endpoint), let scheme = url.scheme?.lowercased(),
            let host = url.host, !host.isEmpty, url.user == nil, url.password == nil,
            scheme == "https" || (scheme == "http" && policy.allowsPrivateNetworks)
        else { throw APIError.badInput("endpoint must be the push service's https URL (at most 2048 characters).") }
        guard !policy.allowsPrivateNetworks else { return }
        let refused = APIError.badInput("endpoint's host must be on the public internet.")
        if NetworkAddress.isNonPublicLiteral(host) || host.lowercased() == "localhost" || host.lowercased().hasSuffix(".localhost") {
            throw refused
        }
        let resolved = await loop.runInThreadPool { addressesArePublic(host) }
        guard let resolved else { throw APIError.badInput("endpoint's host does not resolve.") }
        guard resolved else { throw refused }
    }

    /// Whether every address `host` resolves to is public; nil when it does not resolve.
    private static func addressesArePublic(_ host: String) -> Bool? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, "443", &hints, &list) == 0, let list else { return nil }
        defer { freeaddrinfo(list) }
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let current = entry {
            if let address = current.pointee.ai_addr, !NetworkAddress.isPublic(address) { return false }
            entry = current.pointee.ai_next
        }
        return true
    }

    /// Stores `registration` for `user` (moving the device from whoever had
    /// it), keeping the user's newest `limit` devices.
    static func register(_ registration: Registration, for user: Int64, limit: Int, on connection: PostgresConnection) async throws
        -> PushEndpointRecord
    {
        let rows = try await connection.query(
            """
            INSERT INTO push_endpoints (user_id, platform, address, p256dh, auth, apns_topic, apns_environment)
            VALUES ($1, $2, $3, $4, $5, $6, $7)
            ON CONFLICT (platform, address) DO UPDATE SET user_id = EXCLUDED.user_id, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth,
              apns_topic = EXCLUDED.apns_topic, apns_environment = EXCLUDED.apns_environment, created_at = now()
            RETURNING id, created_at
            """,
            [
                user, registration.platform, registration.address, registration.p256dh.map(PostgresBytea.init),
                registration.auth.map(PostgresBytea.init), registration.topic, registration.environment,
            ])
        let id = try rows[0].decode(Int64.self, at: 0)
        // A device that moved from another user takes none of their notices still waiting.
        _ = try await connection.query(
            """
            DELETE FROM notice_deliveries d USING notifications n
            WHERE d.endpoint_id = $1 AND d.state = 'pending' AND n.id = d.notification_id AND n.user_id <> $2
            """, [id, user])
        _ = try await connection.query(
            """
            DELETE FROM push_endpoints WHERE user_id = $1 AND id NOT IN (
              SELECT id FROM push_endpoints WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2)
            """, [user, limit])
        return PushEndpointRecord(
            id: id, platform: registration.platform, address: registration.address,
            createdAt: try rows[0].decode(at: 1))
    }
}
