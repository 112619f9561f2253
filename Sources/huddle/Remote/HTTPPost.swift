import COpenSSL
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One HTTP/1.1 POST, blocking, over TCP or TLS: how the command line asks a
/// live endpoint for its schema. TLS verifies the server's certificate
/// against the system's authorities (or `SSL_CERT_FILE`) and its name.
/// Redirects are reported, not followed.
struct HTTPPost {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    struct Response {
        var status: Int
        var body: Data
    }

    /// How long connecting, sending and each read may take.
    static let timeoutSeconds = 30
    /// The largest response accepted (an introspection result of a very
    /// large schema is a few megabytes).
    static let maxResponseBytes = 64 << 20

    var url: URL
    var headers: [(name: String, value: String)]

    func send(json body: Data) throws(Failure) -> Response {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else { throw Failure(description: "\(url.absoluteString) is not an http or https URL") }
        let secure = scheme == "https"
        let port = url.port ?? (secure ? 443 : 80)
        var target = url.path.isEmpty ? "/" : url.path
        if let query = url.query { target += "?" + query }
        let hostHeader = url.port == nil ? host : "\(host):\(port)"
        var request = "POST \(target) HTTP/1.1\r\nHost: \(hostHeader)\r\n"
        request += "Content-Type: application/json\r\nAccept: application/graphql-response+json, application/json\r\n"
        request += "User-Agent: huddle\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
        for header in headers { request += "\(header.name): \(header.value)\r\n" }
        request += "\r\n"
        var bytes = Data(request.utf8)
        bytes.append(body)

        let socket = try connect(host: host, port: port)
        defer { close(socket) }
        var connection: any Connection = PlainConnection(socket: socket)
        if secure { connection = try TLSConnection(socket: socket, host: host) }
        try connection.write(bytes)
        var received = Data()
        while true {
            let chunk = try connection.read()
            if chunk.isEmpty { break }
            received.append(chunk)
            if received.count > Self.maxResponseBytes {
                throw Failure(description: "the response from \(url.absoluteString) is larger than \(Self.maxResponseBytes) bytes")
            }
        }
        return try parse(received)
    }

