#if canImport(Glibc)
    import Glibc
#endif

/// A process's claim on the address its workers serve, taken before they
/// bind it.
///
/// The workers bind with SO_REUSEPORT so that the kernel spreads
/// connections between their loops; but the kernel lets any process of the
/// same user join such a group, and would then hand it a share of the
/// connections: a second server started on a port in use (an old one not
/// yet stopped, another deployment's) would silently answer some of the
/// first one's clients from its own database. So a process first checks
/// that nothing listens on the address (a bind without SO_REUSEPORT fails
/// if anything does), and holds a lock named after the address (an abstract
/// Unix socket, which exists while the process does) for as long as it
/// serves, which settles two servers starting at the same moment.
public final class PortClaim: Sendable {
    private let lock: Int32

    /// Claims `host:port`; throws when another process has it.
    public init(host: String, port: Int) throws(HTTPServer.StartError) {
        lock = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard lock >= 0 else { throw Self.failure("creating the port's lock") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        // A leading NUL names an abstract socket: no file, gone with the process.
        let name = Array("huddle-serve \(host) \(port)".utf8.prefix(MemoryLayout.size(ofValue: address.sun_path) - 1))
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            path[0] = 0
            for (index, byte) in name.enumerated() { path[index + 1] = byte }
        }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + 1 + name.count)
        let locked = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(lock, $0, length) }
        }
        // A failure below needs no close: an init that throws once every
        // property is set runs deinit, which closes the lock (closing it here
        // too would close whatever the process opened meanwhile under its number).
        guard locked == 0 else {
            let reason = errno
            if reason == EADDRINUSE { throw HTTPServer.StartError(description: "another huddle process serves \(host):\(port)") }
            throw Self.failure("taking the lock on \(host):\(port)", reason)
        }
        try Self.checkNothingListens(host: host, port: port)
    }

    deinit { close(lock) }

    /// Binds `host:port` without SO_REUSEPORT and lets it go: that fails
    /// when any socket listens there, whatever its options.
    private static func checkNothingListens(host: String, port: Int) throws(HTTPServer.StartError) {
        var storage = sockaddr_storage()
        var length = socklen_t(0)
        let family = withUnsafeMutableBytes(of: &storage) { raw -> Int32 in
            if inet_pton(AF_INET, host, raw.baseAddress! + MemoryLayout<sockaddr_in>.offset(of: \.sin_addr)!) == 1 {
                raw.storeBytes(of: sa_family_t(AF_INET), toByteOffset: 0, as: sa_family_t.self)
                length = socklen_t(MemoryLayout<sockaddr_in>.size)
                return AF_INET
            }
            if inet_pton(AF_INET6, host, raw.baseAddress! + MemoryLayout<sockaddr_in6>.offset(of: \.sin6_addr)!) == 1 {
                raw.storeBytes(of: sa_family_t(AF_INET6), toByteOffset: 0, as: sa_family_t.self)
                length = socklen_t(MemoryLayout<sockaddr_in6>.size)
                return AF_INET6
            }
            return -1
        }
        guard family >= 0 else { throw HTTPServer.StartError(description: "\(host) is not an IPv4 or IPv6 address") }
        // The port sits at the same offset in sockaddr_in and sockaddr_in6.
        withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: UInt16(port).bigEndian, toByteOffset: 2, as: UInt16.self) }
        let probe = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { throw failure("checking \(host):\(port)") }
        defer { close(probe) }
        // As the workers' sockets have it (libuv sets it): a connection of
        // an earlier run still in TIME_WAIT is not "in use".
        var one: Int32 = 1
        setsockopt(probe, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(probe, $0, length) }
        }
        guard bound == 0 else {
            let reason = errno
            if reason == EADDRINUSE { throw HTTPServer.StartError(description: "\(host):\(port) is in use by another process") }
            throw failure("checking \(host):\(port)", reason)
        }
    }

    private static func failure(_ doing: String, _ reason: Int32 = errno) -> HTTPServer.StartError {
        HTTPServer.StartError(description: "\(doing): \(String(cString: strerror(reason)))")
    }
}
