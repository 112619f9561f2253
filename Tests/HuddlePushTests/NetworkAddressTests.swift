import Foundation
import HuddlePush
import HuddleRuntime
import Testing

/// Which addresses a user's Web Push endpoint may name, and the VAPID
/// token's audience: the origin, as push services compare it.
struct NetworkAddressTests {
    @Test(arguments: [
        "127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0",
        "224.0.0.1", "255.255.255.255", "198.18.0.1", "::1", "[::1]", "::", "fd00::1", "fe80::1", "fec0::1", "ff02::1",
        "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::127.0.0.1", "64:ff9b::a00:1", "64:ff9b:1::1", "2002:7f00:1::1", "2001:0:4136::1",
        "2001:db8::1",
    ])
    func refusesAddressesOffThePublicInternet(_ address: String) {
        #expect(NetworkAddress.isNonPublicLiteral(address))
    }

    @Test(arguments: [
        "8.8.8.8", "1.1.1.1", "172.32.0.1", "2606:4700:4700::1111", "[2a00:1450:4001::200e]", "::ffff:8.8.8.8", "push.example.com",
    ])
    func acceptsPublicAddressesAndLeavesNamesToResolution(_ address: String) {
        #expect(!NetworkAddress.isNonPublicLiteral(address))
    }

    @Test func theVAPIDAudienceIsTheEndpointsOrigin() throws {
        let vapid = VAPID(key: .generateP256(), subject: "mailto:ops@example.com")
        for (endpoint, origin) in [
            ("https://fcm.googleapis.com/fcm/send/abc", "https://fcm.googleapis.com"),
            ("https://Push.Example.com:443/x", "https://push.example.com"),
            ("https://push.example.com:8443/x", "https://push.example.com:8443"),
            ("https://[2001:db8::1]/x", "https://[2001:db8::1]"),
        ] {
            let header = try #require(vapid.authorization(for: endpoint))
            let token = try #require(header.split(separator: " ").dropFirst().first?.dropFirst(2).dropLast())
            let claims = try #require(Base64URL.decode(String(token.split(separator: ".")[1])))
            #expect(claims.contains("\"aud\":\"\(origin)\""), "\(endpoint): \(claims)")
            #expect(header.hasSuffix(", k=\(vapid.publicKey)"))
        }
    }
}
