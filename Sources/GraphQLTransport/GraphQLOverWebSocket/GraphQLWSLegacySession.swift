import GraphQL
import HuddleRuntime

/// One connection speaking the legacy `graphql-ws` subprotocol of
/// subscriptions-transport-ws: connection_init, connection_ack or
/// connection_error, `ka` keep-alives, start/stop, data/error/complete,
/// connection_terminate. Confined to its socket's loop, which calls it
/// (asserted where it does): what makes it Sendable.
final class GraphQLWSLegacySession: WebSocketSession, @unchecked Sendable {
    private let service: GraphQLOverWebSocket
    private let request: HTTPRequest
    private let socket: WebSocket
    private var initReceived = false
    private var context: (any Sendable)?
    private let tasks: SessionTasks
    private var isClosed: Bool { tasks.isStopped }

    init(service: GraphQLOverWebSocket, request: HTTPRequest, socket: WebSocket) {
        self.service = service
        self.request = request
        self.socket = socket
        tasks = SessionTasks(socket: socket, protocolName: "graphql-ws", metrics: service.metrics)
        tasks.after(service.configuration.connectionInitTimeout) { [weak self] in
            guard let self, !self.initReceived else { return }
            self.close(4408, "Connection initialisation timeout")
        }
    }

    func received(binary: [UInt8]) {
        socket.loop.assertInLoopThread()
        sendConnectionError("Binary messages are not part of the protocol")
    }

    func received(text: String) {
        socket.loop.assertInLoopThread()
        guard !isClosed else { return }
        let message: GraphQLValue
        do {
            message = try JSONReader().read(text)
        } catch {
            return sendConnectionError("Message must be JSON-parseable.")
        }
        guard case .string(let type)? = message["type"] else { return sendConnectionError("Invalid message type!") }
        switch type {
        case "connection_init":
            connectionInit(message["payload"])
        case "start":
            guard case .string(let id)? = message["id"] else { return sendConnectionError("Invalid message type!") }
            guard let payload = message["payload"], case .success(let parameters) = GraphQLRequest.from(json: payload),
                parameters.namesADocument
            else {
                return send(id: id, type: "error", payload: Self.errorObject("Must provide query string."))
            }
            start(id: id, parameters)
        case "stop":
            guard case .string(let id)? = message["id"] else { return sendConnectionError("Invalid message type!") }
            tasks.cancel(id)
        case "connection_terminate":
            close(1000, "")
        default:
            if case .string(let id)? = message["id"] {
                send(id: id, type: "error", payload: Self.errorObject("Invalid message type!"))
            } else {
                sendConnectionError("Invalid message type!")
            }
        }
    }

    private func connectionInit(_ payload: GraphQLValue?) {
        guard !initReceived else { return }
        initReceived = true
        let members: [GraphQLValue.Member]
        if case .object(let object)? = payload { members = object } else { members = [] }
        tasks.adoptTrace(from: members)
        Task(executorPreference: socket.loop) { [self] in
            let authorized: (any Sendable)?
            do {
                authorized = try await service.authorize(members, request)
            } catch {
                sendConnectionError((error as? ServiceUnavailable)?.message ?? "Try again later")
                return close(1013, "Try again later")
            }
            guard let context = authorized else {
                // As subscriptions-transport-ws: say why, then close.
                sendConnectionError("Forbidden")
                return close(1011, "Forbidden")
            }
            guard !isClosed else { return }
            self.context = context
            tasks.watchAuthority(of: context) { [weak self] in self?.signInEnded() }
            socket.send(text: GraphQLOverWebSocket.message(id: nil, type: "connection_ack", payload: nil))
            socket.send(text: GraphQLOverWebSocket.message(id: nil, type: "ka", payload: nil))
            tasks.every(service.configuration.keepAliveInterval) { [weak self] in
                self?.socket.send(text: GraphQLOverWebSocket.message(id: nil, type: "ka", payload: nil))
            }
        }
    }

    private func start(id: String, _ parameters: GraphQLRequest) {
        guard let context else {
            return send(id: id, type: "error", payload: Self.errorObject("Connection not initialised: send connection_init first."))
        }
        // The protocol lets a start with a running id replace it.
        tasks.cancel(id)
        guard tasks.operationCount < service.configuration.maxSubscriptions else {
            return send(
                id: id, type: "error",
                payload: Self.errorObject(
                    "Too many active operations on this connection (at most \(service.configuration.maxSubscriptions))."
                ))
        }
        tasks.run(id) { [self] record in
            switch await GraphQLOverWebSocket.check(context) {
            case .valid: break
            case .ended: return signInEnded()
            case .unavailable(let error):
                guard !Task.isCancelled else { return }
                let result = ExecutionResult(data: nil, errors: [.coded(error.message, code: "SERVICE_UNAVAILABLE")])
                return await deliver(id: id, type: "data", payload: GraphQLOverWebSocket.json(result))
            }
            switch await service.start(parameters, context: context, record: record, queue: GraphQLOverWebSocket.queue(of: socket)) {
            case .failed(let errors):
                // subscriptions-transport-ws sends request errors as a data message.
                guard !Task.isCancelled else { return }
                await deliver(id: id, type: "data", payload: GraphQLOverWebSocket.json(ExecutionResult(data: nil, errors: errors)))
            case .single(let result):
                guard !Task.isCancelled else { return }
                await deliver(id: id, type: "data", payload: GraphQLOverWebSocket.json(result))
            case .incremental(let initial, let execution):
                guard !Task.isCancelled else { return }
                await deliver(id: id, type: "data", payload: GraphQLOverWebSocket.json(initial))
                while let result = await execution.next() {
                    guard !Task.isCancelled else { return }
                    await deliver(id: id, type: "data", payload: GraphQLOverWebSocket.json(result))
                }
                guard !Task.isCancelled else { return }
            case .feed(let feed):
                let requestID = RequestID.current
                let prefix = GraphQLOverWebSocket.messagePrefix(id: id, type: "data")
                return tasks.follow(id, record: record, feed) { [self] result in
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
            await deliver(id: id, type: "complete", payload: nil)
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

    private func sendConnectionError(_ message: String) {
        guard !isClosed else { return }
        socket.send(text: GraphQLOverWebSocket.message(id: nil, type: "connection_error", payload: Self.errorObject(message)))
    }

    private static func errorObject(_ message: String) -> [UInt8] {
        var writer = JSONWriter()
        writer.raw("{\"message\":")
        writer.string(message)
        writer.raw("}")
        return writer.bytes
    }

    /// As a refused connection_init: say why, then close.
    private func signInEnded() {
        sendConnectionError(GraphQLOverWebSocket.signInEnded)
        close(4403, GraphQLOverWebSocket.signInEnded)
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
