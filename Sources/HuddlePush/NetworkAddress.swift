import Foundation

/// Which IP addresses a push may go to. A device registration names a URL
/// the server will call: without this check, anyone could make the server
/// call into its own network (its database, a cloud's metadata service).
public enum NetworkAddress {
    /// Whether `address` (an IPv4 or IPv6 socket address) is on the public
    /// internet: not loopback, private, shared (CGNAT), link-local (cloud
    /// metadata services live there), multicast, reserved or unspecified.
    public static func isPublic(_ address: UnsafePointer<sockaddr>) -> Bool {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            let ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
            return isPublic(ipv4: ipv4)
        case AF_INET6:
            let bytes = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
            }
            return isPublic(ipv6: bytes)
        default:
            return false
        }
    }

    /// Whether the text is an IP address literal that is not public; false
    /// for a name (the name is checked once resolved).
    public static func isNonPublicLiteral(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var ipv4 = in_addr()
        if inet_pton(AF_INET, bare, &ipv4) == 1 { return !isPublic(ipv4: UInt32(bigEndian: ipv4.s_addr)) }
        var ipv6 = in6_addr()
        if inet_pton(AF_INET6, bare, &ipv6) == 1 { return !isPublic(ipv6: withUnsafeBytes(of: ipv6) { Array($0) }) }
        return false
    }

    static func isPublic(ipv4 address: UInt32) -> Bool {
        func within(_ network: UInt32, _ bits: UInt32) -> Bool { address >> (32 - bits) == network >> (32 - bits) }
        let refused: [(UInt32, UInt32)] = [
            (0x0000_0000, 8),  // "this network"
            (0x0A00_0000, 8),  // private
            (0x6440_0000, 10),  // shared address space (CGNAT)
            (0x7F00_0000, 8),  // loopback
            (0xA9FE_0000, 16),  // link-local, where cloud metadata services answer
            (0xAC10_0000, 12),  // private
            (0xC000_0000, 24),  // IETF protocol assignments
            (0xC000_0200, 24), (0xC633_6400, 24), (0xCB00_7100, 24),  // documentation
            (0xC0A8_0000, 16),  // private
            (0xC612_0000, 15),  // benchmarking
            (0xE000_0000, 4),  // multicast
            (0xF000_0000, 4),  // reserved, and the broadcast address
        ]
        return !refused.contains { within($0.0, $0.1) }
    }

    static func isPublic(ipv6 bytes: [UInt8]) -> Bool {
        guard bytes.count == 16 else { return false }
        // An IPv4 address mapped, or translated by NAT64, is that address.
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF
            || bytes[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0]
        {
            return isPublic(ipv4: bytes[12..<16].reduce(0) { $0 << 8 | UInt32($1) })
        }
        // IPv4-compatible (deprecated) and the local NAT64 prefix carry an IPv4 address too.
        if bytes[0..<12].allSatisfy({ $0 == 0 }) || bytes[0..<6] == [0x00, 0x64, 0xFF, 0x9B, 0x00, 0x01] { return false }
        if bytes[0] & 0xFE == 0xFC { return false }  // unique local
        if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 { return false }  // link-local
        if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0xC0 { return false }  // site-local (deprecated)
        if bytes[0..<2] == [0x20, 0x02] { return false }  // 6to4: an IPv4 address behind a relay
        if bytes[0..<4] == [0x20, 0x01, 0x00, 0x00] { return false }  // Teredo
        if bytes[0] == 0xFF { return false }  // multicast
        if bytes[0..<4] == [0x20, 0x01, 0x0D, 0xB8] { return false }  // documentation
        return true
    }
}
