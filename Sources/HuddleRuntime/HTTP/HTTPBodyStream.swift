/// A response body written while it is produced (multipart incremental
/// results, server-sent events): chunked under HTTP/1.1, and under
/// HTTP/1.0 as it comes, the connection closing to end it.
public struct HTTPBodyStream: Sendable {
    /// Writes the body, a part at a time, through the writer it is given.
    public typealias Producer = @Sendable (HTTPBodyWriter) async -> Void

    public let produce: Producer

    public init(_ produce: @escaping Producer) {
        self.produce = produce
    }
}

/// Writes the parts of a streamed body to the client.
public struct HTTPBodyWriter: Sendable {
    let connection: HTTPConnection
    let chunked: Bool

    /// Sends `bytes` once the client has read enough of what was sent
    /// before (see `HTTPConnection.roomToWrite`), whatever their size;
    /// false once the client is gone or has stalled, and the producer
    /// should stop.
    @discardableResult
    public func write(_ bytes: [UInt8]) async -> Bool {
        guard await connection.roomToWrite() else { return false }
        guard !bytes.isEmpty else { return true }
        if chunked {
            var chunk = Array(String(bytes.count, radix: 16).utf8) + [0x0D, 0x0A]
            chunk += bytes
            chunk += [0x0D, 0x0A]
            connection.write(chunk)
        } else {
            connection.write(bytes)
        }
        return !connection.isClosed
    }

    /// Whether the client is still there to write to.
    public var isOpen: Bool { !connection.isClosed }

    /// Returns when the server begins shutting down (or the client has
    /// gone, or the task is cancelled): a stream that would run on ends
    /// itself then, as the protocol says, within the grace period.
    public func untilServerStops() async { await connection.untilServerStops() }

    /// Whether the server is shutting down.
    public var serverIsStopping: Bool { connection.serverIsStopping }
}
