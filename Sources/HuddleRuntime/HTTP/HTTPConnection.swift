import CLibUV
import TraceContext

/// One client's TCP connection: reads requests, answers them one at a time
/// in the order they arrived (so pipelined responses keep their order), and
/// enforces the timeouts and the write backpressure of its server.
///
/// Confined to its loop's thread (asserted at each entry), which is what
/// makes it Sendable; the server owns it until its handles close.
final class HTTPConnection: TurnEndObserver, @unchecked Sendable {
    private unowned let server: HTTPServer
    /// The loop the connection is confined to.
    var loop: EventLoop { server.loop }
    private let handle: UnsafeMutablePointer<uv_tcp_t>
    private let timer: UnsafeMutablePointer<uv_timer_t>
    /// The loop's read buffer (`HTTPServer.readBuffer`), kept here so that
    /// each read does not reach it through the unowned server.
    private let readBuffer: UnsafeMutableRawBufferPointer
    private var parser: HTTPRequestParser
    private var pending: [HTTPRequest] = [] {
        didSet { state.pendingCount = pending.count }
    }
    /// Where the connection is in its life: what it may read, which timer runs.
    private var state = HTTPConnectionState()
    /// The task that answers this connection's requests one after another:
    /// one task per connection, not one per request (making a task costs
    /// more than a small response does).
    private var responder = Responder.none
    /// The responder's task, cancelled when the connection closes while a
    /// request is with the handler: work for a client that is gone stops.
    private var responderTask: Task<Void, Never>?
    /// `watchTheLastWrites`' task, cancelled when the connection closes.
    private var lastWritesWatch: Task<Void, Never>?
    /// A request handed to the responder while it was still finishing the last.
    private var handoff: (request: HTTPRequest, started: ContinuousClock.Instant)?

    private enum Responder {
        case none
        case busy
        case idle(UnsafeContinuation<(request: HTTPRequest, started: ContinuousClock.Instant)?, Never>)
    }
    /// Whether libuv is reading the socket for us.
    private var reading = false
    private var openHandles = 2
    private var timerPhase: HTTPConnectionState.TimerPhase?
    /// When the current phase times out (the loop's clock, ms); nil for none.
    private var deadline: UInt64?
    /// When the libuv timer fires, if it runs. Moving a deadline later
    /// leaves the timer alone (it re-arms itself when it fires early), so a
    /// request does not cost timer-heap updates on the way in and out.
    private var timerDue: UInt64?
    /// Set once the connection has switched to WebSocket.
    private var webSocket: WebSocketConnection?
    /// The peer's IP address, read once the connection is accepted.
    private var peerAddress: String?
    /// The streamed body arriving now, until it is whole or refused.
    private var bodyStream: HTTPRequestBodyStream?
    /// That body, while its client waits for `100 Continue` before sending it.
    private var awaitingContinue: HTTPRequestBodyStream?

