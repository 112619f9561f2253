/// What a TCP connection becomes after a WebSocket upgrade: frames read
/// into its session's messages, control frames answered, the closing
/// handshake (RFC 6455 §5.5, §7), and backpressure on what it sends. The
/// bytes go through the `HTTPConnection` underneath, which keeps the socket.
///
/// Confined to its loop's thread, like the connection it belongs to
/// (what makes it Sendable: its tasks run on that loop).
final class WebSocketConnection: @unchecked Sendable {
    private unowned let transport: HTTPConnection
    private var parser: WebSocketFrameParser
    /// Bytes queued to the peer past which a sender is taken to be stalled.
    private let maxUnsentBytes: Int?
    private(set) var session: (any WebSocketSession)?
    /// Our close frame is sent: nothing else may follow it.
    private(set) var closeSent = false

    init(transport: HTTPConnection, limits: WebSocketFrameParser.Limits, maxUnsentBytes: Int?) {
        self.transport = transport
        parser = WebSocketFrameParser(limits: limits)
        self.maxUnsentBytes = maxUnsentBytes
    }

    /// Bytes queued but not yet taken by the kernel.
    var unsentBytes: Int { transport.unsentBytes }

    /// Hands the socket to its session, once the handshake's answer is queued.
    func open(_ session: any WebSocketSession) {
        self.session = session
    }

    func received(_ bytes: UnsafeBufferPointer<UInt8>) {
        for event in parser.feed(bytes) {
            guard !transport.isClosed else { return }
            switch event {
            case .text(let text): session?.received(text: text)
            case .binary(let bytes): session?.received(binary: bytes)
            case .ping(let payload):
                if !closeSent { transport.write(WebSocketFrame.encode(.pong, payload)) }
            case .pong:
                break
            case .close(let code, _):
                if !closeSent {
                    // Echo the peer's code (RFC 6455 §5.5.1), then close TCP first, as a server should.
                    closeSent = true
                    transport.write(code.map { WebSocketFrame.close(code: $0) } ?? WebSocketFrame.encode(.close, []))
                }
                end(code: code)
                transport.finishWriting()
            case .failure(let code, let reason):
                if !closeSent {
                    closeSent = true
                    transport.write(WebSocketFrame.close(code: code, reason: reason))
                }
                end(code: nil)
                transport.finishWriting()
            }
        }
    }

    /// Sends a frame now: the protocol's own small messages (acks, pongs,
    /// keep-alives), which a peer that stops reading cannot make pile up
    /// (reading stops while the backlog is over the bound).
    func send(_ frame: [UInt8]) {
        guard !closeSent, !transport.isClosed else { return }
        transport.write(frame)
        transport.updateReading()
    }

    /// Sends a frame of results once the peer has read what was sent
    /// before back within `maxUnsentBytes`: a large message waits for
    /// nothing and is not taken for a stalled peer; a peer that reads
    /// nothing for the server's send timeout has stalled (1008). False
    /// when the frame was not sent.
    func deliver(_ frame: [UInt8]) async -> Bool {
        while let maxUnsentBytes, !closeSent, !transport.isClosed, transport.unsentBytes > maxUnsentBytes {
            let before = transport.unsentBytes
            let room = await transport.roomToWriteWithin(maxUnsentBytes)
            if !room && !transport.isClosed && transport.unsentBytes >= before {
                // A bounded backlog, rather than every event it misses.
                close(code: 1008, reason: "the client is not reading")
            }
        }
        guard !closeSent, !transport.isClosed else { return false }
        transport.write(frame)
        transport.updateReading()
        return true
    }

    /// Sends a frame of results now, for a producer that cannot wait (a
    /// pushed subscription, handed its event with many others in one
    /// job). False when the backlog is now past `maxUnsentBytes` (or the
    /// socket closed): the producer should pause until `room` is called,
    /// once the peer has read back within the bound. A peer that reads
    /// nothing of it for the server's send timeout has stalled (1008), as
    /// with `deliver`.
    func push(_ frame: [UInt8], room: @escaping () -> Void) -> Bool {
        guard !closeSent, !transport.isClosed else { return false }
        transport.write(frame)
        transport.updateReading()
        guard let maxUnsentBytes, transport.unsentBytes > maxUnsentBytes else { return true }
        waitingForRoom.append(room)
        watchBacklog(maxUnsentBytes)
        return false
    }

    /// Producers paused until the backlog is back within the bound.
    private var waitingForRoom: [() -> Void] = []
    private var watchingBacklog = false

    /// Watches a backlog over `limit` until it falls back within it (and
    /// lets the paused producers go on), or the peer is taken for stalled.
    private func watchBacklog(_ limit: Int) {
        guard !watchingBacklog else { return }
        watchingBacklog = true
        // Held by the watch until it ends, which it does once the connection closes.
        let transport = transport
        Task(executorPreference: transport.loop) { [self] in
            while !closeSent, !transport.isClosed, transport.unsentBytes > limit {
                let before = transport.unsentBytes
                let room = await transport.roomToWriteWithin(limit)
                if !room && !transport.isClosed && transport.unsentBytes >= before {
                    close(code: 1008, reason: "the client is not reading")
                }
            }
            watchingBacklog = false
            let paused = waitingForRoom
            waitingForRoom = []
            guard !closeSent, !transport.isClosed else { return }
            for resume in paused { resume() }
        }
    }

    /// Sends our close frame and waits (the drain timeout at most) for the peer's.
    func close(code: UInt16, reason: String) {
        guard !closeSent, !transport.isClosed else { return }
        closeSent = true
        transport.write(WebSocketFrame.close(code: code, reason: reason))
        transport.armTimer()
    }

    /// The session learns that the socket is gone (the peer's code when it closed cleanly).
    func end(code: UInt16?) {
        guard let session else { return }
        self.session = nil
        transport.webSocketEnded()
        session.closed(code: code)
    }
}
