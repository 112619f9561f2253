import Foundation
import HuddleRuntime

/// The address of the client a request comes from, for per-address limits:
/// the connection's peer, unless that peer is a proxy the operator trusts
/// (`--trusted-proxies`), in which case the nearest address in
/// `X-Forwarded-For` that is not itself a trusted proxy. A client cannot
/// choose its address by sending the header: only a trusted peer's is read.
package enum ClientAddress {
    /// The proxies whose `X-Forwarded-For` is believed, by exact address.
    package struct TrustedProxies: Sendable {
        let addresses: Set<String>

        package init(_ addresses: [String]) {
            self.addresses = Set(addresses)
        }

        package static let none = TrustedProxies([])
    }

    package static func of(_ request: HTTPRequest, trusting proxies: TrustedProxies) -> String? {
        guard let peer = request.peerAddress.map(unmapped) else { return nil }
        // Every request asks: without trusted proxies, no more than this.
        guard !proxies.addresses.isEmpty, proxies.addresses.contains(peer) else { return peer }
        let forwarded = request.head.headers.filter { $0.name == "x-forwarded-for" }
            .flatMap { $0.value.split(separator: ",").map { $0.trimmingSpaces() } }
        // From the right: each trusted proxy appended the address it saw.
        for hop in forwarded.reversed().map(unmapped) where !hop.isEmpty && !proxies.addresses.contains(hop) {
            return hop.count <= 64 ? hop : peer
        }
        return peer
    }

    /// An IPv4 address as an IPv6 socket shows it (`::ffff:192.0.2.1`) as
    /// itself. Read byte by byte, since every request's peer passes here: a
    /// lower-cased copy to compare would be an allocation each time.
    static func unmapped(_ address: String) -> String {
        let prefix = "::ffff:".utf8
        let bytes = address.utf8
        guard bytes.count > prefix.count, zip(bytes, prefix).allSatisfy({ $0 | 0x20 == $1 }), bytes.contains(UInt8(ascii: "."))
        else { return address }
        return String(address.dropFirst(prefix.count))
    }

    /// What per-address limits count by: an IPv4 address, or an IPv6
    /// address's /64 (one subscriber's network, within which a client can
    /// take any address it likes).
    package static func limitKey(_ address: String) -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard address.contains(":"), inet_pton(AF_INET6, address, &bytes) == 1 else { return address }
        return bytes.prefix(8).map { String($0, radix: 16) }.joined(separator: ".") + "/64"
    }
}