    private func connect(host: String, port: Int) throws(Failure) -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let list else {
            throw Failure(description: "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var lastError: Int32 = 0
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let address = entry {
            entry = address.pointee.ai_next
            let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            if descriptor < 0 { continue }
            var timeout = timeval(tv_sec: Self.timeoutSeconds, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            if Glibc.connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return descriptor }
            lastError = errno
            close(descriptor)
        }
        throw Failure(description: "cannot connect to \(host):\(port): \(String(cString: strerror(lastError)))")
    }

    /// The status line, the headers and the body, whole, by length or in chunks.
    private func parse(_ data: Data) throws(Failure) -> Response {
        let bytes = [UInt8](data)
        guard let headEnd = bytes.firstRange(of: [13, 10, 13, 10])?.lowerBound else {
            throw Failure(description: "\(url.absoluteString) sent no complete HTTP response")
        }
        let head = String(decoding: bytes[0..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = head[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            throw Failure(description: "\(url.absoluteString) sent a malformed status line: \(head[0])")
        }
        var fields: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        if (300..<400).contains(status) {
            throw Failure(
                description: "\(url.absoluteString) answered \(status), redirecting to \(fields["location"] ?? "nowhere"); give that URL")
        }
        var body = Array(bytes[(headEnd + 4)...])
        if fields["transfer-encoding"]?.lowercased().contains("chunked") == true {
            body = try unchunk(body)
        } else if let length = fields["content-length"].flatMap({ Int($0) }) {
            guard body.count >= length else { throw Failure(description: "\(url.absoluteString) closed before sending its whole body") }
            body = Array(body.prefix(length))
        }
        return Response(status: status, body: Data(body))
    }

    private func unchunk(_ bytes: [UInt8]) throws(Failure) -> [UInt8] {
        var result: [UInt8] = []
        var position = 0
        while true {
            guard position <= bytes.count, let lineEnd = bytes[position...].firstRange(of: [13, 10])?.lowerBound else { break }
            let sizeText = String(decoding: bytes[position..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else {
                throw Failure(description: "\(url.absoluteString) sent a malformed chunk")
            }
            if size == 0 { return result }
            let start = lineEnd + 2
            guard start + size <= bytes.count else { break }
            result.append(contentsOf: bytes[start..<(start + size)])
            position = start + size + 2
        }
        throw Failure(description: "\(url.absoluteString) closed before its last chunk")
    }
}

private protocol Connection {
    func write(_ data: Data) throws(HTTPPost.Failure)
    /// The next bytes; empty at the end.
    func read() throws(HTTPPost.Failure) -> Data
}

private struct PlainConnection: Connection {
    var socket: Int32

    func write(_ data: Data) throws(HTTPPost.Failure) {
        let result: Int = data.withUnsafeBytes { buffer in
            var sent = 0
            while sent < buffer.count {
                let count = Glibc.send(socket, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
                if count < 0 {
                    if errno == EINTR { continue }
                    return -Int(errno)
                }
                sent += count
            }
            return sent
        }
        if result < 0 { throw HTTPPost.Failure(description: "cannot send: \(String(cString: strerror(Int32(-result))))") }
    }

    func read() throws(HTTPPost.Failure) -> Data {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count >= 0 { return Data(buffer[0..<count]) }
            if errno == EINTR { continue }
            let reason = errno == EAGAIN ? "timed out after \(HTTPPost.timeoutSeconds) s" : String(cString: strerror(errno))
            throw HTTPPost.Failure(description: "cannot receive: \(reason)")
        }
    }
}

private final class TLSConnection: Connection {
    private let context: OpaquePointer
    private let ssl: OpaquePointer

    init(socket: Int32, host: String) throws(HTTPPost.Failure) {
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw Self.failure("cannot start TLS") }
        self.context = context
        SSL_CTX_set_default_verify_paths(context)
        // A server that closes without TLS's close_notify has still sent its
        // whole body when Content-Length says so, which parse() checks. Set
        // before SSL_new, which copies the context's options.
        SSL_CTX_set_options(context, huddle_ssl_op_ignore_unexpected_eof())
        guard let ssl = SSL_new(context) else {
            SSL_CTX_free(context)
            throw Self.failure("cannot start TLS")
        }
        self.ssl = ssl
        SSL_set_verify(ssl, SSL_VERIFY_PEER, nil)
        SSL_set1_host(ssl, host)
        _ = huddle_ssl_set_server_name(ssl, host)
        SSL_set_fd(ssl, socket)
        if SSL_connect(ssl) != 1 {
            let verification = SSL_get_verify_result(ssl)
            if verification != X509_V_OK {
                throw HTTPPost.Failure(
                    description: "TLS with \(host) failed: \(String(cString: X509_verify_cert_error_string(verification)))")
            }
            throw Self.failure("TLS with \(host) failed")
        }
    }

    deinit {
        SSL_free(ssl)
        SSL_CTX_free(context)
    }

    func write(_ data: Data) throws(HTTPPost.Failure) {
        let written = data.withUnsafeBytes { buffer in SSL_write(ssl, buffer.baseAddress, Int32(buffer.count)) }
        if written != data.count { throw Self.failure("cannot send over TLS") }
    }

    func read() throws(HTTPPost.Failure) -> Data {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = SSL_read(ssl, &buffer, Int32(buffer.count))
        if count > 0 { return Data(buffer[0..<Int(count)]) }
        let reason = SSL_get_error(ssl, count)
        // A peer that closes without close_notify ends the body all the same,
        // as Connection: close says it will.
        if reason == SSL_ERROR_ZERO_RETURN || reason == SSL_ERROR_SYSCALL { return Data() }
        throw Self.failure("cannot receive over TLS")
    }

    private static func failure(_ what: String) -> HTTPPost.Failure {
        let code = ERR_get_error()
        guard code != 0 else { return HTTPPost.Failure(description: what) }
        var text = [UInt8](repeating: 0, count: 256)
        text.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { ERR_error_string_n(code, $0.baseAddress, $0.count) }
        }
        let message = String(decoding: text.prefix { $0 != 0 }, as: UTF8.self)
        return HTTPPost.Failure(description: "\(what): \(message)")
    }
}
