import CLibUV

#if canImport(Glibc)
    import Glibc
#endif

/// Answers one request; runs on the server's loop.
public typealias HTTPHandler = @Sendable (HTTPRequest) async -> HTTPResponse

/// An HTTP/1.1 server on one event loop. Several servers on several loops
/// share a port through SO_REUSEPORT, each accepting its own connections.
///
/// `start`, `shutdown` and everything else run on the loop's thread
/// (checked, or asserted in debug builds), which is what makes it Sendable.
public final class HTTPServer: @unchecked Sendable {
    public struct Configuration: Sendable {
        public var host = "127.0.0.1"
        /// 0 picks a free port; `port` then tells which.
        public var port = 8080
        public var limits = HTTPRequestParser.Limits()
        /// Which requests' bodies their handlers read as they arrive, and
        /// how long such a body may be; the rest are collected whole.
        public var streamsBody: HTTPRequestParser.BodyStreaming?
        /// How much of a streamed body is read ahead of its handler.
        public var streamedBodyBufferBytes = 256 * 1024
        /// Connections beyond this get 503 and are closed.
        public var maxConnections = 10_000
        /// From a request's first byte until its head is complete.
        public var headerTimeout = Duration.seconds(10)
        /// Between requests on a kept-alive connection.
        public var idleTimeout = Duration.seconds(60)
        /// The longest pause while a body arrives.
        public var bodyTimeout = Duration.seconds(10)
        /// After the last response, how long to read and discard before
        /// closing (closing with unread input makes the kernel reset the
        /// connection, which can destroy the response on its way).
        public var drainTimeout = Duration.seconds(2)
        /// Reading stops while a connection has more unsent output than
        /// this, and a streamed body or WebSocket waits before its next
        /// part until the client has read back within it.
        public var maxUnsentBytes = 1 << 20
        /// How long a client may read nothing of the output waiting for it
        /// before it counts as stalled and its connection closes. A large
        /// response is not a stalled client: it is one that reads none of it.
        public var sendTimeout = Duration.seconds(10)
        /// Reading stops while this many pipelined requests wait.
        public var maxPipelinedRequests = 16
        /// How long a shutdown waits for requests in flight.
        public var shutdownGracePeriod = Duration.seconds(10)
        /// One line per request at `info` (`error` for a 5xx status).
        public var logger = Logger()
        /// A request slower than this gets a `warning` line of its own,
        /// naming its operation's document by hash; nil for none.
        public var slowRequestThreshold: Duration? = .seconds(1)
        /// Where requests and connections are counted; shared by the loops.
        public var metrics = Metrics()
        /// Traces requests (a span each, and the spans of what they run);
        /// nil when tracing is off.
        public var tracer: HuddleTracer?

        public init() {}
    }

    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    public let loop: EventLoop
    public let configuration: Configuration
    private let handler: HTTPHandler
    private let listener: UnsafeMutablePointer<uv_tcp_t>
    private var listening = false
    private var connections: [ObjectIdentifier: HTTPConnection] = [:]
    /// Connections being answered 503, until they close.
    private var refused: Set<ObjectIdentifier> = []
    /// The port listened on, once started.
    public private(set) var port = 0
    public private(set) var isShuttingDown = false

