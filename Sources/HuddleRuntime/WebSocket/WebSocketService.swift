import TraceContext
import Tracing

/// What an HTTP server does with requests to upgrade to WebSocket.
public struct WebSocketService: Sendable {
    /// In the server's order of preference.
    public var supportedSubprotocols: [String]
    /// Refuse (400) a handshake offering none of them; else accept it
    /// without a subprotocol and let the session decide.
    public var requireSubprotocol = true
    /// Origins a browser may connect from; `*` for any.
    public var allowedOrigins: [String]
    public var limits = WebSocketFrameParser.Limits()
    /// Output queued for a peer that does not read it: beyond this, the
    /// connection is closed (1008) rather than the server holding more.
    public var maxUnsentBytes = 4 << 20
    /// Starts the session for an accepted connection; runs on its loop.
    public var makeSession: @Sendable (_ request: HTTPRequest, _ socket: WebSocket) -> any WebSocketSession

    public init(
        supportedSubprotocols: [String], allowedOrigins: [String],
        makeSession: @escaping @Sendable (_ request: HTTPRequest, _ socket: WebSocket) -> any WebSocketSession
    ) {
        self.supportedSubprotocols = supportedSubprotocols
        self.allowedOrigins = allowedOrigins
        self.makeSession = makeSession
    }
}

/// The protocol spoken over one WebSocket (graphql-transport-ws, say).
/// Its methods are called on the connection's loop.
public protocol WebSocketSession: AnyObject {
    func received(text: String)
    func received(binary: [UInt8])
    /// The connection is gone (the code the peer sent, when it closed
    /// cleanly); nothing more can be sent.
    func closed(code: UInt16?)
}

/// An open WebSocket, as its session sees it. Use it on the loop only
/// (asserted at each entry), which is what makes it Sendable.
public final class WebSocket: @unchecked Sendable {
    /// The subprotocol agreed in the handshake.
    public let subprotocol: String?
    public let loop: EventLoop
    /// The server's logger, and the id of the request that opened the
    /// socket: an operation on it is logged as `<that id>:<its own id>`.
    public let logger: Logger
    public let requestID: String
    weak var connection: WebSocketConnection?
    /// The server's tracer, when tracing is on, and the trace the socket's
    /// operations are children of: the upgrade request's `traceparent`,
    /// or the one the client names when its session starts.
    public let tracer: HuddleTracer?
    public private(set) var traceContext = InstrumentationContext.topLevel

    init(
        subprotocol: String?, loop: EventLoop, connection: WebSocketConnection, logger: Logger, requestID: String,
        tracer: HuddleTracer? = nil, upgrade: HTTPRequestHead? = nil
    ) {
        self.subprotocol = subprotocol
        self.loop = loop
        self.connection = connection
        self.logger = logger
        self.requestID = requestID
        self.tracer = tracer
        if let tracer, let upgrade { tracer.extract(upgrade, into: &traceContext, using: HTTPHeadExtractor()) }
    }

    /// Makes the socket's operations children of `traceparent` (with its
    /// `tracestate`), which a browser, unable to set the upgrade's
    /// headers, sends in its first message; ignored when not valid.
    public func adoptTrace(traceparent: String, tracestate: String?) {
        loop.assertInLoopThread()
        guard let parent = TraceParent(header: traceparent, state: tracestate) else { return }
        traceContext.traceParent = parent
    }

    /// Sends a protocol message now (an ack, a pong, a keep-alive).
    public func send(text: String) {
        loop.assertInLoopThread()
        connection?.send(WebSocketFrame.text(text))
    }

    /// Sends an operation's message once the client has read back within
    /// the service's `maxUnsentBytes`; false when it was not sent (the
    /// socket closed, or the client stalled and it was closed with 1008).
    @discardableResult
    public func deliver(text: String) async -> Bool {
        loop.assertInLoopThread()
        guard let connection else { return false }
        return await connection.deliver(WebSocketFrame.text(text))
    }

    /// Sends an operation's message now, for a producer that cannot wait
    /// for the client to read; false when the client has fallen behind by
    /// the service's `maxUnsentBytes` (or the socket closed): pause until
    /// `room` is called (see `WebSocketConnection.push`).
    public func push(text: String, room: @escaping () -> Void) -> Bool {
        push(frame: WebSocketFrame.text(text), room: room)
    }

    /// `push(text:room:)` with the frame made (`WebSocketFrame.text`).
    public func push(frame: [UInt8], room: @escaping () -> Void) -> Bool {
        loop.assertInLoopThread()
        guard let connection else { return false }
        return connection.push(frame, room: room)
    }

    /// Starts the closing handshake; the TCP connection closes when the
    /// peer answers, or after the server's drain timeout.
    public func close(code: UInt16, reason: String = "") {
        loop.assertInLoopThread()
        connection?.close(code: code, reason: reason)
    }

    /// Bytes queued but not yet taken by the kernel: a session can stop
    /// producing while it grows.
    public var unsentBytes: Int {
        loop.assertInLoopThread()
        return connection?.unsentBytes ?? 0
    }
}
