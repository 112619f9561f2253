import Foundation

/// A port free a moment ago.
package func freePort() -> Int {
    let (descriptor, port) = boundSocket()
    close(descriptor)
    return port
}

/// A socket bound to a free port of 127.0.0.1 (with SO_REUSEPORT when
/// asked), and the port; the caller closes it.
package func boundSocket(reusePort: Bool = false) -> (descriptor: Int32, port: Int) {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    if reusePort {
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEPORT, &one, socklen_t(MemoryLayout<Int32>.size))
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            _ = bind(descriptor, $0, length)
            _ = getsockname(descriptor, $0, &length)
        }
    }
    return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
}

/// A blocking TCP client. Sendable so that its blocking reads can move
/// off the test pool (`offThePool`); one caller uses it at a time.
package final class RawClient: @unchecked Sendable {
    package let descriptor: Int32

    package init(port: Int) throws {
        // The descriptor is stored only once connected: a class whose init
        // throws after its properties are set runs deinit too, and a second
        // close there closed whatever another test had opened meanwhile under
        // the same number (a PostgreSQL connection, which then failed with
        // "Bad file descriptor").
        let connecting = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(connecting, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let failure = errno
            close(connecting)
            throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO)
        }
        descriptor = connecting
        waitAtMost(seconds: 5)
    }

    /// How long a read waits for bytes before it gives up (5 s unless set):
    /// a test whose server has minutes of work to do before it answers waits longer.
    package func waitAtMost(seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }

    package func send(_ text: String) {
        sendBytes(Array(text.utf8))
    }

    package func sendBytes(_ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count <= 0 { return }
            sent += count
        }
    }

    /// Reads until `done` holds for what arrived, the peer closes, or 5 s pass.
    package func receive(until done: ((String) -> Bool)? = nil) -> (text: String, closed: Bool) {
        let received = receiveBytes(until: done.map { done in { done(String(decoding: $0, as: UTF8.self)) } })
        return (String(decoding: received.bytes, as: UTF8.self), received.closed)
    }

    package func receiveBytes(until done: (([UInt8]) -> Bool)? = nil) -> (bytes: [UInt8], closed: Bool) {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return (bytes, count == 0) }
            bytes += chunk[..<count]
            if let done, done(bytes) { return (bytes, false) }
        }
    }
}

/// curl, silent but for errors, with `arguments`; what it wrote to each stream.
package func curl(_ arguments: [String]) throws -> (output: String, errors: String) {
    let process = Subprocess()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["curl", "-sS"] + arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
}

/// A GET (or what `options` make it) by curl: the status, the headers
/// (names in lower case) and the body.
package func curlFetch(_ url: String, _ options: [String] = []) throws -> (status: Int, headers: [String: String], body: [UInt8]) {
    let folder = try ScratchDirectory("huddle-fetch")
    let answer = try curl(["-D", "-", "-o", folder.path("body")] + options + [url]).output
    var headers: [String: String] = [:]
    var status = 0
    for line in answer.split(separator: "\r\n") {
        if line.hasPrefix("HTTP/") {
            status = Int(line.split(separator: " ")[1]) ?? 0
        } else if let colon = line.firstIndex(of: ":") {
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
    }
    let body = (try? Data(contentsOf: URL(fileURLWithPath: folder.path("body")))).map(Array.init) ?? []
    return (status, headers, body)
}
