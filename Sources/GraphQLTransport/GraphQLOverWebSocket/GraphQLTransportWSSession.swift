import GraphQL
import HuddleRuntime

/// One connection speaking graphql-transport-ws (the graphql-ws library's
/// PROTOCOL.md): connection_init/ack, ping/pong, subscribe, next, error,
/// complete, with the protocol's close codes. Confined to its socket's
/// loop, which calls it (asserted where it does): what makes it Sendable.
final class GraphQLTransportWSSession: WebSocketSession, @unchecked Sendable {
    private let service: GraphQLOverWebSocket
    private let request: HTTPRequest
    private let socket: WebSocket
    private var initReceived = false
    /// The connection's context, once acknowledged.
    private var context: (any Sendable)?
    private let tasks: SessionTasks
    private var isClosed: Bool { tasks.isStopped }

    init(service: GraphQLOverWebSocket, request: HTTPRequest, socket: WebSocket) {
        self.service = service
        self.request = request
        self.socket = socket
        tasks = SessionTasks(socket: socket, protocolName: "graphql-transport-ws", metrics: service.metrics)
        if socket.subprotocol != "graphql-transport-ws" {
            close(4406, "Subprotocol not acceptable")
            return
        }
        tasks.after(service.configuration.connectionInitTimeout) { [weak self] in
            guard let self, !self.initReceived else { return }
            self.close(4408, "Connection initialisation timeout")
        }
        tasks.every(service.configuration.keepAliveInterval) { [weak self] in
            self?.socket.send(text: #"{"type":"ping"}"#)
        }
    }

    func received(binary: [UInt8]) {
        socket.loop.assertInLoopThread()
        close(4400, "Binary messages are not part of the protocol")
    }

    func received(text: String) {
        socket.loop.assertInLoopThread()
        guard !isClosed else { return }
        let message: GraphQLValue
        do {
            message = try JSONReader().read(text)
        } catch {
            return close(4400, "Invalid message received")
        }
        guard case .string(let type)? = message["type"] else { return close(4400, "Invalid message received") }
        switch type {
        case "connection_init":
            connectionInit(message["payload"])
        case "ping":
            socket.send(text: #"{"type":"pong"}"#)
        case "pong":
            break
        case "subscribe":
            guard case .string(let id)? = message["id"], !id.isEmpty,
                let payload = message["payload"], case .success(let parameters) = GraphQLRequest.from(json: payload),
                parameters.namesADocument
            else {
                return close(4400, "Invalid message received")
            }
            subscribe(id: id, parameters)
        case "complete":
            guard case .string(let id)? = message["id"] else { return close(4400, "Invalid message received") }
            tasks.cancel(id)
        default:
            close(4400, "Invalid message received")
        }
    }

    private func connectionInit(_ payload: GraphQLValue?) {
        guard !initReceived else { return close(4429, "Too many initialisation requests") }
        initReceived = true
        let members: [GraphQLValue.Member]
        switch payload {
        case nil, .null?: members = []
        case .object(let object)?: members = object
        default: return close(4400, "Invalid message received")
        }
        tasks.adoptTrace(from: members)
        Task(executorPreference: socket.loop) { [self] in
            let authorized: (any Sendable)?
            do {
                authorized = try await service.authorize(members, request)
            } catch {
                return close(1013, "Try again later")
            }
            guard let context = authorized else { return close(4403, "Forbidden") }
            guard !isClosed else { return }
            self.context = context
            tasks.watchAuthority(of: context) { [weak self] in self?.close(4403, GraphQLOverWebSocket.signInEnded) }
            socket.send(text: #"{"type":"connection_ack"}"#)
        }
    }

    private func subscribe(id: String, _ parameters: GraphQLRequest) {
        guard let context else { return close(4401, "Unauthorized") }
        guard !tasks.isRunning(id) else { return close(4409, "Subscriber for \(id) already exists") }
        guard tasks.operationCount < service.configuration.maxSubscriptions else {
            return send(
                id: id, type: "error",
                payload: GraphQLOverWebSocket.json([
                    GraphQLError(
                        message: "Too many active operations on this connection (at most \(service.configuration.maxSubscriptions))."
                    )
                ]))
        }
        tasks.run(id) { [self] record in
            switch await GraphQLOverWebSocket.check(context) {
            case .valid: break
            case .ended: return close(4403, GraphQLOverWebSocket.signInEnded)
            case .unavailable(let error):
                guard !Task.isCancelled else { return }
                return await deliver(
                    id: id, type: "error",
                    payload: GraphQLOverWebSocket.json([.coded(error.message, code: "SERVICE_UNAVAILABLE")]))
            }
            switch await service.start(parameters, context: context, record: record, queue: GraphQLOverWebSocket.queue(of: socket)) {
            case .failed(let errors):
                guard !Task.isCancelled else { return }
                await deliver(id: id, type: "error", payload: GraphQLOverWebSocket.json(errors))
            case .single(let result):
                guard !Task.isCancelled else { return }
                await deliver(id: id, type: "next", payload: GraphQLOverWebSocket.json(result))
                await deliver(id: id, type: "complete", payload: nil)
            case .incremental(let initial, let execution):
                // Each result of the incremental delivery is a `next` message.
                guard !Task.isCancelled else { return }
                await deliver(id: id, type: "next", payload: GraphQLOverWebSocket.json(initial))
                while let result = await execution.next() {
                    guard !Task.isCancelled else { return }
                    await deliver(id: id, type: "next", payload: GraphQLOverWebSocket.json(result))
                }
                guard !Task.isCancelled else { return }
                await deliver(id: id, type: "complete", payload: nil)
            case .feed(let feed):
                let requestID = RequestID.current
                let prefix = GraphQLOverWebSocket.messagePrefix(id: id, type: "next")
                tasks.follow(id, record: record, feed) { [self] result in
                    let payload = GraphQLOverWebSocket.json(result, naming: requestID)
                    // A client that has fallen behind holds back its own events only.
                    let frame = WebSocketFrame.text(prefix, payload, UInt8(ascii: "}"))
                    if !isClosed, !socket.push(frame: frame, room: { [weak feed] in feed?.resume() }) { feed.pause() }
                    tasks.metrics?.subscriptionEventDelivered()
                    record.events += 1
                    record.count(result.errors)
                } ended: { [self] in
                    push(id: id, type: "complete", payload: nil, room: {})
                }
            }
        }
    }

    private func send(id: String, type: StaticString, payload: [UInt8]?) {
        guard !isClosed else { return }
        socket.send(text: GraphQLOverWebSocket.message(id: id, type: type, payload: payload))
    }

    /// A subscription's message, sent now; false when the client has
    /// fallen behind, until `room` is called (see `WebSocket.push`).
    @discardableResult
    private func push(id: String, type: StaticString, payload: [UInt8]?, room: @escaping () -> Void) -> Bool {
        guard !isClosed else { return false }
        return socket.push(text: GraphQLOverWebSocket.message(id: id, type: type, payload: payload), room: room)
    }

    /// An operation's message, sent as the client reads (see `WebSocket.deliver`).
    private func deliver(id: String, type: StaticString, payload: [UInt8]?) async {
        guard !isClosed else { return }
        await socket.deliver(text: GraphQLOverWebSocket.message(id: id, type: type, payload: payload))
    }

    private func close(_ code: UInt16, _ reason: String) {
        guard !isClosed else { return }
        socket.close(code: code, reason: reason)
        tasks.stopAll()
    }

    func closed(code: UInt16?) {
        socket.loop.assertInLoopThread()
        tasks.stopAll()
    }
}