    /// Upgrades to WebSocket, when the server takes them.
    let webSocketService: WebSocketService?
    /// This server's own request counts, summed into its metrics.
    let requestCounters: Metrics.RequestCounters
    /// Ids for requests that bring none; touched on the loop thread only.
    let requestIDs = RequestIDMaker()
    /// WebSocket sessions open now.
    public private(set) var openWebSockets = 0
    /// Where every connection of this loop reads into. libuv asks for a
    /// buffer just before each read and hands the bytes to the read
    /// callback, which parses or copies them before returning: one buffer
    /// per loop serves them all, and an idle connection holds none.
    let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)

    public init(
        loop: EventLoop, configuration: Configuration = Configuration(),
        webSocket: WebSocketService? = nil, handler: @escaping HTTPHandler
    ) {
        self.loop = loop
        self.configuration = configuration
        self.handler = handler
        webSocketService = webSocket
        requestCounters = configuration.metrics.makeRequestCounters()
        listener = .allocate(capacity: 1)
    }

    deinit {
        listener.deallocate()
        readBuffer.deallocate()
    }

    /// Connections open now, refused ones not counted.
    public var openConnections: Int {
        loop.assertInLoopThread()
        return connections.count - refused.count
    }

    // MARK: Starting

    /// Binds and listens (with SO_REUSEPORT, so other loops may too).
    public func start() throws(StartError) {
        loop.checkIsolated()
        // A write to a connection the client has reset must fail with
        // EPIPE, which libuv reports, not kill the process.
        signal(SIGPIPE, SIG_IGN)
        var storage = sockaddr_storage()
        let family = withUnsafeMutableBytes(of: &storage) { raw -> Int32 in
            let address = raw.baseAddress!
            if uv_ip4_addr(configuration.host, Int32(configuration.port), address.assumingMemoryBound(to: sockaddr_in.self)) == 0 {
                return AF_INET
            }
            if uv_ip6_addr(configuration.host, Int32(configuration.port), address.assumingMemoryBound(to: sockaddr_in6.self)) == 0 {
                return AF_INET6
            }
            return -1
        }
        guard family >= 0 else { throw StartError(description: "\(configuration.host) is not an IPv4 or IPv6 address") }
        try check(uv_tcp_init_ex(loop.uv, listener, UInt32(family)), "creating the socket")
        listener.pointee.data = Unmanaged.passUnretained(self).toOpaque()
        listening = true
        var descriptor: uv_os_fd_t = 0
        try check(uv_fileno(UnsafeMutableRawPointer(listener).assumingMemoryBound(to: uv_handle_t.self), &descriptor), "reading the socket")
        var one: Int32 = 1
        guard setsockopt(descriptor, SOL_SOCKET, SO_REUSEPORT, &one, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw StartError(description: "setting SO_REUSEPORT: \(String(cString: strerror(errno)))")
        }
        try withUnsafeBytes(of: &storage) { (raw) throws(StartError) in
            try check(
                uv_tcp_bind(listener, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), 0),
                "binding \(configuration.host):\(configuration.port)")
        }
        try check(
            uv_listen(stream(listener), 1024) { listener, status in
                guard status == 0 else { return }
                HTTPServer.from(listener!.pointee.data).accept()
            }, "listening")
        var bound = sockaddr_storage()
        var length = Int32(MemoryLayout<sockaddr_storage>.size)
        withUnsafeMutableBytes(of: &bound) { raw in
            _ = uv_tcp_getsockname(listener, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), &length)
            // The port sits at the same offset in sockaddr_in and sockaddr_in6.
            let networkPort = raw.load(fromByteOffset: 2, as: UInt16.self)
            self.port = Int(UInt16(bigEndian: networkPort))
        }
    }

    private func check(_ result: Int32, _ doing: String) throws(StartError) {
        guard result == 0 else {
            throw StartError(description: "\(doing): \(String(cString: uv_strerror(result)))")
        }
    }

    private static func from(_ pointer: UnsafeMutableRawPointer?) -> HTTPServer {
        Unmanaged<HTTPServer>.fromOpaque(pointer!).takeUnretainedValue()
    }

    private func accept() {
        let connection = HTTPConnection(server: self)
        connections[ObjectIdentifier(connection)] = connection
        configuration.metrics.connectionOpened()
        if uv_accept(stream(listener), connection.stream) != 0 || isShuttingDown {
            connection.close()
        } else if openConnections > configuration.maxConnections {
            refused.insert(ObjectIdentifier(connection))
            connection.refuse()
        } else {
            connection.start()
        }
    }

    // MARK: Serving

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        await handler(request)
    }

    func webSocketOpened() {
        loop.assertInLoopThread()
        openWebSockets += 1
        configuration.metrics.webSocketOpened()
    }

    func webSocketClosed() {
        loop.assertInLoopThread()
        openWebSockets -= 1
        configuration.metrics.webSocketClosed()
    }

    func connectionClosed(_ connection: HTTPConnection) {
        loop.assertInLoopThread()
        let identifier = ObjectIdentifier(connection)
        refused.remove(identifier)
        configuration.metrics.connectionClosed()
        connections[identifier] = nil
    }

    // MARK: Stopping

    /// Stops accepting, lets requests in flight finish within the grace
    /// period, then closes whatever is left.
    /// Says so in the log: how many connections it drains, and how many
    /// were still open at the grace period's end, closed mid-way.
    public func shutdown() async {
        loop.checkIsolated()
        guard !isShuttingDown else { return }
        isShuttingDown = true
        if listening {
            listening = false
            uv_close(UnsafeMutableRawPointer(listener).assumingMemoryBound(to: uv_handle_t.self), nil)
        }
        let logger = configuration.logger
        logger.announce("draining", ["port": .int(port), "connections": .int(connections.count)])
        for connection in connections.values { connection.finish() }
        let deadline = ContinuousClock.now + configuration.shutdownGracePeriod
        while !connections.isEmpty && ContinuousClock.now < deadline {
            await loop.sleep(for: .milliseconds(20))
        }
        logger.announce("stopped", ["port": .int(port), "connections_cut": .int(connections.count)])
        for connection in connections.values { connection.close() }
        while !connections.isEmpty {
            await loop.sleep(for: .milliseconds(1))
        }
    }
}

func stream(_ handle: UnsafeMutablePointer<uv_tcp_t>) -> UnsafeMutablePointer<uv_stream_t> {
    UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_stream_t.self)
}