    var stream: UnsafeMutablePointer<uv_stream_t> {
        UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_stream_t.self)
    }

    init(server: HTTPServer) {
        self.server = server
        parser = HTTPRequestParser(limits: server.configuration.limits, streamsBody: server.configuration.streamsBody)
        handle = .allocate(capacity: 1)
        timer = .allocate(capacity: 1)
        readBuffer = server.readBuffer
        // Both only fail for arguments that cannot happen here (a loop that
        // is not initialised); a connection without its handles cannot go on.
        precondition(uv_tcp_init(server.loop.uv, handle) == 0 && uv_timer_init(server.loop.uv, timer) == 0)
        let context = Unmanaged.passUnretained(self).toOpaque()
        handle.pointee.data = context
        timer.pointee.data = context
    }

    deinit {
        handle.deallocate()
        timer.deallocate()
    }

    private static func from(_ pointer: UnsafeMutableRawPointer?) -> HTTPConnection {
        Unmanaged<HTTPConnection>.fromOpaque(pointer!).takeUnretainedValue()
    }

    /// Starts serving a connection just accepted.
    func start() {
        server.loop.assertInLoopThread()
        // Only latency is at stake: a socket the peer has already reset
        // fails here and again at the first read, which closes it.
        _ = uv_tcp_nodelay(handle, 1)
        peerAddress = Self.peerAddress(of: handle)
        updateReading()
        armTimer()
    }

    /// The numeric IPv4 or IPv6 address at the other end; nil when the
    /// socket no longer has one (a peer already gone).
    private static func peerAddress(of handle: UnsafeMutablePointer<uv_tcp_t>) -> String? {
        var storage = sockaddr_storage()
        var length = Int32(MemoryLayout<sockaddr_storage>.size)
        let name = withUnsafeMutablePointer(to: &storage) { address in
            address.withMemoryRebound(to: sockaddr.self, capacity: 1) { uv_tcp_getpeername(handle, $0, &length) }
        }
        guard name == 0 else { return nil }
        var text = [CChar](repeating: 0, count: 64)
        let family = Int32(storage.ss_family)
        let written: Int32 = withUnsafePointer(to: &storage) { address in
            if family == AF_INET {
                return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { uv_ip4_name($0, &text, text.count) }
            }
            if family == AF_INET6 {
                return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { uv_ip6_name($0, &text, text.count) }
            }
            return -1
        }
        guard written == 0 else { return nil }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Answers 503 and closes: the server has all the connections it takes.
    func refuse() {
        server.loop.assertInLoopThread()
        var response = HTTPResponse.error(HTTPError(503, "too many connections"))
        let id = server.requestIDs.make()
        response.headers.append(("X-Request-Id", id))
        write(response.serialized(forHead: false, closing: true))
        logExchange(nil, id: id, response, started: nil)
        finishWriting()
    }

    /// Whether nothing is in progress, so closing loses nothing.
    var isIdle: Bool {
        server.loop.assertInLoopThread()
        return state.isIdle(parserIsIdle: parser.phase == .idle)
    }

    var isClosed: Bool {
        server.loop.assertInLoopThread()
        return state.isClosed
    }

    /// For a graceful shutdown: answers what was read, then closes; a
    /// WebSocket is closed with 1001 (going away).
    func finish() {
        server.loop.assertInLoopThread()
        state.advance(to: .finishing)
        serverIsStopping = true
        resumeStopWaiters()
        if let webSocket {
            webSocket.close(code: 1001, reason: "server shutting down")
        } else if isIdle {
            // A response may still be on its way to a client reading it.
            if unsentBytes > 0 { finishWriting() } else { close() }
        } else {
            updateReading()
        }
    }

    var unsentBytes: Int {
        server.loop.assertInLoopThread()
        return Int(uv_stream_get_write_queue_size(stream)) + gathered.count
    }

    /// A WebSocket's frames written during this turn of the loop, sent as
    /// one write when it ends (`turnEnded`): an event that reaches many
    /// sockets, or many events that reach one, cost a system call per
    /// socket and turn rather than one per frame.
    private var gathered: [UInt8] = []

    // MARK: Reading

    func updateReading() {
        server.loop.assertInLoopThread()
        // A streamed body's handler that has fallen behind holds the
        // client back (while draining, everything is read and dropped).
        // A streamed body that is arriving is read on whatever else holds
        // reading back (a shutdown finishing, pipelined requests waiting,
        // unread responses): it belongs to a request already taken, and its
        // buffer bounds it.
        let streamedBodyArriving = bodyStream != nil && state.failure == nil && !state.isClosed
        let wanted =
            (state.wantsReading(
                unsentBytes: unsentBytes, maxUnsentBytes: server.configuration.maxUnsentBytes,
                maxPipelinedRequests: server.configuration.maxPipelinedRequests) || streamedBodyArriving)
            && (state.isDraining || bodyStream?.isFull != true)
        if wanted && !reading {
            reading = true
            let started = uv_read_start(
                stream,
                { handle, _, buffer in
                    let connection = HTTPConnection.from(handle!.pointee.data)
                    buffer!.pointee = uv_buf_init(
                        connection.readBuffer.baseAddress!.assumingMemoryBound(to: CChar.self), UInt32(connection.readBuffer.count))
                },
                { stream, count, buffer in
                    let connection = HTTPConnection.from(stream!.pointee.data)
                    if count < 0 {
                        connection.peerFinished()
                    } else if count > 0 {
                        connection.received(UnsafeRawBufferPointer(start: buffer!.pointee.base, count: count))
                    }
                })
            // A socket that cannot be read (reset before the first read) is done with.
            if started != 0 {
                reading = false
                close()
            }
        } else if !wanted && reading {
            reading = false
            uv_read_stop(stream)
        }
    }

    /// The client sent EOF. With nothing owed, or while its request is
    /// with the handler (nginx hangs up like that: nobody will read the
    /// answer), the connection closes; else what was read is answered first.
    private func peerFinished() {
        if state.peerFinished(parserIsIdle: parser.phase == .idle) {
            close()
        } else {
            updateReading()
        }
    }

    private func received(_ bytes: UnsafeRawBufferPointer) {
        if state.isDraining { return }
        if let webSocket {
            webSocket.received(bytes.bindMemory(to: UInt8.self))
            return
        }
        // Taken from the end of the reversed list, each event is moved out
        // rather than copied (a request's head holds a dozen strings).
        var events = parser.feed(bytes.bindMemory(to: UInt8.self))
        events.reverse()
        while let event = events.popLast() {
            switch consume event {
            case .head(let head):
                // Only when no earlier response is owed: an interim
                // response must not overtake them. A client that gets no
                // 100 sends its body after a while anyway.
                if head.expectsContinue && head.version == .http11 && pending.isEmpty && !state.processing {
                    write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
                }
            case .request(var request):
                request.peerAddress = peerAddress
                pending.append(request)
            case .streaming(let head):
                // The 100 waits for the handler's first read: a request it
                // refuses from its head alone (not signed in, no such URL)
                // does not have the client send the whole body first.
                let waitsForContinue = head.expectsContinue && head.version == .http11
                var firstRead: (@Sendable () -> Void)?
                if waitsForContinue { firstRead = { [weak self] in self?.bodyWanted() } }
                let stream = HTTPRequestBodyStream(
                    bufferLimit: server.configuration.streamedBodyBufferBytes, drained: { [weak self] in self?.bodyDrained() },
                    firstRead: firstRead)
                bodyStream = stream
                awaitingContinue = waitsForContinue ? stream : nil
                pending.append(HTTPRequest(head: head, bodyStream: stream, peerAddress: peerAddress))
            case .bodyPart(let bytes):
                // A client that did not wait for the 100 gets none.
                awaitingContinue = nil
                bodyStream?.append(bytes)
            case .bodyEnd:
                bodyStream?.finish()
                bodyStream = nil
                awaitingContinue = nil
            case .refused(let error):
                // A streamed body cut short: its handler answers (it reads
                // the error), and the connection closes after that answer.
                bodyStream?.fail(error)
                bodyStream = nil
                awaitingContinue = nil
                state.failure = error
            }
        }
        updateReading()
        processNext()
        armTimer()
    }

    /// A streamed body's handler has caught up: reading goes on. Called
    /// from the handler's thread; the work is the loop's.
    private func bodyDrained() {
        let loop = server.loop
        loop.enqueue { [self] in
            guard !state.isClosed else { return }
            updateReading()
            armTimer()
        }
    }

    /// A streamed body's handler has begun to read it: a client waiting
    /// for `100 Continue` is told to send it. The handler works on this
    /// request, so every earlier response is written already.
    private func bodyWanted() {
        let loop = server.loop
        loop.enqueue { [self] in
            guard !state.isClosed, !state.isDraining, let waiting = awaitingContinue, waiting === bodyStream else { return }
            awaitingContinue = nil
            write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
    }

    // MARK: Answering

    private func processNext() {
        guard !state.processing, !state.isDraining, webSocket == nil else { return }
        guard uv_stream_get_write_queue_size(stream) <= server.configuration.maxUnsentBytes else {
            // Resumed when the client has read enough (see `wrote`).
            return
        }
        guard !pending.isEmpty else {
            if let failure = state.failure {
                var response = HTTPResponse.error(failure)
                let id = server.requestIDs.make()
                response.headers.append(("X-Request-Id", id))
                write(response.serialized(forHead: false, closing: true))
                logExchange(nil, id: id, response, started: nil)
                finishWriting()
            } else if state.lifecycle == .finishing {
                close()
            }
            return
        }
        state.processing = true
        var request = pending.removeFirst()
        request.id = RequestID.accepting(request.head.header("x-request-id")) ?? server.requestIDs.make()
        let started = ContinuousClock.now
        if let service = server.webSocketService, WebSocketHandshake.isUpgrade(request.head) {
            upgrade(request, service: service, started: started)
            return
        }
        updateReading()
        armTimer()
        switch responder {
        case .none:
            responder = .busy
            // The connection's own lane: a request that keeps the loop busy
            // takes turns with the other connections' (see `EventLoop`).
            let lane = server.loop.makeLane()
            responderTask = Task(executorPreference: lane) { [self] in
                await LoopLane.$current.withValue(lane) { await respond(first: (request, started)) }
            }
        case .idle(let continuation):
            responder = .busy
            continuation.resume(returning: (request, started))
        case .busy:
            handoff = (request, started)
        }
    }

    /// The responder's loop: answers a request, then waits for the next one
    /// (nil when the connection ends).
    private func respond(first: (request: HTTPRequest, started: ContinuousClock.Instant)) async {
        var next: (request: HTTPRequest, started: ContinuousClock.Instant)? = first
        while let (request, started) = next.take() {
            let tracer = server.configuration.tracer
            let span = tracer?.startServerSpan(request.head, id: request.id, client: peerAddress)
            var response = await RequestID.$current.withValue(request.id) {
                guard let tracer, let span else { return await server.respond(to: request) }
                return await tracer.run(in: span) { await server.respond(to: request) }
            }
            response.headers.append(("X-Request-Id", request.id))
            guard !state.isClosed else {
                // The client left before its answer: the span still ends, saying so.
                span?.updateAttributes { $0.set("huddle.client_left", value: .bool(true)) }
                span?.finish(status: response.status, route: response.route)
                state.processing = false
                break
            }
            // After a request to upgrade that is answered as HTTP, the
            // parser has stopped; the connection cannot go on. A streamed
            // body under HTTP/1.0 ends when the connection does.
            let isHead = request.head.method == "HEAD"
            let chunked = request.head.version == .http11
            let streams = response.stream != nil && !isHead
            // A streamed request body the handler answered before it all
            // arrived leaves the rest unread: no next request can be found.
            let closesAfter =
                !request.head.keepAlive || state.lifecycle >= .finishing || server.isShuttingDown || request.head.asksToUpgrade
                || (streams && !chunked) || request.bodyStream?.arrivedWhole == false
            write(response.serialized(forHead: isHead, closing: closesAfter, chunked: chunked))
            // A stream's latency is its head's: it then lasts as long as its events do.
            let answered = ContinuousClock.now
            if streams, let stream = response.stream {
                // Still processing: a client that leaves cancels the producer.
                await RequestID.$current.withValue(request.id) {
                    guard let tracer, let span else { return await stream.produce(HTTPBodyWriter(connection: self, chunked: chunked)) }
                    await tracer.run(in: span) { await stream.produce(HTTPBodyWriter(connection: self, chunked: chunked)) }
                }
                // A producer that stopped early (its client stalled, or went)
                // leaves a closed connection, never a body that looks whole.
                if chunked && !state.isClosed { write(Array("0\r\n\r\n".utf8)) }
            }
            state.processing = false
            span?.finish(status: response.status, route: response.route)
            logExchange(
                request.head, id: request.id, response, started: started, answered: streams ? answered : nil,
                trace: span?.context.traceParent)
            guard !state.isClosed else { break }
            if closesAfter {
                pending.removeAll()
                finishWriting()
                break
            }
            processNext()
            armTimer()
            if let handed = handoff.take() {
                next = handed
            } else if state.isDraining {
                break
            } else {
                next = await withUnsafeContinuation { responder = .idle($0) }
            }
        }
        responder = .none
        responderTask = nil
    }

    /// Lets a waiting responder go: the connection will have no more requests for it.
    private func endResponder() {
        if case .idle(let continuation) = responder {
            responder = .none
            continuation.resume(returning: nil)
        }
    }

    // MARK: WebSocket

    private func upgrade(_ request: HTTPRequest, service: WebSocketService, started: ContinuousClock.Instant) {
        switch WebSocketHandshake.respond(
            to: request.head, supportedSubprotocols: service.supportedSubprotocols,
            requireSubprotocol: service.requireSubprotocol, allowedOrigins: service.allowedOrigins
        ) {
        case .refuse(var response):
            state.processing = false
            response.headers.append(("X-Request-Id", request.id))
            write(response.serialized(forHead: false, closing: true))
            logExchange(request.head, id: request.id, response, started: started)
            pending.removeAll()
            finishWriting()
        case .accept(var response, let subprotocol):
            response.headers.append(("X-Request-Id", request.id))
            write(response.serialized(forHead: false, closing: false))
            logExchange(request.head, id: request.id, response, started: started)
            let leftover = parser.takeBytesAfterUpgrade()
            let connection = WebSocketConnection(transport: self, limits: service.limits, maxUnsentBytes: service.maxUnsentBytes)
            webSocket = connection
            state.isWebSocket = true
            state.processing = false
            uv_timer_stop(timer)
            timerPhase = nil
            deadline = nil
            timerDue = nil
            let socket = WebSocket(
                subprotocol: subprotocol, loop: server.loop, connection: connection, logger: server.configuration.logger,
                requestID: request.id, tracer: server.configuration.tracer, upgrade: request.head)
            connection.open(service.makeSession(request, socket))
            server.webSocketOpened()
            updateReading()
            if !leftover.isEmpty {
                leftover.withUnsafeBufferPointer { connection.received($0) }
            }
        }
    }

    /// The WebSocket's session has ended: the server counts one socket fewer.
    func webSocketEnded() {
        server.loop.assertInLoopThread()
        server.webSocketClosed()
    }

    /// The request log's line. The path goes without its query string,
    /// which may carry variables a client would not want logged; variables'
    /// values are never logged, nor tokens.
    /// `answered`, for a streamed response, is when its head went out: its
    /// latency for the metrics and the slow-request line, where the line's
    /// duration is the whole stream's.
    private func logExchange(
        _ head: HTTPRequestHead?, id: String, _ response: HTTPResponse, started: ContinuousClock.Instant?,
        answered: ContinuousClock.Instant? = nil, trace: TraceParent? = nil
    ) {
        // Only a recorded trace's ids lead anywhere: an unsampled one was never exported.
        let trace = trace?.isSampled == true ? trace : nil
        var duration: Duration?
        var latency: Duration?
        if let started {
            let now = ContinuousClock.now
            duration = now - started
            latency = (answered ?? now) - started
        }
        let milliseconds = duration.map { $0.seconds * 1000 }
        server.requestCounters.record(
            operationType: response.countedAs, status: response.status, seconds: latency?.seconds ?? 0, operation: response.operation)
        let logger = server.configuration.logger
        // A refused request (no head) is the client's doing, whatever its status.
        let level: LogLevel = response.status >= 500 && head != nil ? .error : .info
        let operation = response.operation
        let codes = operation.map { $0.errorCodes.isEmpty ? nil : $0.errorCodes.joined(separator: ",") } ?? nil
        if logger.logs(level) {
            logger.log(
                level, "request",
                [
                    "request_id": .string(id),
                    "trace_id": trace.map { .string($0.traceID.hex) },
                    "span_id": trace.map { .string($0.spanID.hex) },
                    "method": head.map { .string($0.method) },
                    "path": head.map { .string(String($0.path)) },
                    "operation_type": operation?.type.map { .string($0) },
                    "operation": operation?.name.map { .string($0) },
                    "status": .int(response.status),
                    "duration_ms": milliseconds.map { .double($0) },
                    "bytes": .int(response.body.count),
                    "cost": operation?.cost.map { .int($0) },
                    "error_codes": codes.map { .string($0) },
                    "client": peerAddress.map { .string($0) },
                    "user_id": operation?.userID.map { .string($0) },
                ])
        }
        if let threshold = server.configuration.slowRequestThreshold, let latency, latency > threshold, logger.logs(.warning) {
            logger.log(
                .warning, "slow request",
                [
                    "request_id": .string(id),
                    "trace_id": trace.map { .string($0.traceID.hex) },
                    "path": head.map { .string(String($0.path)) },
                    "operation_type": operation?.type.map { .string($0) },
                    "operation": operation?.name.map { .string($0) },
                    "duration_ms": .double(latency.seconds * 1000),
                    "threshold_ms": .double(threshold.seconds * 1000),
                    "cost": operation?.cost.map { .int($0) },
                    "document_sha256": operation?.document.map { .string(Digest.sha256Hex(Array($0.utf8))) },
                ])
        }
    }

    // MARK: Backpressure

    /// Producers waiting for the client to read, by number: resumed with
    /// true when what is queued is back within their limit, with false
    /// when the connection closes or their own wait times out.
    private var roomWaiters: [Int: (limit: Int, continuation: CheckedContinuation<Bool, Never>)] = [:]
    private var nextRoomWaiter = 0
    /// The server is shutting down (`finish`).
    private(set) var serverIsStopping = false
    /// Producers of long streams waiting to hear that the server is stopping.
    private var stopWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var nextStopWaiter = 0

    /// Returns once the server is shutting down or the connection has
    /// closed, or the calling task is cancelled: a long stream (an event
    /// stream's subscription) ends itself properly rather than being cut
    /// at the end of the grace period.
    func untilServerStops() async {
        server.loop.assertInLoopThread()
        guard !serverIsStopping, !state.isClosed else { return }
        let number = nextStopWaiter
        nextStopWaiter += 1
        let loop = server.loop
        await withTaskCancellationHandler {
            await withCheckedContinuation { stopWaiters[number] = $0 }
        } onCancel: {
            // Enqueued, so after the continuation is stored (both on the loop).
            loop.enqueue { [weak self] in self?.stopWaiters.removeValue(forKey: number)?.resume() }
        }
    }

    private func resumeStopWaiters() {
        let waiters = stopWaiters
        stopWaiters = [:]
        for waiter in waiters.values { waiter.resume() }
    }

    /// Waits until what is queued for the client is within
    /// `maxUnsentBytes` (at once when it is), so that a producer writes its
    /// next part only as the client reads: the backlog stays bounded, and
    /// a part may be of any size. A client that reads nothing of what
    /// waits for it for `sendTimeout` has stalled, and the connection
    /// closes. False once the connection is closed.
    func roomToWrite() async -> Bool {
        server.loop.assertInLoopThread()
        while !state.isClosed && unsentBytes > server.configuration.maxUnsentBytes {
            let before = unsentBytes
            let room = await roomToWriteWithin(server.configuration.maxUnsentBytes)
            if !room && !state.isClosed && unsentBytes >= before { close() }
        }
        return !state.isClosed
    }

    /// One wait for the backlog to fall within `limit`: true when it has,
    /// false when the connection closed or `sendTimeout` passed first (the
    /// caller tells a slow reader from a stalled one by the backlog).
    func roomToWriteWithin(_ limit: Int) async -> Bool {
        server.loop.assertInLoopThread()
        guard !state.isClosed else { return false }
        guard unsentBytes > limit else { return true }
        let number = nextRoomWaiter
        nextRoomWaiter += 1
        let loop = server.loop
        let sendTimeout = server.configuration.sendTimeout
        let timeout = Task(executorPreference: loop) { [weak self] in
            await loop.sleep(for: sendTimeout)
            guard !Task.isCancelled, let self else { return }
            roomWaiters.removeValue(forKey: number)?.continuation.resume(returning: false)
        }
        defer { timeout.cancel() }
        return await withCheckedContinuation { roomWaiters[number] = (limit, $0) }
    }

    private func resumeRoomWaiters(_ room: Bool) {
        let waiters = roomWaiters
        roomWaiters = [:]
        for waiter in waiters.values { waiter.continuation.resume(returning: room) }
    }

    /// Lets go the producers whose limit the backlog is back within.
    private func resumeWaitersWithRoom() {
        let backlog = unsentBytes
        for (number, waiter) in roomWaiters where backlog <= waiter.limit {
            roomWaiters[number] = nil
            waiter.continuation.resume(returning: true)
        }
    }

    /// While the last response is sent after a shutdown of the write side:
    /// the client must keep reading it (some of it every `sendTimeout`).
    private func watchTheLastWrites() {
        let loop = server.loop
        let timeout = server.configuration.sendTimeout
        lastWritesWatch = Task(executorPreference: loop) { [self] in
            var before = unsentBytes
            while !state.isClosed && awaitingFlush {
                await loop.sleep(for: timeout)
                guard !state.isClosed && awaitingFlush else { return }
                let now = unsentBytes
                if now >= before { return close() }
                before = now
            }
        }
    }

    func write(_ bytes: [UInt8]) {
        server.loop.assertInLoopThread()
        guard !state.isClosed else { return }
        if state.isWebSocket && !state.isDraining {
            if gathered.isEmpty {
                gathered = bytes
                server.loop.atEndOfTurn(self)
            } else {
                gathered += bytes
            }
            return
        }
        writeNow(bytes)
    }

    /// Sends the frames gathered this turn.
    private func sendGathered() {
        guard !gathered.isEmpty else { return }
        let bytes = gathered
        gathered = []
        guard !state.isClosed else { return }
        writeNow(bytes)
        // Reading paused while the gathered bytes counted as a backlog, and
        // producers waiting for room, may have waited only on them: a write
        // the socket took whole has no completion to tell them.
        if !roomWaiters.isEmpty { resumeWaitersWithRoom() }
        updateReading()
    }

    private func writeNow(_ bytes: [UInt8]) {
        // Bytes with nothing queued before them (a response, a frame): the
        // socket takes most whole at once. A queued write costs a copy, a
        // request and, when libuv finishes it, a change to the socket's
        // epoll registration: a system call per write that the direct
        // write does not make.
        var written = 0
        if uv_stream_get_write_queue_size(stream) == 0, !bytes.isEmpty {
            let result = bytes.withUnsafeBytes { raw in
                var buffer = uv_buf_init(
                    UnsafeMutablePointer(mutating: raw.baseAddress!.assumingMemoryBound(to: CChar.self)), UInt32(raw.count))
                return uv_try_write(stream, &buffer, 1)
            }
            // A failure (the peer gone) is left to the queued write below,
            // which reports it as before, after the exchange is logged.
            if result >= 0 {
                written = Int(result)
                if written == bytes.count { return }
            }
        }
        let rest = bytes[written...]
        let request = UnsafeMutablePointer<uv_write_t>.allocate(capacity: 1)
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: rest.count, alignment: 1)
        storage.copyBytes(from: rest)
        request.pointee.data = UnsafeMutableRawPointer(storage.baseAddress)
        var buffer = uv_buf_init(storage.baseAddress!.assumingMemoryBound(to: CChar.self), UInt32(rest.count))
        let result = uv_write(request, stream, &buffer, 1) { request, status in
            request!.pointee.data.deallocate()
            let connection = HTTPConnection.from(request!.pointee.handle.pointee.data)
            request!.deallocate()
            connection.wrote(status: status)
        }
        if result != 0 {
            storage.deallocate()
            request.deallocate()
            close()
        }
    }

    func turnEnded() {
        sendGathered()
    }

    private func wrote(status: Int32) {
        if status != 0 {
            close()
            return
        }
        if !roomWaiters.isEmpty { resumeWaitersWithRoom() }
        updateReading()
        processNext()
    }

    /// The write side is shut down once what is queued is sent; the drain
    /// timer starts only then, however long sending takes a reading client.
    private var awaitingFlush = false

    /// Sends what is queued, then half-closes and drains for a moment.
    func finishWriting() {
        server.loop.assertInLoopThread()
        guard !state.isDraining else { return }
        // What was gathered goes before the end of the stream.
        sendGathered()
        state.advance(to: .draining)
        // What is left of a streamed body is read and dropped from now on;
        // its handler has answered, and what it had not read goes.
        bodyStream?.fail(HTTPError(400, "the request was answered"))
        bodyStream = nil
        awaitingContinue = nil
        let request = UnsafeMutablePointer<uv_shutdown_t>.allocate(capacity: 1)
        request.pointee.data = Unmanaged.passUnretained(self).toOpaque()
        awaitingFlush = true
        // libuv calls back once every queued write is done (or, cancelled,
        // while the handle closes: the connection is alive until then).
        let result = uv_shutdown(request, stream) { request, _ in
            let connection = HTTPConnection.from(request!.pointee.data)
            request!.deallocate()
            connection.awaitingFlush = false
            connection.armTimer()
        }
        if result != 0 {
            request.deallocate()
            awaitingFlush = false
            close()
            return
        }
        updateReading()
        if unsentBytes > 0 { watchTheLastWrites() }
        armTimer()
    }

    // MARK: Timeouts

    /// Idle between requests; a head that takes too long to arrive; a body
    /// that stalls (restarted whenever some of it arrives); the drain after
    /// the last response. No timer while the handler works on a request.
    func armTimer() {
        server.loop.assertInLoopThread()
        guard !state.isClosed else { return }
        let phase = state.timerPhase(
            parser: parser.phase, webSocketClosing: webSocket?.closeSent == true,
            streamingBody: reading && bodyStream.map { !$0.isFull } ?? false)
        // The drain after the last response counts from its last byte sent.
        guard let phase, !(phase == .draining && awaitingFlush) else {
            timerPhase = nil
            deadline = nil
            return
        }
        if phase == timerPhase && phase != .body { return }
        timerPhase = phase
        // Each read on its own, not through a copy of the whole
        // configuration (its logger and metrics retained and released):
        // every request arms the timer.
        let timeout =
            switch phase {
            case .draining: server.configuration.drainTimeout
            case .idle: server.configuration.idleTimeout
            case .head: server.configuration.headerTimeout
            case .body: server.configuration.bodyTimeout
            }
        let due = uv_now(server.loop.uv) + UInt64(max(0, timeout.milliseconds))
        deadline = due
        if timerDue.map({ due < $0 }) ?? true { startTimer(due: due) }
    }

    private func startTimer(due: UInt64) {
        timerDue = due
        let now = uv_now(server.loop.uv)
        // Fails only for a timer being closed, whose connection needs no deadline.
        _ = uv_timer_start(
            timer,
            { timer in
                HTTPConnection.from(timer!.pointee.data).timerFired()
            }, due > now ? due - now : 0, 0)
    }

    private func timerFired() {
        timerDue = nil
        guard let deadline else { return }
        if uv_now(server.loop.uv) < deadline { return startTimer(due: deadline) }
        timedOut()
    }

    private func timedOut() {
        switch timerPhase {
        case .head, .body:
            timerPhase = nil
            let timeout = HTTPError(408, "request timed out")
            bodyStream?.fail(timeout)
            bodyStream = nil
            state.failure = timeout
            updateReading()
            processNext()
        default:
            close()
        }
    }

    // MARK: Closing

    func close() {
        server.loop.assertInLoopThread()
        guard !state.isClosed else { return }
        state.advance(to: .closed)
        if state.processing { responderTask?.cancel() }
        // Its sleep would otherwise hold a stopping loop for up to `sendTimeout`.
        lastWritesWatch?.cancel()
        lastWritesWatch = nil
        bodyStream?.fail(HTTPError(400, "the connection closed"))
        bodyStream = nil
        resumeRoomWaiters(false)
        resumeStopWaiters()
        endResponder()
        webSocket?.end(code: nil)
        if reading {
            reading = false
            uv_read_stop(stream)
        }
        uv_timer_stop(timer)
        let onClose: uv_close_cb = { handle in
            HTTPConnection.from(handle!.pointee.data).handleClosed()
        }
        uv_close(UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_handle_t.self), onClose)
        uv_close(UnsafeMutableRawPointer(timer).assumingMemoryBound(to: uv_handle_t.self), onClose)
    }

    private func handleClosed() {
        openHandles -= 1
        if openHandles == 0 { server.connectionClosed(self) }
    }
}
