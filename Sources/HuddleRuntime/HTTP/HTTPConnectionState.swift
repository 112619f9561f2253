/// Where one HTTP connection is in its life, and what follows for reading
/// and for its timer: a value with no I/O, which `HTTPConnection` consults
/// and updates around every libuv call, and which tests drive directly.
struct HTTPConnectionState {
    /// How far the connection has gone towards closing; it only moves forward.
    enum Lifecycle: Int, Comparable {
        /// Taking requests.
        case open
        /// The client sent EOF, or the server is shutting down: the requests
        /// already read are answered, then the connection closes.
        case finishing
        /// The last response is written and the write side shut down;
        /// reading only to discard, so that closing does not reset the
        /// connection before the client has read it.
        case draining
        /// Its handles are closing.
        case closed

        static func < (left: Self, right: Self) -> Bool { left.rawValue < right.rawValue }
    }

    /// What the timer is counting, when it runs.
    enum TimerPhase: Equatable {
        case idle, head, body, draining
    }

    private(set) var lifecycle = Lifecycle.open
    /// A request is with the handler.
    var processing = false
    /// Requests read and not yet handed over.
    var pendingCount = 0
    /// Refused input, answered once the requests before it are.
    var failure: HTTPError?
    /// The connection switched to WebSocket.
    var isWebSocket = false

    var isClosed: Bool { lifecycle == .closed }
    var isDraining: Bool { lifecycle >= .draining }

    /// Moves the lifecycle forward (never back).
    mutating func advance(to next: Lifecycle) {
        if next > lifecycle { lifecycle = next }
    }

    /// Whether nothing is in progress, so closing loses nothing.
    func isIdle(parserIsIdle: Bool) -> Bool {
        !isWebSocket && !processing && pendingCount == 0 && parserIsIdle
    }

    /// Whether the connection should be reading: not once closed; always
    /// while draining (to discard); otherwise while the peer reads what it
    /// is sent (`unsentBytes` within the bound) and, for HTTP, while more
    /// requests are welcome.
    func wantsReading(unsentBytes: Int, maxUnsentBytes: Int, maxPipelinedRequests: Int) -> Bool {
        switch lifecycle {
        case .closed: return false
        case .draining: return true
        case .open, .finishing:
            let underBound = unsentBytes <= maxUnsentBytes
            if isWebSocket { return underBound }
            return lifecycle == .open && failure == nil && underBound && pendingCount < maxPipelinedRequests
        }
    }

    /// What the peer's EOF means: close now (nothing owed, or nobody will
    /// read the answer being worked on), or finish answering what was read.
    mutating func peerFinished(parserIsIdle: Bool) -> Bool {
        if isDraining || isIdle(parserIsIdle: parserIsIdle) || isWebSocket || processing { return true }
        advance(to: .finishing)
        return false
    }

    /// Which timeout applies now: the drain after the last response (or
    /// after our WebSocket close frame, `webSocketClosing`); none while a request is handled or owed, or
    /// on a WebSocket (its protocol keeps its own time); else by how far the
    /// parser is into the next request.
    /// A streamed request body arriving (`streamingBody`, and its handler
    /// keeping up) runs the body timeout even while the handler works.
    func timerPhase(parser: HTTPRequestParser.Phase, webSocketClosing: Bool = false, streamingBody: Bool = false) -> TimerPhase? {
        if isDraining || webSocketClosing { return .draining }
        if streamingBody && failure == nil && parser == .body { return .body }
        if isWebSocket || processing || pendingCount > 0 || failure != nil { return nil }
        switch parser {
        case .idle: return .idle
        case .head: return .head
        case .body: return .body
        }
    }
}
